"""Emitted scripts against the throwaway real Slurm (tests/slurm_cluster.py).

* every launch kind, for 2 nodes x 8 GPUs on the ``gpu`` partition (virtual
  v100 nodes), and every sample spec, emitted for the cluster's release, is
  accepted by ``sbatch --test-only`` of that release (22.05 and 24.11), and what
  the loader refuses is refused by both;
* the torchrun, srun and plain kinds really run on the local node (2 workers)
  with the CPU build of torch, doing a gloo all-reduce whose sum is checked --
  on 22.05 only (``slurm_cluster_2205``): the 24.11 jobs run in a chroot that
  has no torch;
* per-task variables reach each task (both releases); staging, checkpoint sync,
  the stop signal and the chain run in tests/spec/test_spec_stop_slurm.py.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

from slurmspec.emit import emit
from slurmspec.spec import load_spec
from tests import oracle_tally
from tests.conftest import in_ci
from tests.slurm_cluster import DEFAULT_LAYOUT
from tests.spec.test_spec_load import REFUSED_TOGETHER

SAMPLES = sorted((Path(__file__).resolve().parents[2] / "samples").glob("*.toml"))
KINDS = ("torchrun", "srun", "horovod", "lightning", "accelerate", "deepspeed", "mpi", "plain")
EXTRAS = {"horovod": ['launcher = "horovodrun"'], "mpi": ['launcher = "mpirun"', 'mpi = "pmix"'],
          "plain": ['container = { image = "nvcr.io#nvidia/pytorch:24.01-py3" }']}


def _shape(kind: str) -> str:
    per_node = 1 if kind in ("torchrun", "accelerate") else 8
    return f"nodes = 2\nntasks_per_node = {per_node}\ngpus_per_node = 8\ngpu_type = \"v100\"\ncpus_per_task = 2\n"


def _variants():
    for kind in KINDS:
        yield kind, ""
        for extra in EXTRAS.get(kind, ()):
            yield kind, extra


@pytest.mark.parametrize(("kind", "extra"), list(_variants()))
def test_every_kind_is_accepted_for_two_nodes_of_eight_gpus(slurm_cluster, kind, extra):
    spec = load_spec(f'[job]\nname = "{kind}"\npartition = "gpu"\ntime = "30:00"\n[resources]\n{_shape(kind)}'
                     f'[launch]\nkind = "{kind}"\nprogram = "train.py"\n{extra}\n'
                     '[checkpoint]\npersistent = "/tmp/ckpt"\n[monitor]\ngpu = true\n', slurm_cluster.version)
    outcome = slurm_cluster.test_only(emit(spec, version=slurm_cluster.version))
    assert outcome.accepted, outcome.output
    oracle_tally.record("emitted scripts", slurm_cluster.release, accepted=True)
    assert "using 64 processors" in outcome.stderr or "on nodes v100-" in outcome.stderr, outcome.stderr


@pytest.mark.parametrize("sample", SAMPLES, ids=[s.stem for s in SAMPLES])
def test_samples_are_accepted(slurm_cluster, sample, tmp_path):
    (tmp_path / "logs").mkdir()
    version = slurm_cluster.version
    outcome = slurm_cluster.test_only(emit(load_spec(sample.read_text(), version), version=version), cwd=tmp_path)
    assert outcome.accepted, outcome.output
    oracle_tally.record("emitted scripts", slurm_cluster.release, accepted=True)


# ------------------------------------------------------------------ real runs
ALLREDUCE = '''\
"""Each worker contributes rank+1; after a gloo all-reduce every worker holds the sum."""
import os
import torch
import torch.distributed as dist


def work(rank, world):
    dist.init_process_group("gloo", rank=rank, world_size=world)  # env:// MASTER_ADDR/PORT
    value = torch.tensor([float(rank + 1)])
    dist.all_reduce(value)
    # One write(2) per line: the workers share the job's output file.
    os.write(1, f"rank {rank}/{world} allreduce={value.item():g}\\n".encode())
    dist.destroy_process_group()


def spawned(index, world):
    os.environ["RANK"], os.environ["WORLD_SIZE"] = str(index), str(world)
    work(index, world)


if __name__ == "__main__":
    if "RANK" in os.environ:  # started by torchrun or by the srun block
        work(int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]))
    else:  # plain: one process that starts its own two workers
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        os.environ.setdefault("MASTER_PORT", str(20000 + int(os.environ.get("SLURM_JOB_ID", "0")) % 20000))
        torch.multiprocessing.spawn(spawned, args=(2,), nprocs=2)
'''

RUNS = {
    "torchrun": "nodes = 1\nntasks_per_node = 1\ncpus_per_task = 2\n",
    "srun": "nodes = 1\nntasks_per_node = 2\n",
    "plain": "nodes = 1\nntasks = 1\ncpus_per_task = 2\n",
}


@pytest.fixture(scope="module")
def torch_available():
    if importlib.util.find_spec("torch") is None:
        reason = "torch is not installed (pip install torch==2.13.0, the CPU build)"
        if in_ci():
            pytest.fail(f"{reason} -- CI=true, so the real runs must happen", pytrace=False)
        pytest.skip(reason)


@pytest.fixture
def slurm_cluster_2205(slurm_cluster_for):
    """The 22.05 cluster, for jobs that run the host's Python (with torch): the 24.11 chroot has neither."""
    return slurm_cluster_for("22.05", DEFAULT_LAYOUT)


