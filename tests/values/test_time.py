"""Durations (--time, --time-min, --delay-boot): time_str2secs() semantics."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from slurmspec.model.values.time import Duration, parse_delay_boot, parse_duration, parse_time_min
from slurmspec.version import SUPPORTED, parse_version

VERSIONS = st.sampled_from([parse_version(v) for v in SUPPORTED])
TEXT = st.one_of(st.text(), st.text(alphabet="0123456789-:uUnN \udcff", max_size=20),
                 st.from_regex(r"-?\d{1,25}(-\d{0,25})?(:\d{0,25}){0,3}", fullmatch=True))


@pytest.mark.parametrize("text, minutes, unlimited, warnings", [
    # checked against sbatch 22.05.8
    ("5", 5, False, 0),
    ("0:30", 1, False, 1),          # rounded up
    ("1:99", 3, False, 2),          # 159 s: out of range + rounding
    ("25:00:00", 1500, False, 0),
    ("1-12:30:15", 2191, False, 1),
    ("2-", 2880, False, 0),
    ("1-2:3", 1563, False, 0),
    ("0", None, True, 1),           # 0 means UNLIMITED
    ("00:00:00", None, True, 1),
    ("UNLIMITED", None, True, 0),
    ("infinite", None, True, 0),
    ("-1", None, True, 0),
    ("-5", 4294960097, False, 1),   # wraps to 2982611-04:17:00
])
def test_valid_durations(text, minutes, unlimited, warnings):
    parsed = parse_duration(text, (22, 5))
    assert parsed.ok
    assert parsed.value.minutes == minutes
    assert parsed.value.unlimited is unlimited
    assert len(parsed.problems) == warnings
    assert all(not p.rejected for p in parsed.problems)


@pytest.mark.parametrize("text", [
    # checked against sbatch 22.05.8: "Invalid --time specification"
    "1h", "30m", "1:2:3:4", "1-1-1", "1:-2", "", "1.5", "-", "5 ", " 5", "2-3:4:5:6", "1- 2",
])
def test_rejected_durations(text):
    parsed = parse_duration(text, (22, 5))
    assert not parsed.ok
    assert parsed.value is None
    assert all(0 <= p.start <= p.end <= len(text) for p in parsed.problems)


def test_unit_suffix_message_explains():
    problem = parse_duration("1h", (26, 5)).problems[0]
    assert "`1h`" in problem.message and "`H:M:S`" in problem.message
    assert (problem.start, problem.end) == (1, 2)
    assert not problem.message.endswith(".")


def test_time_min_and_delay_boot():
    assert parse_time_min("0:30", (22, 5)).value == Duration(1, False, 30)
    # --delay-boot keeps seconds and has no UNLIMITED-for-0 rule
    boot = parse_delay_boot("0:30", (22, 5))
    assert boot.value.seconds == 30 and boot.problems == ()
    assert parse_delay_boot("0", (22, 5)).value.seconds == 0
    assert "--delay-boot" in parse_delay_boot("", (22, 5)).problems[0].message


@given(TEXT, VERSIONS)
def test_never_raises_and_offsets_in_range(text, version):
    for parser in (parse_duration, parse_time_min, parse_delay_boot):
        parsed = parser(text, version)
        for p in parsed.problems:
            assert 0 <= p.start <= p.end <= len(text)
