"""--dependency (slurmctld's update_job_dependency(); sbatch does not check it)."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from slurmspec.model.values.dependency import JobRef, parse_dependency
from slurmspec.version import SUPPORTED, parse_version

VERSIONS = st.sampled_from([parse_version(v) for v in SUPPORTED])
TEXT = st.one_of(st.text(), st.text(alphabet="afterokny:,?+_*[]0123 ", max_size=24))


@pytest.mark.parametrize("text", [
    "afterok:123", "afterok:123:456,afterany:7", "123", "123:456", "singleton",
    "after:5+10", "afterok:12_3", "afterok:12_*", "afterok:12_[1-3]", "afternotok:1?afterok:2",
    "aftercorr:9", "afterburstbuffer:9",
    "",  # no dependency at all (accepted by slurmctld 22.05.8)
])
def test_valid(text):
    assert parse_dependency(text, (22, 5)).ok


@pytest.mark.parametrize("text", [
    "foo:1", "afterok:", "afterok:abc", ",afterok:1", "afterok:1,", "afterok", "afterok:0",
])
def test_invalid(text):
    assert not parse_dependency(text, (22, 5)).ok


def test_values_and_warnings():
    v = parse_dependency("afterok:1:2_3", (26, 5)).value
    assert v.items[0].jobs == (JobRef(1), JobRef(2, "3"))
    assert parse_dependency("123", (26, 5)).value.items[0].type == "afterany"
    mixed = parse_dependency("afterok:1,afterok:2?afterok:3", (26, 5))
    assert mixed.ok and mixed.value.joiner == "?" and "OR" in mixed.problems[0].message
    assert parse_dependency("afterok:1+5", (26, 5)).problems  # +time only with `after`
    assert parse_dependency("expand:1", (26, 5)).problems[0].rejected is False


@given(TEXT, VERSIONS)
def test_never_raises_and_offsets_in_range(text, version):
    for p in parse_dependency(text, version).problems:
        assert 0 <= p.start <= p.end <= len(text)
