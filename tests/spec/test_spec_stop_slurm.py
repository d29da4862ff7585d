"""Stopping before the time limit and chaining, run for real on the throwaway Slurm of each release.

Every job has ``signal = "B:USR1@30"`` and ``time = "00:01:00"`` (torchrun's: 00:02:00), and runs a
small checkpointing program (``PROGRAM``): it counts one-second steps from its
saved state, and on SIGUSR1 saves the step and exits 0. Per release, at once:

* chains of work longer than one limit (65 steps) launched plain and by srun
  with two tasks, and (22.05: the host has torch; the 24.11 chroot has not) by
  torchrun with two workers: every link but the last is stopped by the signal,
  which reaches every task or worker, saves, and the next link resumes from
  that step; the last link finishes the work; every link ends COMPLETED;
* the signal alone (no chain) under srun: the run stops, saves and ends
  COMPLETED, and nothing is queued;
* a chain whose work ends before the signal, and one whose program fails: one
  job each, ending COMPLETED and FAILED (exit 3), nothing queued;
* a chain whose program gets the signal but finishes its work (as one that
  finished in the second the signal was passed on): it creates ``$CHAIN_DONE``,
  and nothing more is queued.

Afterwards no job is pending or running. The jobs are submitted together, so
the test waits as long as its longest chain (three links, about 75 s; torchrun's,
two or three links of 60-100 s).

Slurm facts the timing relies on: slurmctld checks limits every 30 s and
signals a job whose end is within the warning time + 30 s (job_mgr.c
send_job_warn_signal()), so with a one-minute limit and @30 the signal comes at
the first check after the start; the script passes it on when the launch has
run 30 s (slurmspec/spec/writer/stop.py), so a link lasts about 31 s. A signal sent
before the batch step exists is lost (slurmd finds no step to signal, and
WARN_SENT is set anyway), so the jobs are submitted a few seconds after a check
(the controller logs each at debug2), and each link starts 1-3 s later in the
30-s cycle than the one before. A torchrun link ends 5-15 s later under load (three
processes import torch and leave the rendezvous), so its successor may start anywhere in
the cycle; a CI run lost the signal of such a link, which then ran out of time. Its
limit is therefore two minutes (Slurm's limits are whole minutes: 00:01:30 becomes 2):
the signal comes at the first check 60-90 s after the start, when the batch step
certainly exists.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
import time
from datetime import datetime
from pathlib import Path

import pytest

from slurmspec.emit import emit
from slurmspec.spec import load_spec
from tests.conftest import in_ci
from tests.slurm_cluster import TERMINAL_STATES
from tests.slurm_layout import ClusterLayout

# The real node claims 8 CPUs (config_overrides keeps slurmd from draining it for having 2), so
# every job of the test runs at once; the jobs mostly sleep.
STOP_LAYOUT = ClusterLayout(
    name="stop",
    nodes="NodeName={host} NodeAddr=127.0.0.1 CPUs=8 Boards=1 SocketsPerBoard=1 CoresPerSocket=8 ThreadsPerCore=1"
          " RealMemory={real_mem} State=UNKNOWN\n",
    partitions="PartitionName=debug Nodes={host} Default=YES MaxTime=04:00:00 State=UP\n",
    gres="",
    extra="SlurmdParameters=config_overrides\nSlurmctldDebug=debug2\n",
)
WORK = 65  # steps of one second: longer than the one-minute limit
TORCH_WORK = 100  # more than a first link can do before its signal (at most 90 steps)
TIME = {"torchrun": "00:02:00"}  # the others: 00:01:00
CHAIN_COUNT = {"torchrun": 8}  # at most this many links after the first; 4 for the others

PROGRAM = '''\
"""Counts one-second steps from its saved state; on SIGUSR1 it saves the step and exits 0.

