"""Counts, node counts, --nice and --priority."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from slurmspec.model.values.counts import (
    parse_count, parse_count0, parse_nice, parse_node_count, parse_priority,
)
from slurmspec.version import SUPPORTED, parse_version

VERSIONS = st.sampled_from([parse_version(v) for v in SUPPORTED])
TEXT = st.one_of(st.text(), st.from_regex(r"[ +-]?\d{0,25}[kKmM]?(-\d{0,25}[kKmM]?)?([,:]\d{0,4})*",
                                          fullmatch=True))


@pytest.mark.parametrize("text, ok", [
    # checked against sbatch 22.05.8
    ("1", True), ("+3", True), (" 3", True), ("3 ", False), ("0", False), ("-1", False),
    ("0x10", False), ("", False), ("99999999999", True), ("2147483648", False),
])
def test_count_22_05(text, ok):
    assert parse_count(text, (22, 5)).ok is ok


def test_count_int_max_cap_from_23_02():
    assert parse_count("2147483647", (23, 2)).value.value == 2147483647
    assert not parse_count("2147483648", (23, 2)).ok
    assert not parse_count("99999999999", (23, 2)).ok
    wrapped = parse_count("99999999999", (22, 5))
    assert wrapped.ok and "wraps" in wrapped.problems[0].message


def test_count0():
    assert parse_count0("0", (22, 5)).value.value == 0
    empty = parse_count0("", (22, 5))  # checked against sbatch 22.05.8: read as 0
    assert empty.ok and empty.value.value == 0 and empty.problems
    assert not parse_count0("-1", (22, 5)).ok
    assert not parse_count0("x", (22, 5)).ok


@pytest.mark.parametrize("text, lo, hi, ok", [
    # checked against sbatch 22.05.8
    ("2k", 2048, 2048, True), ("2K", 2048, 2048, True), ("2M", 2097152, 2097152, True),
    ("1-2k", 1, 2048, True), ("0", 0, 0, True), ("-3", 1, 3, True), ("1-0", 1, 0, True),
    ("4-2", None, None, False), ("1-", None, None, False), ("2g", None, None, False),
    ("2-3-4", None, None, False), ("", None, None, False), ("x", None, None, False),
    ("1,4,8", None, None, False),
])
def test_node_count_22_05(text, lo, hi, ok):
    parsed = parse_node_count(text, (22, 5))
    assert parsed.ok is ok
    if ok:
        assert (parsed.value.minimum, parsed.value.maximum) == (lo, hi)


def test_node_size_lists_23_02():
    v = parse_node_count("1,4,8", (23, 2)).value
    assert (v.minimum, v.maximum, v.sizes) == (1, 8, (1, 4, 8))
    assert parse_node_count("1-15:4", (24, 5)).value.sizes == (1, 5, 9, 13)
    assert not parse_node_count("1,x", (23, 2)).ok
    assert not parse_node_count("8-1:2", (23, 2)).ok


def test_nice_and_priority():
    # checked against sbatch 22.05.8: non-numeric silently becomes 0
    assert parse_nice("abc", (22, 5)).ok and parse_nice("abc", (22, 5)).value.value == 0
    assert parse_nice("5x", (22, 5)).value.value == 5
    assert not parse_nice("2147483646", (22, 5)).ok
    assert parse_nice(None, (22, 5)).value.value == 100
    neg = parse_nice("-5", (22, 5))
    assert neg.ok and "operator" in neg.problems[0].message
    assert parse_priority("TOP", (22, 5)).value.top
    assert parse_priority("abc", (22, 5)).ok and parse_priority("abc", (22, 5)).problems
    assert not parse_priority("-1", (22, 5)).ok


@given(TEXT, VERSIONS)
def test_never_raises_and_offsets_in_range(text, version):
    for parser in (parse_count, parse_count0, parse_node_count, parse_nice, parse_priority):
        for p in parser(text, version).problems:
            assert 0 <= p.start <= p.end <= len(text)
