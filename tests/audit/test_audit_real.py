"""`slurmspec audit` on real accounting: MariaDB + slurmdbd 22.05 + a throwaway slurmctld (tests/slurm_accounting.py).

Real jobs with known mistakes run on the local node: a single `python3` process on two (fake)
GPUs, a job whose `--output` folder does not exist (it FAILS at start on 22.05), and one clean
script submitted twice. The audit must report the first with its GPU-hours, the second with its
log-folder rule and its loss, the clean one with nothing, and lint the clean script once while
counting it twice. Then the same audit runs as a 2-task Slurm job array (`--shard
$SLURM_ARRAY_TASK_ID/2`) on that cluster, and `audit merge` of the two shards must equal it.

All tests here share one cluster: the ``layout`` parameter puts them in their own xdist group
(tests/conftest.py), on a worker of their own. Skipped where MariaDB, slurmdbd or Slurm is
missing; under CI=true they must run.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from tests.conftest import in_ci
from tests.slurm_accounting import ACCOUNTING_LAYOUT, AccountingCluster, missing_accounting
from tests.slurm_cluster import TERMINAL_STATES, SlurmClusterError, missing_requirements

pytestmark = pytest.mark.parametrize("layout", [ACCOUNTING_LAYOUT], ids=["accounting"])

TRAIN = "import time\ntime.sleep(3)\n"
GPU_SCRIPT = ("#!/bin/bash\n#SBATCH --job-name=idle-gpus\n#SBATCH --gres=gpu:2\n#SBATCH --time=00:05:00\n"
              "#SBATCH --output=%x-%j.out\npython3 train.py\n")
NOLOG_SCRIPT = ("#!/bin/bash\n#SBATCH --job-name=nolog\n#SBATCH --time=00:05:00\n"
                "#SBATCH --output=missing-logs/%j.out\necho hello\n")
CLEAN_SCRIPT = ("#!/bin/bash\n#SBATCH --job-name=clean\n#SBATCH --time=00:05:00\n#SBATCH --output=%x-%j.out\n"
                "echo hello\n")
SECRET = "value-never-in-a-report"


def _stamp(when: datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%S")


@pytest.fixture(scope="session")
def accounting_cluster(slurm_cluster_for, tmp_path_factory):
    """One AccountingCluster for the session (``slurm_cluster_for`` only puts the tests in a Slurm group)."""
    why = missing_requirements("22.05") or missing_accounting()
    if why:
        if in_ci():
            pytest.fail(f"{why} -- CI=true, so the real-accounting tests must run", pytrace=False)
        pytest.skip(why)
    cluster = AccountingCluster()
    try:
        cluster.start()
    except SlurmClusterError as exc:
        pytest.fail(f"could not start the accounting cluster:\n{exc}", pytrace=False)
    yield cluster
    cluster.stop()


@pytest.fixture(scope="session")
def audited(accounting_cluster, tmp_path_factory):
    """The four jobs, run and recorded; the window (since, until) and the folder they ran in."""
    cluster = accounting_cluster
    folder = tmp_path_factory.mktemp("audit-jobs")
    folder.chmod(0o755)
    (folder / "train.py").write_text(TRAIN)
    since = _stamp(datetime.now() - timedelta(seconds=5))
    env = {"AUDIT_TOKEN": SECRET}  # stored by job_env; must never reach a report
    ids = {}
    for name, script in (("gpu", GPU_SCRIPT), ("nolog", NOLOG_SCRIPT), ("clean1", CLEAN_SCRIPT),
                         ("clean2", CLEAN_SCRIPT)):
        ids[name] = cluster.job_id(cluster.submit(script, cwd=folder, env=env))
    cluster.wait_recorded(ids.values(), timeout=90)
    time.sleep(1)
    until = _stamp(datetime.now())
    time.sleep(1)  # jobs submitted from now on (the array) fall outside the window
    return {"cluster": cluster, "folder": folder, "since": since, "until": until, "ids": ids}


def _audit(audited, *extra: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    cluster = audited["cluster"]
    argv = [sys.executable, "-m", "slurmspec", "audit", "--since", audited["since"], "--until", audited["until"],
            "--all-users", "--no-config", *extra]  # the audit's default rules
    return subprocess.run(argv, capture_output=True, text=True, env=cluster.env, cwd=cwd or audited["folder"],
                          timeout=120)


def test_real_accounting_report(audited, layout):
    done = _audit(audited, "--format", "json", "--show-scripts")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    rules = {rule["code"]: rule for rule in report["rules"]}
    assert set(rules) == {"SB310", "SB230"}, report["rules"]
    gpu = rules["SB310"]
    sacct = audited["cluster"].run(["sacct", "-X", "-n", "-P", "-o", "ElapsedRaw,AllocTRES",
                                    "-j", str(audited["ids"]["gpu"])]).stdout.split("|")
    assert "gres/gpu=2" in sacct[1]
    assert gpu["jobs"] == 1 and gpu["gpu_hours"] == round(int(sacct[0]) * 2 / 3600, 4) > 0
    assert gpu["lost"]["bound"] == "upper-bound" and gpu["lost"]["gpu_hours"] == round(int(sacct[0]) / 3600, 4)
    log = rules["SB230"]
    recorded = audited["cluster"].run(["sacct", "-X", "-n", "-P", "-o", "State,ExitCode,ElapsedRaw,Start,End",
                                       "-j", str(audited["ids"]["nolog"])]).stdout
    assert log["jobs"] == 1 and log["lost"] == {**log["lost"], "jobs": 1, "bound": "exact"}, recorded
    totals = report["totals"]
    assert (totals["jobs"], totals["flagged_jobs"], totals["unique_scripts"], totals["lint_runs"]) == (4, 2, 3, 3)
    by_codes = {tuple(script["codes"]): script for script in report["scripts"]}
    assert by_codes[()]["jobs"] == 2  # the clean script: submitted twice, linted once, counted twice
    assert by_codes[()]["text"] == CLEAN_SCRIPT
    assert SECRET not in done.stdout


def test_reports_keep_scripts_and_environment_private(audited, layout):
    for fmt in ("json", "text", "csv", "html"):
        done = _audit(audited, "--format", fmt)
        assert done.returncode == 0, done.stderr
        assert SECRET not in done.stdout and "python3 train.py" not in done.stdout and "echo hello" not in done.stdout


def test_job_array_shards_merge_into_the_unsharded_report(audited, layout, tmp_path):
    cluster = audited["cluster"]
    tmp_path.chmod(0o755)
    whole = _audit(audited, "--format", "json")
    assert whole.returncode == 0, whole.stderr
    array = (
        "#!/bin/bash\n#SBATCH --job-name=audit-shards\n#SBATCH --array=1-2\n#SBATCH --time=00:05:00\n"
        "#SBATCH --output=shard-%a.log\n"
        f"exec {sys.executable} -m slurmspec audit --since {audited['since']} --until {audited['until']} --all-users"
        " --no-config --shard $SLURM_ARRAY_TASK_ID/2 -o shard-$SLURM_ARRAY_TASK_ID.json\n"
    )
    job = cluster.job_id(cluster.submit(array, cwd=tmp_path))
    deadline = time.monotonic() + 90
    states = ""
    while time.monotonic() < deadline:  # accounting, not squeue: a task leaves the queue before slurmdbd has its end
        states = cluster.run(["sacct", "-X", "-n", "-P", "-o", "JobID,State", "-j", str(job)]).stdout
        ended = [line for line in states.splitlines() if (line.split("|")[-1].split() or [""])[0] in TERMINAL_STATES]
        if len(ended) == 2:
            break
        time.sleep(0.3)
    logs = "".join((tmp_path / f"shard-{k}.log").read_text() for k in (1, 2) if (tmp_path / f"shard-{k}.log").exists())
    assert states.count("COMPLETED") == 2, states + logs
    shards = [json.loads((tmp_path / f"shard-{k}.json").read_text()) for k in (1, 2)]
    assert [shard["shard"] for shard in shards] == ["1/2", "2/2"]
    assert all(shard["totals"]["jobs"] for shard in shards)  # each task audited some of the four jobs
    merged = subprocess.run(
        [sys.executable, "-m", "slurmspec", "audit", "merge", str(tmp_path / "shard-2.json"),
         str(tmp_path / "shard-1.json"), "--format", "json"], capture_output=True, text=True, timeout=60)
    assert merged.returncode == 0, merged.stderr
    assert merged.stdout == whole.stdout
    alone = subprocess.run([sys.executable, "-m", "slurmspec", "audit", "merge", str(tmp_path / "shard-1.json")],
                           capture_output=True, text=True, timeout=60)
    assert alone.returncode == 2 and "missing 2/2" in alone.stderr


def test_cluster_profile_imported_on_the_spot(audited, layout):
    done = _audit(audited, "--format", "json", "--import-cluster")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["header"]["cluster"] == AccountingCluster.CLUSTER_NAME
    assert {"SB310", "SB230"} <= {rule["code"] for rule in report["rules"]}


def test_the_database_route_gives_the_sacct_report(audited, layout, tmp_path):
    """--database (administrators, read-only SQL) must tell the same story as sacct, shards included."""
    cluster = audited["cluster"]
    options = tmp_path / "db.cnf"
    options.write_text(f"[client]\nsocket={cluster.db_socket}\nuser=root\ndatabase=slurm_acct_db\n")
    route = ("--database", str(options), "--db-cluster", AccountingCluster.CLUSTER_NAME)
    by_sacct = _audit(audited, "--format", "json", "--show-scripts")
    by_database = _audit(audited, "--format", "json", "--show-scripts", *route)
    assert by_database.returncode == 0, by_database.stderr
    assert by_database.stdout == by_sacct.stdout
    for k in (1, 2):
        shard = _audit(audited, *route, "--shard", f"{k}/2", "-o", str(tmp_path / f"{k}.json"))
        assert shard.returncode == 0, shard.stderr
    merged = subprocess.run([sys.executable, "-m", "slurmspec", "audit", "merge", str(tmp_path / "1.json"),
                             str(tmp_path / "2.json"), "--format", "json"], capture_output=True, text=True, timeout=60)
    plain = _audit(audited, "--format", "json")
    assert merged.returncode == 0 and merged.stdout == plain.stdout
