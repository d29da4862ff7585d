"""--array (slurmctld's _valid_array_inx(); sbatch does not check it)."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from slurmspec.model.values.array import ArrayRange, parse_array
from slurmspec.version import SUPPORTED, parse_version

VERSIONS = st.sampled_from([parse_version(v) for v in SUPPORTED])
TEXT = st.one_of(st.text(), st.text(alphabet="0123456789-:,%[] ", max_size=20))


# "1%2%3" (only the first throttle counts) and "" (not an array) are accepted by
# slurmctld 22.05.8, as the differential tests showed.
@pytest.mark.parametrize("text", ["0-15:4%2", "[1-5]", "1,3,5", "1000", "0", " 1", "1-3,7%1", "1%2%3", ""])
def test_valid(text):
    assert parse_array(text, (22, 5)).ok


@pytest.mark.parametrize("text", [
    "5-1", "1-10:0", "1-3%", "-1", "%2", "a", "1-3%x", "1" * 4097, "4000001", "0-9:4000001",
])
def test_invalid(text):
    parsed = parse_array(text, (22, 5))
    assert not parsed.ok and parsed.value is None
    assert not any(p.site_limit for p in parsed.problems)


@pytest.mark.parametrize("text, last", [("1001", 1001), ("0-1001", 1001), ("1-2000:1001", 1002), ("0-4000000", 4000000)])
def test_over_the_default_max_array_size_the_value_is_kept_for_the_site_limit(text, last):
    # refused with the default MaxArraySize=1001; a cluster profile with the site's own limit judges it (SB412)
    parsed = parse_array(text, (22, 5))
    assert not parsed.ok and [p.site_limit for p in parsed.problems if p.rejected] == ["MaxArraySize"]
    assert parsed.value.max_index == last


def test_count_is_distinct_indexes_even_for_the_largest_arrays():
    assert parse_array("0-9,5-14,0-14:7", (22, 5)).value.count == 15
    assert parse_array("0-4000000", (22, 5)).value.count == 4000001


def test_value_and_throttle():
    v = parse_array("0-15:4%2", (22, 5)).value
    assert v.ranges == (ArrayRange(0, 15, 4),) and v.throttle == 2
    assert v.count == 4 and v.max_index == 12
    assert parse_array("0-15:4%2", (22, 5)).problems[0].rejected is False


@given(TEXT, VERSIONS)
def test_never_raises_and_offsets_in_range(text, version):
    for p in parse_array(text, version).problems:
        assert 0 <= p.start <= p.end <= len(text)