With mode "finish" the signal ends the work instead (a program that finished just as it came).
When the work is done it creates $CHAIN_DONE.
"""
import json, os, signal, sys, time

stopped = []
signal.signal(signal.SIGUSR1, lambda *_: stopped.append(1))  # first: the signal may come early
work, code, mode = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rank = os.environ.get("RANK", os.environ.get("SLURM_PROCID", "0"))
state = os.path.join(os.environ["CHECKPOINT_DIR"], "state.json")
step = json.load(open(state))["step"] if os.path.exists(state) else 0


def say(text):  # one write(2) per line: the ranks share the job's output file
    os.write(1, f"job {os.environ['SLURM_JOB_ID']} rank {rank}: {text}\\n".encode())


def save():
    if rank == "0":
        with open(state + ".new", "w") as out:
            json.dump({"step": step}, out)
        os.replace(state + ".new", state)


say(f"start at {step} link {os.environ.get('CHAIN_INDEX', '0')}")
stage = os.environ.get("STAGE_DIR")
if stage:
    info = os.stat(stage)
    say(f"staged {open(os.path.join(stage, 'input.txt')).read().strip()} mode {info.st_mode & 0o777:o}"
        f" ours {info.st_uid == os.getuid()}")
if code:
    sys.exit(code)
while step < work:
    if stopped and mode == "finish":  # as if the work ended in the second the signal came
        step = work
        break
    if stopped:
        save()
        say(f"signal at {step}, saved")
        sys.exit(0)
    time.sleep(1)
    step += 1
save()
if rank == "0" and os.environ.get("CHAIN_DONE"):  # the contract: the work is complete, no further link
    open(os.environ["CHAIN_DONE"], "w").close()
say(f"done at {step}")
'''


def _scenarios(release: str, torch: bool) -> dict[str, tuple[str, str, int, int]]:
    """name -> (resources, launch kind and extras, work, exit code); [chain] unless the name says alone."""
    one = "nodes = 1\nntasks = 1\n"
    found = {
        "plain": (one, 'kind = "plain"\n', WORK, 0),
        "srun": ("nodes = 1\nntasks = 2\n", 'kind = "mpi"\n', WORK, 0),
        "alone": (one, 'kind = "srun"\n', WORK, 0),
        "early": (one, 'kind = "plain"\n', 3, 0),
        "fails": (one, 'kind = "plain"\n', WORK, 3),
        # the signal is passed on, but the program's work is complete: $CHAIN_DONE, no second link
        "finish": (one, 'kind = "plain"\n', WORK, 0),
    }
    if torch:
        # Under load, importing torch and the rendezvous take up to 20 s of a link (measured in CI:
        # 7 steps in a 30-s link), so a link may do little work; the chain's count leaves room for that.
        found["torchrun"] = ("nodes = 1\nntasks_per_node = 1\ncpus_per_task = 2\n",
                             'kind = "torchrun"\nprocs_per_node = 2\n', TORCH_WORK, 0)
    return found


def _spec(tmp_path: Path, name: str, scenario, python: str) -> str:
    resources, launch, work, code = scenario
    mode = "finish" if name == "finish" else "save"
    folder = tmp_path / name
    folder.mkdir()
    (folder / "input.txt").write_text(f"input of {name}\n")
    text = (f'[job]\nname = "stop-{name}"\ntime = "{TIME.get(name, "00:01:00")}"\nsignal = "B:USR1@30"\n'
            f'output = {json.dumps(str(folder / "out-%j.txt"))}\nchdir = {json.dumps(str(folder))}\n'
            f"[resources]\n{resources}[launch]\n{launch}program = {json.dumps(str(tmp_path / 'program.py'))}\n"
            f'args = ["{work}", "{code}", "{mode}"]\npython = {json.dumps(python)}\n'
            f'[env]\nOMP_NUM_THREADS = "1"\n'
            f'[checkpoint]\npersistent = {json.dumps(str(folder / "persistent"))}\n')
    if name == "plain":
        text += f'[staging]\ninputs = [{json.dumps(str(folder / "input.txt"))}]\n'
    if name != "alone":
        text += f"[chain]\ncount = {CHAIN_COUNT.get(name, 4)}\n"
    return text


def _last_check(cluster) -> float:
    """When slurmctld last tested the time limits (its first test comes 30 s after it starts)."""
    stamps = []
    for line in (cluster.workdir / "log" / "slurmctld.log").read_text(errors="replace").splitlines():
        if stamps and "Testing job time limits" not in line:
            continue
        match = re.match(r"\[(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+)\]", line)
        if match:
            stamps.append(datetime.strptime(match.group(1), "%Y-%m-%dT%H:%M:%S.%f").timestamp())
    first_line, *checks = stamps
    return checks[-1] if checks else first_line


def _submit_after_a_check(cluster) -> None:
    """Return when the next limit check is 10-28 s away, so the jobs start 2-20 s after one."""
    while True:
        until_next = 30.2 - (time.time() - _last_check(cluster)) % 30.2
        if 10 <= until_next <= 28:
            return
        time.sleep(0.5)


def _jobs(cluster) -> dict[int, dict[str, str]]:
    out = cluster.run(["scontrol", "show", "job", "-o"], timeout=15).stdout
    jobs = {}
    for line in out.splitlines():
        fields = dict(tok.split("=", 1) for tok in line.split() if "=" in tok)
        if fields.get("JobName", "").startswith("stop-") and fields.get("JobId", "").isdigit():
            jobs[int(fields["JobId"])] = fields
    return jobs


def _wait_for_all(cluster, timeout: float) -> dict[int, dict[str, str]]:
    """Every job of the test ended: a link is queued by a running link, so none can come later."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        jobs = _jobs(cluster)
        if jobs and all(job["JobState"] in TERMINAL_STATES for job in jobs.values()):
            return jobs
        time.sleep(1)
    for job_id in _jobs(cluster):
        cluster.run(["scancel", str(job_id)], timeout=10)
    raise AssertionError(f"jobs still running after {timeout}s: {_jobs(cluster)}")