@pytest.mark.parametrize("kind", sorted(RUNS))
def test_kind_really_runs_a_gloo_allreduce(slurm_cluster_2205, torch_available, tmp_path, kind):
    slurm_cluster = slurm_cluster_2205
    tmp_path.chmod(0o755)
    program = tmp_path / "allreduce.py"
    program.write_text(ALLREDUCE)
    extra = "procs_per_node = 2\n" if kind == "torchrun" else ""
    spec = load_spec(
        f'[job]\nname = "real-{kind}"\npartition = "debug"\ntime = "5:00"\n'
        f'output = {json.dumps(str(tmp_path / "out-%j.txt"))}\nchdir = {json.dumps(str(tmp_path))}\n'
        f"[resources]\n{RUNS[kind]}"
        f'[launch]\nkind = "{kind}"\nprogram = {json.dumps(str(program))}\n'
        f"python = {json.dumps(sys.executable)}\n{extra}"
        '[env]\nOMP_NUM_THREADS = "1"\n')
    script = emit(spec)
    job_id = slurm_cluster.job_id(slurm_cluster.submit(script, cwd=tmp_path))
    try:
        state = slurm_cluster.wait(job_id, timeout=180)
    finally:
        outputs = "\n".join(p.read_text(errors="replace") for p in tmp_path.glob("out-*.txt"))
    assert state == "COMPLETED", f"job {job_id} ended {state}:\n{outputs}\n--- script:\n{script}"
    results = sorted(re.findall(r"rank (\d+)/(\d+) allreduce=(\d+)", outputs))
    assert results == [("0", "2", "3"), ("1", "2", "3")], outputs  # 1 + 2 summed over both workers


# ------------------------------------------------------------------ what the loader refuses, against sbatch
def _unchecked_script(resources: str, version) -> str:
    """The script a spec with these resources would give, without the loader's checks."""
    import tomllib

    from slurmspec.spec.model import Section, Spec

    job = Section("job", (("partition", "gpu" if "gpus" in resources else "cpu"), ("time", 10)))
    launch = Section("launch", (("kind", "plain"), ("program", "hostname")))
    return emit(Spec([job, Section("resources", tuple(tomllib.loads(resources).items())), launch]), version=version)


@pytest.mark.parametrize(("refused", "twin"), [(case[0], case[3]) for case in REFUSED_TOGETHER],
                         ids=[case[0].replace("\n", ",") for case in REFUSED_TOGETHER])
