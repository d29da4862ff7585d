"""Counts of the cases the differential tests compared with real Slurm, per test and release.

Each differential test calls `record()` once per case it compared (sbatch's
verdict and slurmspec's agreed, or the test failed) and `record_skipped()` for
a case it could not compare (a configuration-dependent answer).  The
``pytest_terminal_summary`` hook in tests/conftest.py prints the table, so a
CI log shows how much each release really judged; `minimums()` lets a test
assert that it compared enough accepted *and* rejected cases.
"""

from __future__ import annotations

from collections import Counter

__all__ = ["record", "record_skipped", "counts", "minimums", "summary_lines", "export", "merge"]

_COUNTS: Counter[tuple[str, str, str]] = Counter()


def record(test: str, release: str, accepted: bool) -> None:
    """One compared case: sbatch of `release` accepted (or rejected) it, and slurmspec agreed."""
    _COUNTS[(test, release, "accepted" if accepted else "rejected")] += 1


def record_skipped(test: str, release: str) -> None:
    _COUNTS[(test, release, "skipped")] += 1


def export() -> list[tuple[str, str, str, int]]:
    """The counts as plain rows, for an xdist worker to send to the controller."""
    return [(*key, number) for key, number in _COUNTS.items()]


def merge(rows) -> None:
    """Add a worker's `export()` to this process's counts."""
    for test, release, kind, number in rows:
        _COUNTS[(test, release, kind)] += number


def counts(test: str, release: str) -> dict[str, int]:
    accepted = _COUNTS[(test, release, "accepted")]
    rejected = _COUNTS[(test, release, "rejected")]
    return {"compared": accepted + rejected, "accepted": accepted, "rejected": rejected,
            "skipped": _COUNTS[(test, release, "skipped")]}


def minimums(test: str, release: str, *, accepted: int, rejected: int) -> str | None:
    """Why the counts of `test` on `release` fall short of these minimums, or None.

    The minimums are CI's; a quicker Hypothesis profile asks for as much less as it runs less.
    """
    from tests.examples import least

    accepted, rejected = least(accepted), least(rejected)
    got = counts(test, release)
    if got["accepted"] >= accepted and got["rejected"] >= rejected:
        return None
    return (f"{test} on Slurm {release}: too few compared cases, {got} "
            f"(want at least {accepted} accepted and {rejected} rejected)")


def summary_lines() -> list[str]:
    """The table for the terminal summary: one line per test and release, then totals per release."""
    tests = sorted({(test, release) for test, release, _ in _COUNTS})
    if not tests:
        return []
    width = max(len(test) for test, _ in tests)
    lines = [f"{'test':<{width}}  release  compared  accepted  rejected  skipped"]
    totals: dict[str, Counter[str]] = {}
    for test, release in tests:
        got = counts(test, release)
        totals.setdefault(release, Counter()).update(got)
        lines.append(f"{test:<{width}}  {release:<7}  {got['compared']:>8}  {got['accepted']:>8}  "
                     f"{got['rejected']:>8}  {got['skipped']:>7}")
    for release, got in sorted(totals.items()):
        lines.append(f"{'TOTAL':<{width}}  {release:<7}  {got['compared']:>8}  {got['accepted']:>8}  "
                     f"{got['rejected']:>8}  {got['skipped']:>7}")
    return lines
