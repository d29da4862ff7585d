"""The job model (slurmspec/model/job/model.py) against real Slurm: generated jobs really run, task by task.

Every job of ``tests/model/jobgen.py`` (a fixed list of cases real Slurm once
answered unexpectedly, plus ≥ 200 generated ones) is submitted to the throwaway
cluster (``slurm_cluster``, per release -- 22.05 and 24.11 -- with the job
model told that release: its real node has 2 CPUs and 2 fake GPUs), in two
shards of every other case, each on a cluster of its own, all at once, then
waited for. Each task reports its rank, local rank, node index,
``CUDA_VISIBLE_DEVICES`` and its step's CPUs; the test compares them with the
model wherever the model knows the answer:

- a step the model says cannot fit (``fits`` False) must not run; one that fits must;
- the number of tasks, and per task rank / local rank / node / visible GPUs (as
  positions among the job's GPUs, which the batch script's ``CUDA_VISIBLE_DEVICES``
  lists: without cgroup device constraint the node's own numbers show);
- CPUs: the batch script sees the CPUs the component asks per node; an ``srun``
  step whose CPUs per task were asked for (``srun -c``, ``SRUN_CPUS_PER_TASK``)
  holds tasks per node × CPUs per task, any other holds all the job's CPUs of the
  node (srun's default whole-node step, `man srun` ``--exact``);
- the ``--output``/``--error`` files appear where ``slurmspec/model/job/logs.py`` puts
  them (``%j``, ``%u``, ``%t``, ``%N``, ``%n`` filled in with the job's values).

When Slurm and the model disagree the model is wrong: fix it and keep the job in
``jobgen.FIXED``. Run with ``-s`` (or ``-rA``) to see the counts.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

from slurmspec import parse
from slurmspec.check.context import FileSystem
from slurmspec.model.job.model import job_model
from slurmspec.model.job.logs import log_files
from tests import oracle_tally
from tests.conftest import in_ci
from tests.model.jobgen import FIXED, REPORT_PY, REPORT_SH, Case, generated

# Minutes of jobs running one after another on the one real node: workers of their own.
pytestmark = [pytest.mark.slurm, pytest.mark.own_worker]

GENERATED = 205


def _submit_all(cluster, cases: list[Case], folder: Path) -> list[tuple[Case, str, int | None, str]]:
    submitted = []
    for i, case in enumerate(cases):
        text = case.render(str(folder))
        if cluster.version >= (23, 2):
            # 24.11's srun waits for a step that can never fit ("step creation temporarily disabled,
            # retrying (Requested nodes are busy)") until the job's time limit, so the steps after it
            # never run; 22.05's fails it at once. `--immediate=5` makes it fail after 5 s here too, so
            # every step is compared (src/srun/launch.c:_create_job_step(), 24.11.5).
            text = text.replace("\nsrun ", "\nsrun --immediate=5 ")
        path = folder / f"job{i}.sh"
        path.write_text(text)
        r = cluster.run(["sbatch", "--parsable", str(path)], cwd=str(folder), timeout=30)
        m = re.match(r"\s*(\d+)", r.stdout)
        submitted.append((case, str(path), int(m.group(1)) if r.returncode == 0 and m else None,
                          r.stdout + r.stderr))
    return submitted


def _wait_all(cluster, ids: list[int], timeout: float = 600) -> dict[int, str]:
    wanted = set(ids)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        out = cluster.run(["squeue", "-h", "-o", "%A"], timeout=15).stdout.split()
        if not wanted.intersection(int(x) for x in out if x.isdigit()):
            break
        time.sleep(0.5)
    else:
        cluster.run(["scancel", *map(str, ids)], timeout=15)
        pytest.fail(f"jobs still queued after {timeout}s")
    out = cluster.run(["scontrol", "show", "job", "-o"], timeout=30).stdout
    states = {}
    for line in out.splitlines():
        fields = dict(tok.split("=", 1) for tok in line.split() if "=" in tok)
        if fields.get("JobId", "").isdigit():
            states[int(fields["JobId"])] = fields.get("JobState", "?")
    return states


def _reports(folder: Path, job: int) -> dict[str, dict[int, list[str]]]:
    found: dict[str, dict[int, list[str]]] = {}
    for path in folder.glob(f"r.{job}.*"):
        _, _, tag, rank = path.name.split(".")
        found.setdefault(tag, {})[int(rank)] = path.read_text().split()
    return found


def _positions(cvd: str, job_gpus: list[str]) -> tuple[int, ...] | str:
    if cvd == "unset":
        return ()
    try:
        return tuple(job_gpus.index(x) for x in cvd.split(","))
    except ValueError:
        return f"GPU {cvd} is not one of the job's {job_gpus}"


class Tally:
    def __init__(self) -> None:
        self.fields = 0
        self.problems: list[str] = []

    def check(self, what: str, model, real) -> None:
        if model is None:
            return
        self.fields += 1
        if model != real:
            self.problems.append(f"{what}: model {model!r}, Slurm {real!r}")


def _compare(case: Case, path: str, job: int, folder: Path, host: str, version: tuple[int, int]) -> Tally:
    script = parse(Path(path).read_text(), path, version=version)
    model = job_model(script)
    comp = model.component(0)
    reports = _reports(folder, job)
    tally = Tally()
    batch = reports.get("b", {}).get(0)
    if batch is None:
        tally.problems.append("the batch script did not report")
        return tally
    job_gpus = [] if batch[3] == "unset" else batch[3].split(",")
    tally.check("component GPUs per node", comp.gpus_per_node, len(job_gpus))
    tally.check("component CPUs per node", comp.cpus_per_node, int(batch[4]))
    if comp.tasks_explicit:
        tally.check("component tasks (SLURM_NTASKS)", comp.tasks, int(batch[5]) if batch[5] != "-" else None)
    for step in model.steps:
        tag = step.work.args[-1] if step.work.args else "?"
        _compare_step(tally, step, comp, tag, reports.get(tag, {}), job_gpus)
    for log in log_files(script, FileSystem(str(folder))):
        if log.stream == "input" or log.follows_output:
            continue
        name = os.path.join(folder, log.fill({"j": str(job), "u": "root", "t": "0", "N": host, "n": "0"}))
        tally.check(f"{log.stream} file {name}", True, os.path.exists(name))
    return tally


def _compare_step(tally: Tally, step, comp, tag: str, got: dict[int, list[str]], job_gpus: list[str]) -> None:
    where = f"step {tag}"
    if step.fits is False:
        tally.check(f"{where} runs", False, bool(got))
        return
    if not got:
        tally.check(f"{where} runs", step.fits, False)
        return
    tally.check(f"{where} runs", step.fits, True)
    tally.check(f"{where} tasks", step.tasks, len(got))
    for task in step.task_list or ():
        line = got.get(task.rank)
        if line is None:
            tally.problems.append(f"{where}: task {task.rank} did not report")
            continue
        tally.check(f"{where} task {task.rank} local rank", task.local_rank, int(line[1]))
        tally.check(f"{where} task {task.rank} node", task.node, int(line[2]))
        tally.check(f"{where} task {task.rank} GPUs", task.gpus, _positions(line[3], job_gpus))
    first = got.get(0)
    if first is None or first[4] == "-":
        return
    if step.in_batch:
        tally.check(f"{where} CPUs", step.cpus_per_task, int(first[4]))
    elif step.cpus_explicit:
        expected = (step.tasks_per_node * step.cpus_per_task
                    if step.tasks_per_node is not None and step.cpus_per_task is not None else None)
        tally.check(f"{where} CPUs (tasks per node x -c)", expected, int(first[4]))
    elif step.cpus_per_task is not None:
        tally.check(f"{where} CPUs (the job's on the node)", comp.cpus_per_node, int(first[4]))


# The jobs run one or two at a time on the one real node, so the run is mostly waiting (CI: 390 s of
# wall, 13 CPU seconds); two shards, each on a cluster and worker of its own, wait side by side.
SHARDS = 2


@pytest.mark.parametrize("shard", range(SHARDS))
def test_job_model_agrees_with_real_slurm(slurm_cluster, tmp_path: Path, shard: int) -> None:
    # tests/slurm_cluster.py sets batch_sched_delay=0: the 200-odd jobs start about one a second.
    if not slurm_cluster.has_program("python3"):  # the batch scripts run `python3 report.py`
        reason = f"python3 is not installed for Slurm {slurm_cluster.release} (.ci/setup-slurm-2411.sh installs it)"
        pytest.fail(reason) if in_ci() else pytest.skip(reason)
    folder = tmp_path
    os.chmod(folder, 0o755)
    (folder / "logs").mkdir()
    (folder / "report.sh").write_text(REPORT_SH)
    (folder / "report.sh").chmod(0o755)
    (folder / "report.py").write_text(REPORT_PY)
    cases = (FIXED + generated(GENERATED))[shard::SHARDS]
    t0 = time.monotonic()
    submitted = _submit_all(slurm_cluster, cases, folder)
    states = _wait_all(slurm_cluster, [job for _, _, job, _ in submitted if job is not None])
    host = slurm_cluster.hostname
    compared = agreed = fields = 0
    refused: list[str] = []
    disagreements: list[str] = []
    for case, path, job, output in submitted:
        if job is None:
            refused.append(f"{case.name}: {output.strip()}")
            continue
        tally = _compare(case, path, job, folder, host, slurm_cluster.version)
        if tally.fields:
            compared += 1
            fields += tally.fields
        if tally.fields and not tally.problems:
            oracle_tally.record("job model", slurm_cluster.release, accepted=True)
        if tally.problems:
            disagreements.append(f"{case.name} (job {job}, {states.get(job)}):\n  "
                                 + "\n  ".join(tally.problems) + "\n" + Path(path).read_text())
        elif tally.fields:
            agreed += 1
    print(f"\njob model vs Slurm {slurm_cluster.release}: {len(cases)} jobs, {len(refused)} refused by sbatch,"
          f" {compared} compared ({fields} fields), {agreed} agreed, {len(disagreements)} disagreed,"
          f" {time.monotonic() - t0:.0f}s")
    assert not disagreements, "\n".join(disagreements[:10])
    assert compared >= 200 // SHARDS, (compared, refused[:5])
