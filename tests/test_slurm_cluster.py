"""The throwaway real Slurm (tests/slurm_cluster.py) works as an oracle."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.slurm_cluster import DEFAULT_LAYOUT, ClusterLayout, SlurmCluster

pytestmark = pytest.mark.slurm

VALID = """\
#!/bin/bash
#SBATCH --job-name=ok
#SBATCH --time=00:10:00
#SBATCH --ntasks=1
#SBATCH --mem=100M
echo hello
"""


def test_valid_script_is_accepted(slurm_cluster: SlurmCluster) -> None:
    out = slurm_cluster.test_only(VALID)
    assert out.accepted, out
    assert out.returncode == 0
    assert "to start at" in out.stderr
    assert "in partition debug" in out.stderr


def test_mem_and_mem_per_cpu_are_mutually_exclusive(slurm_cluster: SlurmCluster) -> None:
    out = slurm_cluster.test_only("#!/bin/bash\n#SBATCH --mem=1G\n#SBATCH --mem-per-cpu=1G\necho hi\n")
    assert not out.accepted
    assert out.returncode == 1
    # verbatim from slurm-semantics.md section 4.3 (a fatal(), hence exit 1)
    assert "--mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive." in out.stderr


def test_gpu_request_that_fits_is_accepted(slurm_cluster: SlurmCluster) -> None:
    out = slurm_cluster.test_only("#!/bin/bash\nnvidia-smi\n", ["--gres=gpu:v100:8", "-p", "gpu"])
    assert out.accepted, out
    assert "in partition gpu" in out.stderr
    assert "v100-" in out.stderr


def test_gpu_request_that_does_not_fit_is_rejected(slurm_cluster: SlurmCluster) -> None:
    out = slurm_cluster.test_only("#!/bin/bash\nnvidia-smi\n", ["--gres=gpu:16", "-p", "gpu"])
    assert not out.accepted
    assert out.returncode == 1
    assert "Requested node configuration is not available" in out.stderr


def test_directives_in_the_script_are_read(slurm_cluster: SlurmCluster) -> None:
    out = slurm_cluster.test_only("#!/bin/bash\n#SBATCH -p a100 --gres=gpu:a100:8 -N 4\nhostname\n")
    assert out.accepted, out
    assert "a100-[01-04] in partition a100" in out.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--array=5-1"], "Invalid job array specification"),
        (["--array=0-1001"], "Invalid job array specification"),
        (["--dependency=afterok:abc"], "Job dependency problem"),
        (["-p", "gpu", "-C", "v100&&ib"], "Invalid feature specification"),
        (["-p", "nosuch"], "Invalid partition name specified"),
        (["-p", "debug", "-t", "5:00:00"], "Requested time limit is invalid"),
    ],
)
def test_controller_side_rejections(
    slurm_cluster: SlurmCluster, args: list[str], message: str
) -> None:
    """Checks slurmctld makes for --test-only (see "What --test-only checks")."""
    out = slurm_cluster.test_only("#!/bin/bash\ntrue\n", args)
    assert not out.accepted
    assert out.returncode == 1
    assert f"allocation failure: {message}" in out.stderr


def test_env_overrides_script(slurm_cluster: SlurmCluster) -> None:
    script = "#!/bin/bash\n#SBATCH -p gpu\ntrue\n"
    assert "in partition gpu" in slurm_cluster.test_only(script).stderr
    out = slurm_cluster.test_only(script, env={"SBATCH_PARTITION": "a100"})
    assert "in partition a100" in out.stderr, out


def test_bytes_script_and_client_side_error(slurm_cluster: SlurmCluster) -> None:
    out = slurm_cluster.test_only(b"#!/bin/bash\n#SBATCH --time=1h\ntrue\n")
    assert out.returncode == 255
    assert "Invalid --time specification" in out.stderr


def test_test_only_is_fast(slurm_cluster: SlurmCluster) -> None:
    n = 20
    t0 = time.perf_counter()
    for _ in range(n):
        assert slurm_cluster.test_only(VALID).accepted
    per_call = (time.perf_counter() - t0) / n
    assert per_call < 1.0, f"{per_call * 1000:.0f} ms per --test-only call"


def test_real_job_runs_on_local_node(slurm_cluster: SlurmCluster, tmp_path: Path) -> None:
    out = slurm_cluster.submit("#!/bin/bash\necho hi\n", cwd=str(tmp_path))
    job = SlurmCluster.job_id(out)
    assert slurm_cluster.wait(job, timeout=60) == "COMPLETED"
    output = tmp_path / f"slurm-{job}.out"
    deadline = time.monotonic() + 10
    while not output.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert output.read_text() == "hi\n"


def test_real_gpu_job_sees_fake_gpus(slurm_cluster: SlurmCluster, tmp_path: Path) -> None:
    script = '#!/bin/bash\n#SBATCH --gres=gpu:2\necho "gpus=$SLURM_GPUS_ON_NODE cuda=$CUDA_VISIBLE_DEVICES"\n'
    job = SlurmCluster.job_id(slurm_cluster.submit(script, cwd=str(tmp_path)))
    assert slurm_cluster.wait(job, timeout=60) == "COMPLETED"
    assert (tmp_path / f"slurm-{job}.out").read_text() == "gpus=2 cuda=0,1\n"


def test_stop_leaves_nothing_behind(slurm_cluster: SlurmCluster) -> None:
    """A second, independent cluster of the same release starts beside the session one and stops cleanly."""
    cluster = SlurmCluster(slurm_cluster.release)
    with cluster:
        procs = dict(cluster._procs)
        workdir = cluster.workdir
        assert workdir is not None and workdir.is_dir()
        assert set(procs) == {"munged", "slurmctld", "slurmd"}
        assert cluster.test_only("#!/bin/bash\ntrue\n").accepted
    assert all(p.poll() is not None for p in procs.values())
    assert not workdir.exists()
    cluster.stop()  # idempotent


def test_release_is_the_one_that_answers(slurm_cluster: SlurmCluster) -> None:
    """`release`, `version` and `slurm_version` name the Slurm that really runs (its own scontrol says so)."""
    assert slurm_cluster.slurm_version.startswith(slurm_cluster.release + "."), slurm_cluster.slurm_version
    assert slurm_cluster.version == tuple(int(x) for x in slurm_cluster.release.split("."))
    config = slurm_cluster.scontrol("show", "config")
    assert f"SLURM_VERSION           = {slurm_cluster.slurm_version}" in config
    assert "ClusterName             = slurmspec" in config
    assert slurm_cluster.PARTITIONS == ("debug", "cpu", "gpu", "a100", "all")


def test_every_virtual_node_is_usable(slurm_cluster: SlurmCluster) -> None:
    """The same 25 nodes on every release, all usable by --test-only (none left UNKNOWN after start-up)."""
    nodes = slurm_cluster.run(["sinfo", "-h", "-N", "-o", "%N %t"]).stdout.split("\n")
    states = dict(line.split() for line in nodes if line.strip())
    assert len(states) == 25, states
    assert all(s in ("idle~", "idle") for s in states.values()), states
    out = slurm_cluster.test_only("#!/bin/bash\ntrue\n", ["-p", "cpu", "-N", "16"])
    assert out.accepted and "cpu-[001-016]" in out.stderr, out


SMALL = ClusterLayout(
    name="small",
    nodes=DEFAULT_LAYOUT.nodes.splitlines()[0] + "\n"
    "NodeName=h100-[1-2] NodeAddr=127.0.0.1 Port={dead_port} CPUs=96 RealMemory=1000000 Gres=gpu:h100:4 "
    "Feature=h100 State=CLOUD\n",
    partitions="PartitionName=debug Nodes={host} Default=YES MaxTime=30 State=UP\n"
    "PartitionName=h100 Nodes=h100-[1-2] MaxTime=1-00:00:00 State=UP\n",
    gres="NodeName={host} Name=gpu File={dev}/nvidia[0-1]\nNodeName=h100-[1-2] Name=gpu Type=h100 File={dev}/nvidia[0-3]\n",
    extra="MaxArraySize=201\nEnforcePartLimits=NO",
)


@pytest.mark.parametrize("release", ["22.05", "24.11"])
def test_a_layout_starts_the_same_cluster_on_each_release(slurm_cluster_for, release: str) -> None:
    """`slurm_cluster_for(release, layout)`: the layout's nodes, partitions and extra lines (later ones win)."""
    cluster = slurm_cluster_for(release, SMALL)
    assert cluster is slurm_cluster_for(release, SMALL)  # started once per session
    assert cluster.release == release and cluster.layout is SMALL
    assert cluster.PARTITIONS == ("debug", "h100")
    config = cluster.scontrol("show", "config")
    assert "MaxArraySize            = 201" in config
    assert "EnforcePartLimits       = NO" in config
    assert cluster.test_only("#!/bin/bash\ntrue\n", ["-p", "h100", "--gres=gpu:h100:4", "-N", "2"]).accepted
    assert not cluster.test_only("#!/bin/bash\ntrue\n", ["--array=0-201"]).accepted
    assert cluster.test_only("#!/bin/bash\ntrue\n", ["--array=0-200"]).accepted
