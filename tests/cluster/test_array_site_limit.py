"""SB116 assumes the default MaxArraySize (1001); with a cluster profile, SB412 judges the site's own."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from slurmspec.cluster.store import load_profile
from slurmspec.lint import lint_text

LAB = load_profile(str(Path(__file__).resolve().parent / "profiles" / "lab.toml"))


def _with_max_array_size(size: int):
    return attrs.evolve(LAB, config=attrs.evolve(LAB.config, max_array_size=size))


def _codes(array: str, cluster) -> set[str]:
    script = f"#!/bin/bash\n#SBATCH --array={array}\n#SBATCH --time=00:10:00\nsrun ./app\n"
    return {d.code for d in lint_text(script, cluster=cluster)} & {"SB116", "SB412"}


@pytest.mark.parametrize("array", ["0-2000", "1-3000:1500", "4999"])
def test_a_site_that_raised_max_array_size_gets_no_finding(array):
    assert _codes(array, None) == {"SB116"}  # without a profile: the default limit
    assert _codes(array, _with_max_array_size(5000)) == set()


@pytest.mark.parametrize("array", ["0-2000", "1-3000:1500", "5000"])
def test_over_the_site_limit_only_the_cluster_rule_reports(array):
    assert _codes(array, _with_max_array_size(1001)) == {"SB412"}
    assert _codes(array, _with_max_array_size(2000 if array != "5000" else 5000)) == {"SB412"}


def test_beyond_any_site_limit_sb116_reports_even_with_a_profile():
    assert _codes("0-4000001", _with_max_array_size(4000001)) == {"SB116"}
