"""--begin/--deadline: parse_time() semantics."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from slurmspec.model.values.datetimes import parse_begin, parse_datetime, parse_deadline
from slurmspec.version import SUPPORTED, parse_version

VERSIONS = st.sampled_from([parse_version(v) for v in SUPPORTED])
TEXT = st.one_of(st.text(), st.text(alphabet="0123456789-:/.T nowuts+apmAPM\udcff", max_size=24))


@pytest.mark.parametrize("text", [
    # checked against sbatch 22.05.8
    "16:00", "4:00pm", "now + 1 hour", "now+1hour", "now-1day", "now", "tomorrow", "today",
    "teatime", "fika", "noon", "midnight", "2030-01-01T10:00", "uts1700000000", "0101",
    "01/01/30", "12/31", "10:00:00", "9:05", "tomorrowT10:00",
])
def test_accepted(text):
    assert parse_begin(text, (22, 5)).ok


@pytest.mark.parametrize("text", [
    # checked against sbatch 22.05.8: "Invalid time specification (pos=N)"
    "now+5min", "4pm", "16:00 PM", "2030-13-01", "Today", "T", "", "uts5", "13/01", "25:00",
    "9:5", "nowx", "now+", "now+hours", "2030-1-1",
])
def test_rejected(text):
    parsed = parse_begin(text, (22, 5))
    assert not parsed.ok and parsed.value is None


def test_units_hint_and_clock_hint():
    assert "spelled out" in parse_begin("now+5min", (22, 5)).problems[0].message
    assert "needs minutes" in parse_begin("4pm", (22, 5)).problems[0].message


def test_elevenses_is_24_05():
    assert not parse_begin("elevenses", (23, 11)).ok
    assert parse_begin("elevenses", (24, 5)).value.hour == 11


def test_values():
    v = parse_deadline("2030-01-01T10:00", (26, 5)).value
    assert (v.year, v.month, v.day, v.hour, v.minute) == (2030, 1, 1, 10, 0)
    assert parse_begin("now+2hours", (26, 5)).value.relative_seconds == 7200
    assert parse_begin("uts1700000000", (26, 5)).value.epoch == 1700000000


def test_warnings_are_not_rejections():
    past = parse_begin("2001-01-01", (26, 5))
    assert past.ok and "past" in past.problems[0].message
    rolled = parse_begin("2030-02-31", (26, 5))
    assert rolled.ok and rolled.problems and not rolled.problems[0].rejected


@given(TEXT, VERSIONS)
def test_never_raises_and_offsets_in_range(text, version):
    parsed = parse_datetime(text, version)
    for p in parsed.problems:
        assert 0 <= p.start <= p.end <= len(text)
