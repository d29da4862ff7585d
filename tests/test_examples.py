"""How the profiles scale fixed matrices (tests/examples.py): ``in_this_run`` keeps exactly ``keep`` of the
costly cases in the dev profile, the same ones wherever it is asked, and every case under CI."""

from __future__ import annotations

import pytest

from tests import examples

CASES = ("a", "b", "c", "d", "e", "f", "g")


@pytest.mark.parametrize("keep", [1, 2, 6])
def test_the_dev_profile_keeps_exactly_keep_cases(monkeypatch, keep):
    monkeypatch.setattr(examples, "profile_name", lambda: "dev")
    for run in (0.0, 0.3, 0.99):  # the run's number: the same in every xdist worker
        monkeypatch.setattr(examples, "_RUN", run)
        assert sum(examples.in_this_run(case, CASES, keep) for case in CASES) == keep


def test_ci_and_thorough_keep_every_case(monkeypatch):
    for name in ("ci", "thorough"):
        monkeypatch.setattr(examples, "profile_name", lambda: name)
        assert all(examples.in_this_run(case, CASES, 1) for case in CASES)


def test_a_run_can_land_on_every_case(monkeypatch):
    monkeypatch.setattr(examples, "profile_name", lambda: "dev")
    chosen = set()
    for step in range(len(CASES)):
        monkeypatch.setattr(examples, "_RUN", (step + 0.5) / len(CASES))
        chosen.update(case for case in CASES if examples.in_this_run(case, CASES, 1))
    assert chosen == set(CASES)
