"""Keyword-valued options (enums.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from slurmspec.model.values import enums as e
from slurmspec.version import SUPPORTED, parse_version

VERSIONS = st.sampled_from([parse_version(v) for v in SUPPORTED])
TEXT = st.one_of(st.none(), st.text(), st.text(alphabet="ABCENDLOTUnoe,_=01 ", max_size=16))

# (parser, text, version, ok) -- 22.05 rows checked against sbatch 22.05.8
CASES = [
    (e.parse_mail_type, "BEGIN,BOGUS", (22, 5), True), (e.parse_mail_type, "BOGUS", (22, 5), False),
    (e.parse_mail_type, "", (22, 5), False), (e.parse_mail_type, ",,", (22, 5), False),
    (e.parse_mail_type, "NONE", (22, 5), True), (e.parse_mail_type, "BEGIN, END", (22, 5), True),
    (e.parse_open_mode, "apple", (22, 5), True), (e.parse_open_mode, "x", (22, 5), False),
    (e.parse_open_mode, "", (22, 5), False),
    (e.parse_profile, "energy,bogus", (22, 5), True), (e.parse_profile, "bogus", (22, 5), False),
    (e.parse_profile, "", (22, 5), False), (e.parse_profile, "task,", (22, 5), True),
    (e.parse_propagate, "CPU", (22, 5), True), (e.parse_propagate, "RLIMIT_CPU", (22, 5), True),
    (e.parse_propagate, "cpu", (22, 5), False), (e.parse_propagate, "all", (22, 5), False),
    (e.parse_propagate, "none", (22, 5), False), (e.parse_propagate, "CPU,,NPROC", (22, 5), True),
    (e.parse_propagate, "", (22, 5), True), (e.parse_propagate, None, (22, 5), True),
    (e.parse_wait_all_nodes, "2", (22, 5), False), (e.parse_wait_all_nodes, "01", (22, 5), True),
    (e.parse_wait_all_nodes, "1x", (22, 5), False), (e.parse_wait_all_nodes, "", (22, 5), True),
    (e.parse_no_kill, "Off", (22, 5), True), (e.parse_no_kill, "yes", (22, 5), False),
    (e.parse_no_kill, "", (22, 5), True), (e.parse_no_kill, None, (22, 5), True),
    (e.parse_exclusive, "USER", (22, 5), True), (e.parse_exclusive, "topo", (22, 5), False),
    (e.parse_exclusive, "topo", (24, 5), True), (e.parse_exclusive, "allocation", (25, 11), False),
    (e.parse_exclusive, "allocation", (26, 5), True), (e.parse_exclusive, "bogus", (22, 5), False),
    (e.parse_exclusive, "", (22, 5), True), (e.parse_exclusive, None, (22, 5), True),
    (e.parse_get_user_env, "10S", (22, 5), True), (e.parse_get_user_env, "L", (22, 5), True),
    (e.parse_get_user_env, "10X", (22, 5), False), (e.parse_get_user_env, "x", (22, 5), False),
    (e.parse_get_user_env, "10LL", (22, 5), True), (e.parse_get_user_env, "10", (25, 5), False),
    (e.parse_get_user_env, None, (25, 5), True),
    (e.parse_kill_on_invalid_dep, "YES", (22, 5), True),
    (e.parse_kill_on_invalid_dep, "y", (22, 5), False),
    (e.parse_gres_flags, "Disable-Binding", (22, 5), True),
    (e.parse_gres_flags, "enforce-binding,disable-binding", (22, 5), False),
    (e.parse_gres_flags, "one-task-per-sharing", (22, 5), False),
    (e.parse_gres_flags, "enforce-binding,one-task-per-sharing", (24, 5), True),
    (e.parse_gres_flags, "enforce-binding,disable-binding", (24, 5), False),
    (e.parse_hint, "compute_bound,nomultithread", (22, 5), True),
    (e.parse_hint, "Multithread", (22, 5), True), (e.parse_hint, "bogus", (22, 5), False),
    (e.parse_hint, "", (22, 5), False), (e.parse_hint, "help", (22, 5), False),
    (e.parse_requeue, None, (22, 5), True), (e.parse_requeue, "expedite", (25, 5), False),
    (e.parse_requeue, "expedite", (25, 11), True), (e.parse_requeue, "soon", (25, 11), True),
    (e.parse_requeue, "soon", (26, 5), False),
    (e.parse_oom_kill_step, None, (24, 11), True), (e.parse_oom_kill_step, "2", (24, 11), False),
    (e.parse_export, "ALL", (22, 5), True), (e.parse_export, "NIL", (22, 5), True),
    (e.parse_export, "ALL,FOO=1,BAR", (22, 5), True),
    (e.parse_resv_ports, "4", (24, 5), True), (e.parse_resv_ports, "x", (24, 5), False),
]


@pytest.mark.parametrize("parser, text, version, ok", CASES)
def test_verdicts(parser, text, version, ok):
    assert parser(text, version).ok is ok


def test_mail_type_values_and_warnings():
    parsed = e.parse_mail_type("BEGIN,BOGUS", (22, 5))
    assert parsed.value.types == ("BEGIN",)
    assert not parsed.problems[0].rejected and (parsed.problems[0].start, parsed.problems[0].end) == (6, 11)
    assert "remove the blank" in e.parse_mail_type("BEGIN, END", (22, 5)).problems[0].message
    assert e.parse_mail_type("BEGIN,NONE", (22, 5)).value.types == ()
    assert e.parse_mail_type("NONE,BEGIN", (22, 5)).problems
    assert set(e.parse_mail_type("all", (22, 5)).value.types) >= {"BEGIN", "END", "FAIL"}


def test_open_mode_first_letter():
    parsed = e.parse_open_mode("apple", (22, 5))
    assert parsed.value.value == "append" and not parsed.problems[0].rejected
    assert e.parse_open_mode("Truncate", (22, 5)).problems == ()


def test_export_value():
    v = e.parse_export("ALL,FOO=1,BAR", (26, 5)).value
    assert v.mode == "LIST" and v.include_all and v.variables == (("FOO", "1"), ("BAR", None))
    assert e.parse_export("NIL", (23, 2)).value.mode == "NIL"


@given(TEXT, VERSIONS)
def test_never_raises_and_offsets_in_range(text, version):
    for name in dir(e):
        if not name.startswith("parse_"):
            continue
        parser = getattr(e, name)
        if text is None and name not in ("parse_propagate", "parse_no_kill", "parse_exclusive",
                                         "parse_get_user_env", "parse_requeue",
                                         "parse_oom_kill_step", "parse_resv_ports"):
            continue
        for p in parser(text, version).problems:
            assert 0 <= p.start <= p.end <= len(text or "")
