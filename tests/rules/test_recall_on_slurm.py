"""Issue 24's claims about what Slurm and bash do, run on the throwaway Slurm of each release.

Each test pairs what real Slurm does with what slurmspec says about the same script:

* a misspelt prefix (`#SBTACH`, `#SBSTCH`, `#SBATCh`) is a comment: a bad partition on it
  is not even looked at (SB202), while the same line written `#SBATCH` is refused;
* an option with no value at the end of its line takes the next line's option: the job is
  named `--partition`, or sbatch stops on the stray word that follows
  ("Invalid directive found in batch script: batch") (SB007 and SB251, on the empty line);
* `--signal=B:USR1@T` without a trap kills the batch shell: FAILED, ExitCode 0:10 (SB253);
  a trap runs only once a foreground step has ended, and at once while the shell `wait`s;
* a launcher started with `&` and never waited for is killed when the script ends, and the
  job is COMPLETED (SB322);
* a job that sets no CPU count has one CPU per task, which torchrun's workers share (SB343);
* `$RUN` holding `srun ...` runs srun when bare, and nothing when quoted (SB320);
* `sbatch python3 train.py` opens the interpreter found on PATH and refuses it (SB254);
* the tasks of an array run one script, told apart only by `SLURM_ARRAY_TASK_ID` (SB252);
* an exported `CUDA_VISIBLE_DEVICES` reaches a launcher in the batch step as written, while an
  srun step with GPUs gets it from Slurm again (SB256).

The jobs are a few seconds long (the signal ones under a minute), and submitted together.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from slurmspec.lint import lint_text
from tests.slurm_cluster import TERMINAL_STATES
from tests.slurm_layout import ClusterLayout

# Eight CPUs claimed on the one real node (config_overrides keeps slurmd from draining it), so
# every job of a test runs at once; the jobs mostly sleep.
RECALL_LAYOUT = ClusterLayout(
    name="recall",
    nodes="NodeName={host} NodeAddr=127.0.0.1 CPUs=8 Boards=1 SocketsPerBoard=1 CoresPerSocket=8 ThreadsPerCore=1"
          " RealMemory={real_mem} State=UNKNOWN\n",
    partitions="PartitionName=debug Nodes={host} Default=YES MaxTime=04:00:00 State=UP\n",
    gres="",
    extra="SlurmdParameters=config_overrides\n",
)
RELEASES = ["22.05", "24.11"]


def _codes(script: str, version) -> dict[str, list[int]]:
    """slurmspec's findings on ``script``: code -> the lines it reports."""
    found: dict[str, list[int]] = {}
    for diagnostic in lint_text(script, version=version):
        found.setdefault(diagnostic.code, []).append(diagnostic.span.line)
    return found


def _wait_all(cluster, jobs: list[int], timeout: float) -> dict[int, dict[str, str]]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        infos = {job: cluster.job_info(job) for job in jobs}
        if all(info.get("JobState") in TERMINAL_STATES for info in infos.values()):
            return infos
        time.sleep(0.5)
    for job in jobs:
        cluster.run(["scancel", str(job)], timeout=10)
    raise AssertionError(f"jobs still running after {timeout}s: {infos}")


@pytest.mark.parametrize("release", RELEASES)
@pytest.mark.parametrize("prefix", ["#SBTACH", "#SBSTCH", "#SBATCh"])
def test_a_misspelt_prefix_is_a_comment_to_sbatch(slurm_cluster_for, release, prefix):
    cluster = slurm_cluster_for(release, RECALL_LAYOUT)
    script = f"#!/bin/bash\n{prefix} --partition=no-such-partition\n#SBATCH --time=1\nsrun true\n"
    assert cluster.test_only(script).accepted  # the partition is never read
    refused = cluster.test_only(script.replace(prefix, "#SBATCH"))
    assert not refused.accepted and "partition" in refused.output.lower()
    assert _codes(script, cluster.version).get("SB202") == [2]


