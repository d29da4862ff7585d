"""-m/--distribution: verify_dist_type() semantics."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from slurmspec.model.values.distribution import parse_distribution
from slurmspec.version import SUPPORTED, parse_version

VERSIONS = st.sampled_from([parse_version(v) for v in SUPPORTED])
TEXT = st.one_of(st.text(), st.text(alphabet="blockcyfpanequ=*:,4 ", max_size=24))


@pytest.mark.parametrize("text, ok", [
    # checked against sbatch 22.05.8
    ("block", True), ("cyclic:cyclic", True), ("*:*:*", True), ("plane=4", True),
    ("planex=3", True), ("pack", True), ("block,pack", True), ("Block:FCyclic", True),
    ("block,", True), ("block::cyclic", True), ("nopack,pack", True), ("*", True),
    ("plane", False), ("arbitrary:block", False), ("fcyclic", False),
    ("block,pack,nopack", False), (",pack", False), ("plane=0", False),
    ("plane=4,pack", False), ("cyclic:block:fcyclic:block", False), ("block:arbitrary", False),
])
def test_verdicts(text, ok):
    assert parse_distribution(text, (22, 5)).ok is ok


def test_values():
    v = parse_distribution("*:*:*", (22, 5)).value
    assert v.levels == ("block", "cyclic", "cyclic")
    assert parse_distribution("plane=4", (22, 5)).value.plane_size == 4
    assert parse_distribution("hostfile", (22, 5)).value.levels == ("arbitrary",)
    assert parse_distribution("cyclic,nopack", (22, 5)).value.pack is False


@given(TEXT, VERSIONS)
def test_never_raises_and_offsets_in_range(text, version):
    for p in parse_distribution(text, version).problems:
        assert 0 <= p.start <= p.end <= len(text)
