"""The SB201 fix (move late directives into the header) is unsafe exactly in hetjob scripts.

Moved lines land after the header's last directive, which in a hetjob script is
the last component: which component they were meant for is unknowable, so the
fix must not apply without ``--unsafe-fixes`` there, and may on a plain script.
"""

from __future__ import annotations

from slurmspec.kinds import Applicability
from slurmspec.lint import lint_text

PLAIN = """#!/bin/bash
#SBATCH --job-name=train
module load cuda
#SBATCH --gpus-per-node=4
srun python train.py
"""

HETJOB = """#!/bin/bash
#SBATCH --ntasks=1
#SBATCH hetjob
#SBATCH --ntasks=8
module load cuda
#SBATCH --gpus-per-node=4
srun python train.py
"""


def _sb201_fix(text: str):
    found = [d for d in lint_text(text) if d.code == "SB201"]
    assert len(found) == 1, found
    assert found[0].fix is not None
    return found[0].fix


def test_sb201_fix_is_safe_on_a_plain_script():
    assert _sb201_fix(PLAIN).applicability is Applicability.SAFE


def test_sb201_fix_is_unsafe_on_a_two_component_hetjob_script():
    assert _sb201_fix(HETJOB).applicability is Applicability.UNSAFE
