"""Feature expressions (--constraint, --prefer, --batch, --cluster-constraint)."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from slurmspec.model.values.constraint import (
    Feature, Group, parse_cluster_constraint, parse_constraint,
)
from slurmspec.version import SUPPORTED, parse_version

VERSIONS = st.sampled_from([parse_version(v) for v in SUPPORTED])
TEXT = st.one_of(st.text(), st.text(alphabet="ab&|*[]()!,2 ", max_size=30))


@pytest.mark.parametrize("text", [
    "a100", "a100&ib", "intel|amd", "rack1*2", "[rack1|rack2|rack3]", "[a*2&b*4]",
    "(a|b)&c", "((a|b)&c)|d", "[a|b]&c",
    # a comma is read like `&` (slurmctld 22.05.8 accepts `a100,ib` and requires both)
    "a100,ib", "a100,4gpus", "(a,b)|c", "a|b,c",
])
def test_valid(text):
    parsed = parse_constraint(text, (22, 5))
    assert parsed.ok and parsed.problems == ()


@pytest.mark.parametrize("text", [
    # slurmctld answers "Invalid feature specification"
    "&a", "a||b", "[a|b", "a|b]", "(a", "a)", "[[a]]", "a*", "a*0", "a,,b", ",a", "a,&b", "a b",
    "a[b]", "()", "[]", "(a)[b]", "([a|b])",
])
def test_invalid(text):
    parsed = parse_constraint(text, (22, 5))
    assert not parsed.ok and parsed.value is None
    assert parsed.problems[0].message.startswith("Invalid feature specification")


def test_structure():
    c = parse_constraint("[a*2&b*4]|c", (26, 5)).value
    assert c.features == ("a", "b", "c")
    first = c.expr.terms[0]
    assert isinstance(first, Group) and first.kind == "bracket"
    assert first.expr.terms == (Feature("a", 2), Feature("b", 4))
    assert c.expr.operators == ("|",)


def test_comma_is_and():
    assert parse_constraint("a,b", (22, 5)).value == parse_constraint("a&b", (22, 5)).value


def test_cluster_constraint():
    c = parse_cluster_constraint("!east,west", (26, 5)).value
    assert c.negated and c.features == ("east", "west")
    assert not parse_cluster_constraint("a&b", (26, 5)).ok


@given(TEXT, VERSIONS)
def test_never_raises_and_offsets_in_range(text, version):
    for parser in (parse_constraint, parse_cluster_constraint):
        for p in parser(text, version).problems:
            assert 0 <= p.start <= p.end <= len(text)