@pytest.mark.own_worker
@pytest.mark.parametrize("release", ["22.05", "24.11"])
def test_signal_stops_saves_and_the_chain_finishes_the_work(slurm_cluster_for, tmp_path, release):
    cluster = slurm_cluster_for(release, STOP_LAYOUT)
    torch = release == "22.05" and importlib.util.find_spec("torch") is not None
    if release == "22.05" and not torch and in_ci():
        pytest.fail("torch is not installed (the CPU build) -- CI=true, so the torchrun chain must run")
    python = sys.executable if release == "22.05" else "python3"  # the chroot has its own python3
    tmp_path.chmod(0o755)
    (tmp_path / "program.py").write_text(PROGRAM)
    scenarios = _scenarios(release, torch)
    scripts = {name: emit(load_spec(_spec(tmp_path, name, scenario, python), cluster.version),
                          version=cluster.version) for name, scenario in scenarios.items()}
    _submit_after_a_check(cluster)
    started = time.monotonic()
    for name, script in scripts.items():
        cluster.job_id(cluster.submit(script, cwd=tmp_path / name))
    jobs = _wait_for_all(cluster, timeout=540 if torch else 240)
    seconds = time.monotonic() - started
    assert not cluster.run(["squeue", "-h"]).stdout.strip()  # nothing pending or running
    outputs = {name: {int(p.stem[4:]): p.read_text(errors="replace") for p in (tmp_path / name).glob("out-*.txt")}
               for name in scenarios}
    for name, (_, _, work, code) in scenarios.items():
        links = {job_id: job for job_id, job in jobs.items() if job["JobName"] == f"stop-{name}"}
        report = f"{name} on {release}:\n" + "\n".join(
            f"--- job {job_id} {job['JobState']} {job['ExitCode']}\n{outputs[name].get(job_id, '')}"
            for job_id, job in sorted(links.items())) + f"\n--- script:\n{scripts[name]}"
        ranks = 2 if name in ("srun", "torchrun") else 1
        _check(name, links, outputs[name], work, code, ranks, report)
    print(f"\n{release}: {len(jobs)} jobs of {len(scenarios)} specs ended in {seconds:.0f}s:",
          ", ".join(f"{job['JobName']} {job['JobState']} {job['RunTime']}" for _, job in sorted(jobs.items())))


def _check(name, links, outputs, work, code, ranks, report) -> None:
    ids = sorted(links)
    if code:  # the program failed at once: its status is the job's, nothing more is queued
        assert [(links[i]["JobState"], links[i]["ExitCode"]) for i in ids] == [("FAILED", f"{code}:0")], report
        return
    assert all(links[i]["JobState"] == "COMPLETED" and links[i]["ExitCode"] == "0:0" for i in ids), report
    if name == "early":
        assert len(ids) == 1 and f"done at {work}" in outputs[ids[0]], report
        return
    if name == "finish":
        assert len(ids) == 1 and f"done at {work}" in outputs[ids[0]], report
        assert "the work is done, no further link" in outputs[ids[0]], report
        return
    step = 0
    for index, job_id in enumerate(ids):
        text = outputs[job_id]
        assert f"rank 0: start at {step} link {index}" in text, report  # each link resumes where the last saved
        last = index == len(ids) - 1 and name != "alone"
        if last:
            assert f"rank 0: done at {work}" in text, report
            continue
        saved = [int(s) for s in re.findall(r"rank 0: signal at (\d+), saved", text)]
        assert len(saved) == 1 and 0 < saved[0] < work, report
        # the signal reached every task or worker, not only the first
        assert len(re.findall(r"rank \d: signal at \d+, saved", text)) == ranks, report
        step = saved[0]
    if name == "alone":
        assert len(ids) == 1, report  # no chain: the stopped run queues nothing
    else:
        assert 2 <= len(ids) <= CHAIN_COUNT.get(name, 4) + 1, report
    if name == "plain":
        assert all("staged input of plain mode 700 ours True" in outputs[i] for i in ids), report