def test_what_the_loader_refuses_sbatch_refuses(slurm_cluster, refused, twin):
    """Each combination the loader refuses is refused by the real sbatch of each release; its corrected twin is not."""
    version = slurm_cluster.version
    outcome = slurm_cluster.test_only(_unchecked_script(refused, version))
    assert not outcome.accepted, outcome.output
    oracle_tally.record("emitted scripts", slurm_cluster.release, accepted=False)
    outcome = slurm_cluster.test_only(_unchecked_script(twin, version))
    assert outcome.accepted, outcome.output
    oracle_tally.record("emitted scripts", slurm_cluster.release, accepted=True)


def _run(slurm_cluster, tmp_path, spec_text: str, version) -> str:
    script = emit(load_spec(spec_text, version), version=version)
    job_id = slurm_cluster.job_id(slurm_cluster.submit(script, cwd=tmp_path))
    try:
        state = slurm_cluster.wait(job_id, timeout=120)
    finally:
        outputs = "\n".join(p.read_text(errors="replace") for p in tmp_path.glob(f"out-{job_id}.txt"))
    assert state == "COMPLETED", f"job {job_id} ended {state}:\n{outputs}\n--- script:\n{script}"
    return outputs


def _job(tmp_path, name: str) -> str:
    tmp_path.chmod(0o755)
    return (f'[job]\nname = "{name}"\npartition = "debug"\ntime = "5:00"\n'
            f'output = {json.dumps(str(tmp_path / "out-%j.txt"))}\nchdir = {json.dumps(str(tmp_path))}\n')


@pytest.mark.parametrize("kind", ["mpi", "srun"])
def test_per_task_variables_in_args_reach_each_task(slurm_cluster, tmp_path, kind):
    """`args = ["$SLURM_PROCID"]` in a real 2-task job: each task prints its own rank (it printed 0 twice)."""
    text = (_job(tmp_path, f"ranks-{kind}") + "[resources]\nnodes = 1\nntasks = 2\n"
            f'[launch]\nkind = "{kind}"\nprogram = "/bin/echo"\n'
            'args = ["rank", "$SLURM_PROCID", "local", "${SLURM_LOCALID}", "job $SLURM_JOB_ID"]\n')
    outputs = _run(slurm_cluster, tmp_path, text, slurm_cluster.version)
    ranks = sorted(re.findall(r"^rank (\d) local (\d) job (\d+)$", outputs, flags=re.M))
    assert [(r, local) for r, local, _ in ranks] == [("0", "0"), ("1", "1")], outputs
    assert len({job for _, _, job in ranks}) == 1, outputs


CPUS = '''#!/bin/bash
step_cpus=$(scontrol show step "$SLURM_JOB_ID.$SLURM_STEP_ID" | grep -o 'CPUs=[0-9]*')
echo "task $SLURM_PROCID cpus_on_node=$SLURM_CPUS_ON_NODE step_$step_cpus nproc=$(nproc)"
'''


def test_srun_tasks_get_cpus_per_task_on_22_05(slurm_cluster_2205, tmp_path):
    """`cpus_per_task = 2` for 22.05: the srun step's task gets 2 CPUs.

    The throwaway cluster binds no CPUs (TaskPlugin=task/none), so `nproc` shows
    the node's 2 either way, and a step without --exact gets all the job's CPUs;
    with SLURM_EXACT=1 (srun's --exact) the step holds exactly what srun asked
    for, which shows the difference: the same spec emitted for 26.05 (whose srun
    inherits -c) runs its task with 1 CPU on this 22.05.
    """
    program = tmp_path / "cpus.sh"
    program.write_text(CPUS)
    program.chmod(0o755)
    text = (_job(tmp_path, "cpus") + "[resources]\nntasks = 1\ncpus_per_task = 2\n"
            f'[launch]\nkind = "mpi"\nprogram = {json.dumps(str(program))}\n[env]\nSLURM_EXACT = "1"\n')
    assert "task 0 cpus_on_node=2 step_CPUs=2 nproc=2" in _run(slurm_cluster_2205, tmp_path, text, (22, 5))
    assert "task 0 cpus_on_node=1 step_CPUs=1" in _run(slurm_cluster_2205, tmp_path, text, (26, 5))