@pytest.mark.parametrize("release", RELEASES)
def test_an_option_without_value_takes_the_next_lines_option(slurm_cluster_for, release, tmp_path: Path):
    cluster = slurm_cluster_for(release, RECALL_LAYOUT)
    tmp_path.chmod(0o755)
    refused_script = "#!/bin/bash\n#SBATCH --job-name\n#SBATCH --partition batch\n#SBATCH --time=1\nsrun true\n"
    refused = cluster.test_only(refused_script)
    assert not refused.accepted
    assert "Invalid directive found in batch script: batch" in refused.output
    assert _codes(refused_script, cluster.version).get("SB007") == [2]

    taken_script = ("#!/bin/bash\n#SBATCH --job-name\n#SBATCH --partition=no-such-partition\n"
                    "#SBATCH --output\n#SBATCH --exclusive\n#SBATCH --time=1\n#SBATCH --hold\ntrue\n")
    job = cluster.job_id(cluster.submit(taken_script, cwd=tmp_path))
    try:
        info = cluster.job_info(job)
    finally:
        cluster.run(["scancel", str(job)], timeout=10)
    assert info["JobName"] == "--partition=no-such-partition"  # the partition line is the job's name
    assert info["Partition"] == "debug"
    assert info["StdOut"].endswith("/--exclusive")  # and the log is a file named --exclusive
    assert info["OverSubscribe"] != "NO"  # the job is not exclusive
    assert _codes(taken_script, cluster.version).get("SB251") == [2, 4]


def _read_time(path: Path) -> int:
    return int(path.read_text().split()[0])


@pytest.mark.own_worker
@pytest.mark.parametrize("release", RELEASES)
def test_a_batch_signal_without_trap_kills_the_job_and_a_trap_waits_for_the_foreground(
        slurm_cluster_for, release, tmp_path: Path):
    # slurmctld checks the limits every 30 s and sends the warning to a job whose end is within
    # the warning time + 30 s (job_mgr.c), so with a one-minute limit and @30 it comes at the first
    # check after the start: within 30 s.
    cluster = slurm_cluster_for(release, RECALL_LAYOUT)
    tmp_path.chmod(0o755)
    head = "#!/bin/bash\n#SBATCH --time=1\n#SBATCH --signal=B:USR1@30\n#SBATCH --output=%x.out\ndate +%s > $SLURM_JOB_NAME.start\n"
    trap = "trap 'date +%s > $SLURM_JOB_NAME.trapped; exit 0' USR1\n"
    scripts = {
        "no-trap": head + "srun sleep 70\n",
        "trap-wait": head + trap + "srun sleep 70 &\nwait\n",
        "trap-foreground": head + trap + "srun sleep 40\n",
    }
    jobs = {name: cluster.job_id(cluster.submit(script, ["--job-name", name], cwd=tmp_path))
            for name, script in scripts.items()}
    infos = _wait_all(cluster, list(jobs.values()), timeout=120)
    state = {name: (infos[job]["JobState"], infos[job]["ExitCode"]) for name, job in jobs.items()}
    logs = "\n".join(f"{p.name}: {p.read_text()}" for p in tmp_path.glob("*.out"))
    # No trap: bash dies of SIGUSR1 (10), the job ends FAILED before its limit, nothing runs after.
    assert state["no-trap"] == ("FAILED", "0:10"), (state, logs)
    assert not (tmp_path / "no-trap.trapped").exists()
    # A trap while the shell waits runs at once (the signal comes within 30 s of the start) ...
    started, trapped = _read_time(tmp_path / "trap-wait.start"), _read_time(tmp_path / "trap-wait.trapped")
    assert trapped - started <= 32 and state["trap-wait"] == ("COMPLETED", "0:0"), (state, logs)
    # ... and during a foreground step only once the step has ended (40 s), though the same
    # signal came at the same check (the jobs started together).
    fg_started, fg_trapped = (_read_time(tmp_path / "trap-foreground.start"),
                              _read_time(tmp_path / "trap-foreground.trapped"))
    assert abs(fg_started - started) <= 2
    assert fg_trapped - fg_started >= 39, (fg_trapped - fg_started, state, logs)
    findings = {name: _codes(script, cluster.version).get("SB253") for name, script in scripts.items()}
    assert findings == {"no-trap": [3], "trap-wait": None, "trap-foreground": [7]}


