"""Parsing and linting do work proportional to the script (issue 21): measured as work, never as time.

Each shape is a script made of one unit repeated (an ``srun`` line, an ``#SBATCH`` line, a
suppression comment...). It is parsed, linted with every rule and its report excerpt made at
``N`` and at ``4 * N`` units, counting the lines of slurmspec's own code that run (a trace
function, so loops count, not only calls). Linear work grows about 4 times; the quadratic
passes issue 21 found grew 8 to 60 times at these sizes (``JobModel.step_of``, the
environment questions per launch, SB201's movable lines, suppressions per finding...).
The limit, 5.5, leaves room for fixed costs and is still far below quadratic growth.

What is quadratic in C (a tuple copied per repetition) runs no line of ours: those cases
are in ``tests/test_bounded_inputs.py``, as subprocesses with a time and memory limit.
"""

from __future__ import annotations

import os
import sys
from functools import lru_cache
from pathlib import Path

import pytest

import slurmspec
from slurmspec.lint.engine import lint_script, select_rules
from slurmspec.parser.script import parse_script
from slurmspec.report.excerpt import Excerpt

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = os.path.dirname(slurmspec.__file__)
OURS = (PACKAGE + os.sep, str(ROOT / "rules") + os.sep, os.path.join(PACKAGE, "rules") + os.sep)
N = 150
MOST_GROWTH = 5.5

GPU = "#!/bin/bash\n#SBATCH -N 2\n#SBATCH --gpus-per-node=4\n"
SH = "#!/bin/bash\n"

# name -> script of n units
SHAPES = {
    # The reproductions of the issue, and a realistic body.
    "srun": lambda n: GPU + "srun python train.py\n" * n,
    "sbatch": lambda n: SH + "#SBATCH --time=10\n" * n,
    "echo": lambda n: SH + "echo a b c d e f g h\n" * n,
    "a": lambda n: "a\n" * n,
    "if": lambda n: SH + "if a; then\n" * n,
    "realistic": lambda n: _realistic(n),
    # Passes found quadratic on the way.
    "export-srun": lambda n: GPU + "export X=1\nsrun python train.py\n" * n,
    "if-export-srun": lambda n: GPU + "if a; then export SRUN_CPUS_PER_TASK=2; fi\nsrun python x.py\n" * n,
    "lightning": lambda n: GPU + "srun python train.py --lightning\n" + "srun python x.py\n" * n,
    "late-directives": lambda n: SH + "true\n" + "".join(f"#SBATCH --comment=c{i}\n" for i in range(n)),
    "late-same-option": lambda n: SH + "true\n" + "#SBATCH --time=1\n" * n,
    "suppressed": lambda n: SH + "true\n" + "#SBATCH --time=1  # slurmspec: ignore[SB201]\n" * n,
    "suppressions-unused": lambda n: SH + "# slurmspec: ignore[SB201]\ntrue\n" * n,
    "stacked-suppressions": lambda n: SH + "# slurmspec: ignore[SB201]\n" * n + "true\n#SBATCH -t 1\n",
    "unknown-options": lambda n: SH + "".join(f"#SBATCH --tme{i % 7}=10\n" for i in range(n)),
    "hetjob": lambda n: SH + "#SBATCH -N1 -t 5\n#SBATCH hetjob\n" * n + "srun hostname\n",
    "stray-closers": lambda n: SH + "while a; do\n" * n + "fi\n" * n,
    "near-miss": lambda n: SH + "#SBATCH -t 5\n" * 20 + "# SBATCH --time=1\n" * n,
    "ntasks-refs": lambda n: SH + "#SBATCH -N 2\nSLURM_NTASKS=1 a\n" + "echo $SLURM_NTASKS 'x' # c\n" * n,
    "nodelist-refs": lambda n: SH + "#SBATCH -N 2\n" + "ssh ${SLURM_JOB_NODELIST} x\n" * n,
    "torchrun": lambda n: GPU + "torchrun --nproc_per_node=8 train.py\n" * n,
    "cuda-devices": lambda n: GPU + "export CUDA_VISIBLE_DEVICES=0\nsrun python x.py\n" * n,
    # One long line.
    "one-line-options": lambda n: SH + "#SBATCH" + " -t 1" * n + "\n",
    "one-line-strays": lambda n: SH + "#SBATCH" + " word" * n + "\n",
    "one-line-refs": lambda n: SH + "echo" + " $SLURM_NTASKS 'x'" * n + "\n",
    "one-line-commands": lambda n: SH + "a; " * n + "\n",
}


def _realistic(n: int) -> str:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from bench_lsp import script_of
    finally:
        sys.path.pop(0)
    return script_of(n * 4)


@lru_cache(maxsize=1)
def _rules():
    return select_rules()


def work(text: str) -> int:
    """Lines of slurmspec's code run to parse and lint ``text`` and excerpt its findings."""
    count = 0

    def local(frame, event, arg):
        nonlocal count
        if event == "line":
            count += 1
        return local

    def enter(frame, event, arg):
        return local if frame.f_code.co_filename.startswith(OURS) else None

    previous = sys.gettrace()
    sys.settrace(enter)
    try:
        script = parse_script(text.encode("utf-8"), "job.sbatch")
        found = lint_script(script, _rules())
        Excerpt.of(script, found)
    finally:
        sys.settrace(previous)
    return count


@pytest.mark.parametrize("shape", SHAPES)
def test_work_grows_linearly(shape):
    make = SHAPES[shape]
    work(make(2))  # lazy imports and caches out of the way
    small, large = work(make(N)), work(make(4 * N))
    assert large / small < MOST_GROWTH, f"{shape}: {small} lines of work for {N} units, {large} for {4 * N}"
