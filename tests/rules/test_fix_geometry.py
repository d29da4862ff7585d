"""Every SB301/SB310/SB311 unsafe fix keeps the job submittable and starts the processes it needs.

These fixes change how many tasks a job runs. For each one slurmspec offers on
the rule fixtures (at the version of their sidecar) and on the corpus of real
scripts (at 22.05 and at the newest release), the rule's fix alone is applied
and the result is checked:

- against a model computed here from the request (nodes, tasks per node,
  ``--cpus-per-task``/``--cpus-per-gpu``, GPUs per node) and the ``srun`` line:
  the fixed job asks for no more CPUs per node than the original; its launcher
  starts the processes the launcher needs (SB310/SB311: one per GPU of the
  original request; SB301: ``torchrun --nnodes`` x ``--nproc_per_node``); an
  edited ``srun`` step still fits in the job's CPUs per node (srun inherits
  ``-c`` from 23.11);
- against real sbatch 22.05 and 24.11 (``--test-only`` on the throwaway cluster of
  each release, tests/slurm_cluster.py, the fixes made for that release): on each partition whose virtual nodes accept the
  original (``a100``: 64 CPUs and 8 GPUs per node, ``gpu``: 32 and 8, ``debug``:
  the real node, 2 and 2), the fixed script is accepted too. ``--time`` and
  ``--constraint`` are overridden on the command line so that only the shape
  decides.

Regression: SB310's fix once turned ``--ntasks=1 --cpus-per-task=64`` on 8 GPUs
into 8 tasks of 64 CPUs (512 per node, refused), and SB311's turned a 4-rank CPU
MPI job that asked for one GPU into one rank.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from slurmspec import parse
from slurmspec.fix.apply import apply_edits
from slurmspec.kinds import Applicability, LaunchKind
from slurmspec.lint import lint_text
from slurmspec.version import NEWEST, OLDEST
from tests import oracle_tally
from tests.corpus import corpus_files
from tests.rules.test_fixtures import FIXTURES, read_expected
from tests.examples import least

CODES = ("SB301", "SB310", "SB311")
PARTITIONS = ("a100", "gpu", "debug")
from slurmspec.gates import SRUN_INHERITS_CPUS  # noqa: E402 - src/srun/opt.c reads SLURM_CPUS_PER_TASK again from 23.11


@dataclass(frozen=True)
class Case:
    name: str
    version: tuple
    code: str
    srun_index: int | None  # which `srun` (in file order) the finding is about
    original: str
    fixed: str


@dataclass(frozen=True)
class Shape:
    nodes: int
    tasks_per_node: int
    cpus_per_task: int
    cpus_per_node: int
    gpus_per_node: int


def _count(value) -> int | None:
    v = getattr(value, "value", value)
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _gpus(value) -> int | None:
    items = getattr(value, "items", None)
    if items is None:
        return None
    counts = [item.count for item in items if getattr(item, "name", "gpu") == "gpu"]
    return sum(counts) if counts and all(isinstance(c, int) for c in counts) else None


def job_shape(script) -> Shape | None:
    """The job's shape from its request alone; None when it is not fixed by literals."""
    r = script.request
    nodes_value = r.value("nodes")
    ntasks, per_node = _count(r.value("ntasks")), _count(r.value("ntasks-per-node"))
    if nodes_value is not None:
        if nodes_value.minimum != nodes_value.maximum:
            return None
        nodes = nodes_value.minimum
    elif ntasks is not None and per_node is not None:
        nodes = -(-ntasks // per_node)
    elif ntasks in (None, 1):
        nodes = 1
    else:
        return None
    if per_node is None:
        per_node = 1 if ntasks is None else (ntasks if nodes == 1 else (1 if ntasks == nodes else None))
    if per_node is None:
        return None
    gpn = _gpus(r.value("gpus-per-node"))
    if gpn is None:
        gpn = _gpus(r.value("gres"))
    if gpn is None and nodes == 1:
        gpn = _gpus(r.value("gpus"))
    cpt = _count(r.value("cpus-per-task"))
    cpg = _count(r.value("cpus-per-gpu"))
    cpus = cpg * (gpn or 0) if cpg and cpt is None else per_node * (cpt or 1)
    return Shape(nodes, per_node, cpt or 1, cpus, gpn or 0)


def _sruns(script):
    return [launch for launch in script.body.all_launches() if launch.kind == LaunchKind.SRUN]


def step_processes(script, shape: Shape, srun_index: int, version) -> tuple[int, int]:
    """(processes the step's launcher starts, CPUs per node the step needs)."""
    srun = _sruns(script)[srun_index]
    own = srun.option("ntasks-per-node") or srun.option("tasks-per-node")
    assert srun.option("ntasks") is None and srun.option("nodes") is None, "steps with their own -n/-N"
    per_node = shape.tasks_per_node if own is None else int(own.value)
    inner = srun.inner
    per_task = inner.nproc_per_node if inner is not None and inner.kind == LaunchKind.TORCHRUN else 1
    assert isinstance(per_task, int), "a launcher whose process count is not a literal"
    own_cpt = srun.option("cpus-per-task")
    if own_cpt is not None:
        step_cpt = int(own_cpt.value)
    else:
        step_cpt = shape.cpus_per_task if tuple(version) >= SRUN_INHERITS_CPUS else 1
    return shape.nodes * per_node * per_task, per_node * step_cpt


def needed_processes(case: Case, script, shape: Shape) -> int:
    """What the launcher needs: one process per GPU (SB310/SB311), torchrun's world size (SB301)."""
    if case.code in ("SB310", "SB311"):
        return shape.nodes * shape.gpus_per_node
    torchrun = _sruns(script)[case.srun_index].inner
    nnodes = torchrun.nnodes if isinstance(torchrun.nnodes, int) else shape.nodes
    return nnodes * torchrun.nproc_per_node


def _srun_index(script, line: int) -> int | None:
    for i, srun in enumerate(_sruns(script)):
        if srun.span.line <= line <= srun.span.end_line:
            return i
    return None


def fixed_cases(name: str, text: str, version) -> list[Case]:
    found = []
    script = parse(text, path=name, version=version)
    for d in lint_text(text, path=name, version=version):
        if d.code in CODES and d.fix is not None and d.fix.applicability == Applicability.UNSAFE:
            fixed = apply_edits(text, d.fix.edits)
            found.append(Case(name, version, d.code, _srun_index(script, d.span.line), text, fixed))
    return found


def fixture_cases(target=None) -> list[Case]:
    """The fixes offered on the rule fixtures, at each sidecar's version (or at ``target``)."""
    cases = []
    for code in CODES:
        for path in sorted((FIXTURES / code).glob("*.sbatch")):
            version, _ = read_expected(path.with_suffix(".expected"))
            version = target or version
            cases += [c for c in fixed_cases(f"{code}/{path.stem}", path.read_text(), version) if c.code == code]
    return cases


def corpus_cases(versions=(OLDEST, NEWEST)) -> list[Case]:
    cases = []
    for path in corpus_files():
        text = path.read_text(errors="replace")
        for version in versions:
            cases += fixed_cases(path.name, text, version)
    return cases


# Generated jobs: every combination of a small grid of shapes and launch lines, kept when one of
# the three rules offers an unsafe fix (deterministic, so CI compares the same cases every run).
_HEADERS = [
    (nodes, tasks, gpus, cpus)
    for nodes in (1, 2)
    for tasks in ("--ntasks=1", "--ntasks-per-node=1", "--ntasks-per-node=2", "")
    for gpus in (2, 4, 8)
    for cpus in ("", "--cpus-per-task=4", "--cpus-per-task=8", "--cpus-per-gpu=2")
]
_LAUNCHES = (
    "python train.py",
    "srun python train.py",
    "srun python train_ddp.py",
    "srun --ntasks-per-node=1 python train_ddp.py",
    "srun torchrun --nnodes={nodes} --nproc_per_node={gpus} train.py",
    "srun --container-image=nvcr.io/nvidia/pytorch:24.01 bash -c 'python train_ddp.py'",
)


def generated_cases(versions=(OLDEST, NEWEST)) -> list[Case]:
    cases = []
    for (nodes, tasks, gpus, cpus), launch in ((h, l) for h in _HEADERS for l in _LAUNCHES):
        lines = ["#!/bin/bash", "#SBATCH --time=60", f"#SBATCH --nodes={nodes}", f"#SBATCH --gres=gpu:{gpus}"]
        lines += [f"#SBATCH {word}" for word in (tasks, cpus) if word]
        text = "\n".join([*lines, launch.format(nodes=nodes, gpus=gpus)]) + "\n"
        for version in versions:
            cases += fixed_cases(f"generated:{nodes}n/{tasks or 'default'}/{gpus}g/{cpus or 'c1'}", text, version)
    return cases


def check_model(case: Case) -> None:
    before, after = parse(case.original, version=case.version), parse(case.fixed, version=case.version)
    old, new = job_shape(before), job_shape(after)
    where = f"{case.name} ({case.code}, {case.version}):\n{case.fixed}"
    assert old is not None and new is not None, f"the shape is not fixed by the request: {where}"
    assert case.srun_index is not None, f"the finding is not on an srun line: {where}"
    assert new.cpus_per_node <= old.cpus_per_node, (
        f"the fix asks for {new.cpus_per_node} CPUs per node, the original {old.cpus_per_node}: {where}")
    started, step_cpus = step_processes(after, new, case.srun_index, case.version)
    needed = needed_processes(case, before, old)
    assert started == needed, f"the fixed job starts {started} processes, the launcher needs {needed}: {where}"
    assert step_cpus <= new.cpus_per_node, (
        f"the step needs {step_cpus} CPUs per node, the job has {new.cpus_per_node}: {where}")


def test_fixture_fixes_keep_cpus_and_processes():
    cases = fixture_cases()
    assert {c.code for c in cases} == set(CODES), [c.name for c in cases]
    for case in cases:
        check_model(case)


def test_corpus_fixes_keep_cpus_and_processes():
    for case in corpus_cases():
        check_model(case)


def test_generated_fixes_keep_cpus_and_processes():
    cases = generated_cases()
    assert {c.code for c in cases} == set(CODES) and len(cases) >= 50, Counter(c.code for c in cases)
    for case in cases:
        check_model(case)


def _accepted(cluster, text: str, partition: str) -> bool:
    args = (f"--partition={partition}", "--time=60", "--constraint=")
    return cluster.test_only(text, args=args).accepted


def _check_sbatch(cluster, cases: list[Case], tally: Counter) -> None:
    seen = set()
    for case in cases:
        if (case.original, case.fixed) in seen:
            continue
        seen.add((case.original, case.fixed))
        for partition in PARTITIONS:
            if not _accepted(cluster, case.original, partition):
                continue
            assert _accepted(cluster, case.fixed, partition), (
                f"sbatch {cluster.release} accepts the original on {partition} but refuses the fixed script:"
                f" {case.name} ({case.code})\n{case.fixed}")
            oracle_tally.record("fix geometry", cluster.release, accepted=True)
            tally[case.code] += 1
            tally[f"{case.name}"] += 1


def test_fixed_fixtures_are_accepted_by_sbatch(slurm_cluster):
    tally: Counter = Counter()
    _check_sbatch(slurm_cluster, fixture_cases(slurm_cluster.version), tally)
    print(f"fix geometry (fixtures): {dict(tally)}")
    # The cases the fixes were wrong on reach sbatch before and after fixing.
    for name in ("SB310/bad_seed_8gpus_1task", "SB310/bad_two_gpus", "SB311/bad_fewer_tasks",
                 "SB301/bad_ntasks_per_node"):
        assert tally[name], f"{name} was never compared with sbatch: {dict(tally)}"


def test_fixed_corpus_scripts_are_accepted_by_sbatch(slurm_cluster):
    tally: Counter = Counter()
    cases = corpus_cases((slurm_cluster.version,))
    _check_sbatch(slurm_cluster, cases, tally)
    print(f"fix geometry (corpus): {len(cases)} fixes, compared {dict(tally)}")


def test_fixed_generated_scripts_are_accepted_by_sbatch(slurm_cluster):
    tally: Counter = Counter()
    cases = generated_cases((slurm_cluster.version,))
    _check_sbatch(slurm_cluster, cases, tally)
    compared = sum(tally[code] for code in CODES)
    print(f"fix geometry (generated): {len(cases)} fixes, {compared} compared with sbatch")
    assert compared >= least(50), dict(tally)


def test_the_old_sb310_fix_is_refused_by_sbatch(slurm_cluster):
    """8 tasks x 64 CPUs is what SB310's fix once asked for; the a100 nodes have 64 CPUs."""
    original = (FIXTURES / "SB310" / "bad_seed_8gpus_1task.sbatch").read_text()
    old_fix = original.replace("#SBATCH --ntasks=1\n", "#SBATCH --ntasks-per-node=8\n")
    assert _accepted(slurm_cluster, original, "a100")
    assert not _accepted(slurm_cluster, old_fix, "a100")
    oracle_tally.record("fix geometry", slurm_cluster.release, accepted=False)
    [case] = fixture_cases_named("SB310/bad_seed_8gpus_1task", slurm_cluster.version)
    assert _accepted(slurm_cluster, case.fixed, "a100")


def fixture_cases_named(name: str, target=None) -> list[Case]:
    return [c for c in fixture_cases(target) if c.name == name]


def test_cpu_mpi_job_with_a_site_gpu_gets_no_finding_and_no_fix():
    text = (FIXTURES / "SB311" / "good_cpu_mpi_site_gpu.sbatch").read_text()
    assert not [d for d in lint_text(text) if d.code in CODES]


@pytest.mark.parametrize("name", ["SB310/bad_no_cpus_per_task", "SB310/bad_cpus_do_not_divide"])
def test_no_fix_when_the_cpus_cannot_be_kept(name):
    path = FIXTURES / f"{name}.sbatch"
    found = [d for d in lint_text(path.read_text()) if d.code == "SB310"]
    assert found and all(d.fix is None for d in found)
