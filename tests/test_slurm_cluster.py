"""The throwaway real Slurm (tests/slurm_cluster.py) works as an oracle."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.slurm_cluster import SlurmCluster

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
    """A second, independent cluster starts beside the session one and stops cleanly."""
    cluster = SlurmCluster()
    with cluster:
        procs = dict(cluster._procs)
        workdir = cluster.workdir
        assert workdir is not None and workdir.is_dir()
        assert set(procs) == {"munged", "slurmctld", "slurmd"}
        assert cluster.test_only("#!/bin/bash\ntrue\n").accepted
    assert all(p.poll() is not None for p in procs.values())
    assert not workdir.exists()
    cluster.stop()  # idempotent
