"""--signal: get_signal_opts()/sig_name2num() semantics."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from slurmspec.model.values.signal import SignalSpec, parse_signal
from slurmspec.version import SUPPORTED, parse_version

VERSIONS = st.sampled_from([parse_version(v) for v in SUPPORTED])
TEXT = st.one_of(st.text(), st.text(alphabet="RBrb:@SIGUSR12TERM0123456789 ", max_size=16))


@pytest.mark.parametrize("text, ok", [
    # checked against sbatch 22.05.8
    ("B:FOO", False), ("USR1@abc", False), ("0", False), ("@70000", False),
    ("USR1@65536", False), ("US", False), ("B:", False), ("USR1@ 5", True),
    ("R:USR1", True), ("B:USR2@30", True), ("sigterm", True), ("SIGUSR1", True),
    ("usr1 ", True), ("RB:USR1", True), ("BR:1@5", True), ("RBR:USR1", True),
    ("r:usr1", True), ("USR1@", True), ("USR1@65535", True), ("10@", True), (":USR1", True),
    ("65537", True), ("-1", True),
])
def test_verdicts(text, ok):
    assert parse_signal(text, (22, 5)).ok is ok


def test_values():
    assert parse_signal("B:USR2@30", (22, 5)).value == SignalSpec(("B",), 12, 30, "USR2")
    assert parse_signal("R:USR1", (22, 5)).value.seconds == 60
    assert parse_signal("USR1@", (22, 5)).value.seconds == 0


@given(TEXT, VERSIONS)
def test_never_raises_and_offsets_in_range(text, version):
    for p in parse_signal(text, version).problems:
        assert 0 <= p.start <= p.end <= len(text)
