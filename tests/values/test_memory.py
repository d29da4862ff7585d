"""Memory sizes: str_to_mbytes() semantics."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from slurmspec.model.values.memory import parse_memory
from slurmspec.version import SUPPORTED, parse_version

VERSIONS = st.sampled_from([parse_version(v) for v in SUPPORTED])
TEXT = st.one_of(st.text(), st.from_regex(r"[ +-]?\d{0,30}[kKmMgGtTpPbB]?[iI]?[bB]?", fullmatch=True))


@pytest.mark.parametrize("text, mb, warns", [
    # checked against sbatch 22.05.8
    ("100M", 100, False), ("100mb", 100, False), ("1G", 1024, False), ("1gb", 1024, False),
    ("1T", 1048576, False), ("1500K", 2, True), ("5kb", 1, True), ("+5G", 5120, False),
    (" 5G", 5120, False), ("0", 0, True), ("-0", 0, True), ("16", 16, True),
    ("100", 100, True), ("4096", 4096, False),
])
def test_accepted(text, mb, warns):
    parsed = parse_memory(text, (22, 5))
    assert parsed.ok and parsed.value.megabytes == mb
    assert bool(parsed.problems) is warns


@pytest.mark.parametrize("text, words", [
    # checked against sbatch 22.05.8: "Invalid --mem specification"
    ("1.5G", "decimals"), ("1P", "`P`"), ("1Gi", "IEC"), ("1GiB", "IEC"), ("-1", "negative"),
    ("", "Empty"), ("5 ", "not a memory size"), ("5b", "`B`"), ("5Bx", "not a memory size"),
    ("99999999999999999999", "too large"), ("5X", "not a memory size"),
])
def test_rejected(text, words):
    parsed = parse_memory(text, (22, 5))
    assert not parsed.ok and words in parsed.problems[0].message


def test_overflow_wraps_but_is_accepted():
    # checked against sbatch 22.05.8: the multiplication silently overflows
    parsed = parse_memory("9999999999999T", (22, 5))
    assert parsed.ok and "overflows" in parsed.problems[0].message


def test_bare_number_message():
    assert "`16G`" in parse_memory("16", (26, 5)).problems[0].message


@given(TEXT, VERSIONS)
def test_never_raises_and_offsets_in_range(text, version):
    for p in parse_memory(text, version).problems:
        assert 0 <= p.start <= p.end <= len(text)
