"""How many examples a property test tries: the Hypothesis profile decides, the report header says.

Every ``@settings(max_examples=examples(N))`` names the count CI runs. The
profiles (registered in tests/conftest.py, chosen by ``CI=true`` or
``--hypothesis-profile=NAME``):

* ``ci`` -- every count as written, the same examples every run (derandomized),
  so a build is never red by chance and the real-Slurm differentials compare at
  least as many cases as the counts say;
* ``dev`` (default) -- a fifth of each count (at least ``MINIMUM``), new random
  examples every run: quick feedback while working;
* ``thorough`` -- every count as written, random: a local hunt for new cases.

Fixed matrices scale the same way: ``sampled`` picks the cases a matrix test runs, and
``in_this_run`` says which of a few cases that cost seconds each (hostile inputs of 4 MiB,
a report compared across ``--jobs``) a dev run tries; CI runs them all.
"""

from __future__ import annotations

import os
import random

SCALE = {"ci": 1.0, "thorough": 1.0, "dev": 0.2}
MINIMUM = 10


def profile_name() -> str:
    from hypothesis import settings

    return settings.get_current_profile_name()


def examples(count: int) -> int:
    """The number of examples to try, for a test that CI runs ``count`` times."""
    scale = SCALE.get(profile_name(), 1.0)
    return count if scale >= 1.0 else max(MINIMUM, min(count, round(count * scale)))


def header() -> str:
    name = profile_name()
    scale = SCALE.get(name, 1.0)
    if scale >= 1.0:
        return f"hypothesis profile: {name} (every property test runs the example count CI runs)"
    return (f"hypothesis profile: {name} ({scale:.0%} of CI's example counts, at least {MINIMUM}; "
            "CI=true or --hypothesis-profile=ci runs them all)")


def least(count: int) -> int:
    """A minimum number of compared cases, scaled as the example counts are (CI asks for ``count``)."""
    return int(count * min(1.0, SCALE.get(profile_name(), 1.0)))


def sampled(items: tuple) -> tuple:
    """The cases a fixed matrix test runs: all of them where every count is as written (``ci``,
    ``thorough``), else a random ``examples(len(items))`` of them, new each run as the dev profile's
    examples are (a failure names its case, so it can be run again)."""
    count = examples(len(items))
    if count >= len(items):
        return items
    return tuple(random.sample(items, count))


# One number per run, the same in every xdist worker (xdist gives them the run's id).
_RUN = random.Random(os.environ.get("PYTEST_XDIST_TESTRUNUID") or os.urandom(8)).random()


def in_this_run(case: str, cases: tuple[str, ...], keep: int = 1) -> bool:
    """Whether this run tries ``case``, one of ``cases`` that cost seconds of CPU each: every one
    where every count is as written (``ci``, ``thorough``); in the dev profile ``keep`` of them,
    others each run (chosen by the run, so every worker agrees). The others are skipped, saying so."""
    if SCALE.get(profile_name(), 1.0) >= 1.0 or len(cases) <= keep:
        return True
    first = int(_RUN * len(cases))
    return (cases.index(case) - first) % len(cases) < keep

