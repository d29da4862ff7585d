"""The PARSERS registry and describe()."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from slurmspec.model.values import OPTIONAL_ARGUMENT, PARSERS, describe
from slurmspec.version import SUPPORTED, parse_version
from tests.examples import examples

KINDS = (
    "string count count0 node-count duration datetime memory filename gres gpus tres-per-task "
    "constraint array dependency signal distribution mail-type open-mode hint profile propagate "
    "gres-flags kill-on-invalid-dep wait-all-nodes no-kill exclusive get-user-env gpu-bind "
    "mem-bind cpu-freq gpu-freq acctg-freq requeue oom-kill-step export extra-node-info switches "
    "segment mem-update tres-bind resv-ports nice priority delay-boot"
).split()
VERSIONS = st.sampled_from([parse_version(v) for v in SUPPORTED])
NASTY = st.one_of(st.text(), st.sampled_from(["", "\udcff", "9" * 400, "%" * 50, "(" * 2000,
                                              "[" * 50, "-" * 30, ":" * 30, "é,ü", "\x00"]))


def test_all_kinds_registered_and_described():
    assert set(KINDS) <= set(PARSERS)
    for kind in KINDS:
        assert describe(kind) and describe(kind) != "a value", kind
    assert PARSERS["string"]("any thing", (22, 5)).value == "any thing"


def test_optional_argument_kinds_accept_none():
    for kind in OPTIONAL_ARGUMENT:
        assert PARSERS[kind](None, (26, 5)).ok, kind


@settings(max_examples=examples(200))
@given(st.sampled_from(KINDS), NASTY, VERSIONS)
def test_no_parser_ever_raises(kind, text, version):
    parsed = PARSERS[kind](text, version)
    for p in parsed.problems:
        assert 0 <= p.start <= p.end <= len(text)
        assert p.message and not p.message.endswith(".")
        assert p.message[0] == p.message[0].upper() or p.message[0] in "`-" or p.message[0].isdigit()