@pytest.mark.parametrize("release", RELEASES)
def test_a_launcher_in_the_background_dies_when_the_script_ends(slurm_cluster_for, release, tmp_path: Path):
    cluster = slurm_cluster_for(release, RECALL_LAYOUT)
    tmp_path.chmod(0o755)
    # The script keeps busy without `sleep` (which SB322 takes as holding on on purpose) until the
    # step is running, so it ends while the step is alive. A fixed 3 s was a race on a loaded machine:
    # a step still being launched when the script ended once ran to its end (24.11, CI).
    body = ("#!/bin/bash\n#SBATCH --time=1\n#SBATCH --output=%x.out\n"
            "srun bash -c 'touch $SLURM_JOB_NAME.started; sleep 6; touch $SLURM_JOB_NAME.done' &\n"
            "SECONDS=0; while [[ ! -e $SLURM_JOB_NAME.started ]] && (( SECONDS < 40 )); do :; done\n")
    scripts = {"not-waited": body, "waited": body + "wait\n"}
    jobs = {name: cluster.job_id(cluster.submit(script, ["--job-name", name], cwd=tmp_path))
            for name, script in scripts.items()}
    infos = _wait_all(cluster, list(jobs.values()), timeout=60)
    time.sleep(8)  # longer than the step's own 6 s: had it survived the script, it would be done
    state = {name: infos[job]["JobState"] for name, job in jobs.items()}
    assert state == {"not-waited": "COMPLETED", "waited": "COMPLETED"}
    assert (tmp_path / "not-waited.started").exists() and not (tmp_path / "not-waited.done").exists()
    assert (tmp_path / "waited.done").exists()
    findings = {name: _codes(script, cluster.version).get("SB322") for name, script in scripts.items()}
    assert findings == {"not-waited": [4], "waited": None}


@pytest.mark.parametrize("release", RELEASES)
def test_a_job_without_a_cpu_count_has_one_cpu_per_task(slurm_cluster_for, release, tmp_path: Path):
    # SB343: torchrun's 4 workers in such a task share that one CPU.
    cluster = slurm_cluster_for(release, RECALL_LAYOUT)
    tmp_path.chmod(0o755)
    script = ("#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --time=1\n#SBATCH --output=cpus.out\n"
              "echo batch $SLURM_CPUS_ON_NODE\nsrun bash -c 'echo step $SLURM_CPUS_ON_NODE'\n")
    job = cluster.job_id(cluster.submit(script, cwd=tmp_path))
    info = _wait_all(cluster, [job], timeout=60)[job]
    assert info["JobState"] == "COMPLETED" and info["NumCPUs"] == "1", info
    assert (tmp_path / "cpus.out").read_text().split() == ["batch", "1", "step", "1"]
    worker_script = script.replace("srun bash -c 'echo step $SLURM_CPUS_ON_NODE'", "srun torchrun --nproc_per_node=4 train.py")
    assert _codes(worker_script, cluster.version).get("SB343") == [6]


@pytest.mark.parametrize("release", RELEASES)
def test_srun_in_a_variable_is_srun_only_unquoted(slurm_cluster_for, release, tmp_path: Path):
    # SB320 follows `RUN="srun ..."; $RUN ./app`: bash splits the bare `$RUN` into `srun` and its
    # options (a step starts), while `"$RUN"` names a program `srun --exact`, which does not exist.
    cluster = slurm_cluster_for(release, RECALL_LAYOUT)
    tmp_path.chmod(0o755)
    script = ("#!/bin/bash\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=2\n#SBATCH --time=1\n#SBATCH --output=run.out\n"
              "RUN=\"srun --exact\"\n$RUN bash -c 'echo step=$SLURM_STEP_ID'\n\"$RUN\" true || echo quoted-fails\n")
    job = cluster.job_id(cluster.submit(script, cwd=tmp_path))
    info = _wait_all(cluster, [job], timeout=60)[job]
    out = (tmp_path / "run.out").read_text()
    assert info["JobState"] == "COMPLETED" and "step=0" in out and "quoted-fails" in out, out
    assert _codes(script, (22, 5)).get("SB320") == [7]


@pytest.mark.parametrize("release", RELEASES)
def test_sbatch_takes_a_program_for_the_batch_script(slurm_cluster_for, release, tmp_path: Path):
    cluster = slurm_cluster_for(release, RECALL_LAYOUT)
    tmp_path.chmod(0o755)
    (tmp_path / "train.py").write_text("print('trained')\n")
    # sbatch looks the word up on PATH as it would a script, finds the interpreter and refuses it.
    by_name = cluster.run(["sbatch", "--time=1", "python3", "train.py"], cwd=tmp_path, timeout=30)
    assert by_name.returncode != 0 and "does not look like a batch script" in by_name.stderr, by_name.stderr
    by_path = cluster.run(["sbatch", "--time=1", "/bin/true", "train.py"], cwd=tmp_path, timeout=30)
    assert by_path.returncode != 0 and "does not look like a batch script" in by_path.stderr, by_path.stderr
    assert not cluster.run(["squeue", "-h"], timeout=30).stdout.strip()  # nothing was submitted
    script = "#!/bin/bash\n#SBATCH --time=1\nsbatch --time=1 python3 train.py\n"
    assert _codes(script, cluster.version).get("SB254") == [3]


@pytest.mark.parametrize("release", RELEASES)
def test_array_tasks_run_one_script_told_apart_by_their_index(slurm_cluster_for, release, tmp_path: Path):
    # SB252: every task runs the same script, and only SLURM_ARRAY_TASK_ID tells them apart.
    cluster = slurm_cluster_for(release, RECALL_LAYOUT)
    tmp_path.chmod(0o755)
    script = ("#!/bin/bash\n#SBATCH --array=1-3\n#SBATCH --time=1\n#SBATCH --output=array.out\n"
              "echo task $SLURM_ARRAY_TASK_ID >> tasks.txt\n")
    job = cluster.job_id(cluster.submit(script, cwd=tmp_path))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len((tmp_path / "tasks.txt").read_text().splitlines()
                                              if (tmp_path / "tasks.txt").exists() else []) < 3:
        time.sleep(0.5)
    time.sleep(1)
    assert sorted((tmp_path / "tasks.txt").read_text().split("\n")[:3]) == ["task 1", "task 2", "task 3"]
    cluster.run(["scancel", str(job)], timeout=10)
    silent = script.replace("--output=array.out", "--output=array-%a.out")
    reported = script.replace("echo task $SLURM_ARRAY_TASK_ID", "echo task")
    assert "SLURM_ARRAY" not in reported
    assert _codes(reported, cluster.version).get("SB252") == [2]
    assert _codes(silent, cluster.version).get("SB252") is None


def test_an_exported_cuda_visible_devices_reaches_the_batch_step_only(slurm_cluster, tmp_path: Path):
    # SB256 reads the batch step only: there the export reaches torchrun as
    # written, while an srun step with GPUs gets the variable from Slurm again.
    tmp_path.chmod(0o755)
    script = ("#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --ntasks=1\n#SBATCH --time=1\n#SBATCH --partition=debug\n"
              "#SBATCH --gres=gpu:1\n#SBATCH --output=cvd.out\n"
              "echo slurm=$CUDA_VISIBLE_DEVICES\nexport CUDA_VISIBLE_DEVICES=0,1,2,3\n"
              "bash -c 'echo batch=$CUDA_VISIBLE_DEVICES'\nsrun bash -c 'echo step=$CUDA_VISIBLE_DEVICES'\n")
    job = slurm_cluster.job_id(slurm_cluster.submit(script, cwd=tmp_path))
    info = _wait_all(slurm_cluster, [job], timeout=60)[job]
    assert info["JobState"] == "COMPLETED", info
    assert (tmp_path / "cvd.out").read_text().split() == ["slurm=0", "batch=0,1,2,3", "step=0"]
    launcher = script.replace("bash -c 'echo batch=$CUDA_VISIBLE_DEVICES'", "torchrun --standalone --nproc_per_node=8 train.py")
    assert any(d.code == "SB256" and d.span.line == 10 and "starts 8 processes" in d.message
               for d in lint_text(launcher, version=slurm_cluster.version))
