"""``slurmspec submit``: lint as sbatch will see the submission, refuse on an error, else run sbatch.

The first tests put a stand-in ``sbatch`` on PATH that records its arguments and exits 3, so the
pass-through of words, standard input and exit status is checked without a cluster; the last
ones submit to the throwaway 22.05 cluster (tests/slurm_cluster.py) with the real sbatch.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from slurmspec.invocation.submission import split_submission
from slurmspec.version import NEWEST

CLEAN = "#!/bin/bash\n#SBATCH --time=10\n#SBATCH --nodes=1\nhostname\n"
BROKEN = "#!/bin/bash\n#SBATCH --time=2h\n#SBATCH --nodes=1\nhostname\n"
FAKE = '#!/bin/sh\nprintf "%s|" "$@" > "$0.args"\ncat > "$0.stdin"\necho "Submitted batch job 7"\nexit 3\n'


def submit(*args: str, cwd: Path, env: dict[str, str], stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "slurmspec", "submit", *args], cwd=cwd, env=env,
                          input=stdin, capture_output=True, timeout=120)


@pytest.fixture
def fake(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    folder = tmp_path / "bin"
    folder.mkdir()
    sbatch = folder / "sbatch"
    sbatch.write_text(FAKE)
    sbatch.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SBATCH_", "SLURM_"))}
    env["PATH"] = f"{folder}{os.pathsep}{env.get('PATH', '')}"
    env["CI"] = "true"
    (tmp_path / "slurmspec.toml").write_text('slurm-version = "22.05"\n')
    return sbatch, env


@pytest.mark.parametrize("argv, expected", [
    (["-p", "gpu", "job.sh", "x"], (("-p", "gpu"), "job.sh", ("x",))),
    (["--exclusive", "job.sh"], (("--exclusive",), "job.sh", ())),
    (["-N1", ":", "-N2", "job.sh", "-p"], (("-N1", ":", "-N2"), "job.sh", ("-p",))),
    (["-t", "5", "--", "job.sh"], (("-t", "5"), "job.sh", ())),
    (["-pgpu", "--time", "5"], (("-pgpu", "--time", "5"), None, ())),
])
def test_the_script_is_the_word_sbatch_stops_at(argv, expected):
    assert split_submission(argv, NEWEST) == expected


def test_a_clean_script_goes_to_sbatch_with_the_same_words(tmp_path, fake):
    sbatch, env = fake
    (tmp_path / "job.sbatch").write_text(CLEAN)
    done = submit("-p", "debug", "job.sbatch", "arg one", cwd=tmp_path, env=env)
    assert done.returncode == 3  # sbatch's, passed through
    assert done.stdout == b"Submitted batch job 7\n"
    assert Path(f"{sbatch}.args").read_text() == "-p|debug|job.sbatch|arg one|"


def test_an_error_stops_the_submission(tmp_path, fake):
    sbatch, env = fake
    (tmp_path / "job.sbatch").write_text(BROKEN)
    done = submit("job.sbatch", cwd=tmp_path, env=env)
    assert done.returncode == 1 and done.stdout == b""
    assert b"SB110" in done.stderr and b"not submitted: 1 error (SB110)" in done.stderr
    assert not Path(f"{sbatch}.args").exists()


def test_the_command_line_and_environment_are_linted_with_the_script(tmp_path, fake):
    sbatch, env = fake
    (tmp_path / "job.sbatch").write_text(CLEAN)
    done = submit("--time=2h", "job.sbatch", cwd=tmp_path, env=env)
    assert done.returncode == 1 and b"<command line>:1:" in done.stderr
    done = submit("job.sbatch", cwd=tmp_path, env={**env, "SBATCH_TIMELIMIT": "3x"})
    assert done.returncode == 1 and b"<environment>:" in done.stderr
    assert not Path(f"{sbatch}.args").exists()


def test_force_submits_and_names_what_it_overrode(tmp_path, fake):
    sbatch, env = fake
    (tmp_path / "job.sbatch").write_text(BROKEN)
    done = submit("--force", "job.sbatch", cwd=tmp_path, env=env)
    assert done.returncode == 3
    assert b"--force: submitting despite 1 error (SB110)" in done.stderr
    assert Path(f"{sbatch}.args").read_text() == "job.sbatch|"


def test_a_script_on_standard_input_is_linted_and_handed_on(tmp_path, fake):
    sbatch, env = fake
    done = submit("-J", "x", cwd=tmp_path, env=env, stdin=CLEAN.encode())
    assert done.returncode == 3 and Path(f"{sbatch}.stdin").read_text() == CLEAN
    done = submit(cwd=tmp_path, env=env, stdin=BROKEN.encode())
    assert done.returncode == 1 and b"<stdin>:2:17: SB110" in done.stderr


def test_wrap_has_no_script_to_lint_and_runs_sbatch(tmp_path, fake):
    sbatch, env = fake
    done = submit("--wrap", "hostname", cwd=tmp_path, env=env)
    assert done.returncode == 3 and b"nothing to lint" in done.stderr
    assert Path(f"{sbatch}.args").read_text() == "--wrap|hostname|"


def test_no_sbatch_is_an_error(tmp_path, fake):
    _, env = fake
    (tmp_path / "job.sbatch").write_text(CLEAN)
    done = submit("job.sbatch", cwd=tmp_path, env={**env, "PATH": str(tmp_path / "nowhere")})
    assert done.returncode == 2 and b"no `sbatch` on PATH" in done.stderr


def _queued(cluster, name: str) -> list[str]:
    done = cluster.run(["squeue", "-h", "-n", name, "-o", "%i"], timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_submit_on_a_real_cluster(tmp_path, slurm_cluster_for):
    cluster = slurm_cluster_for("22.05")
    env = {**cluster.env, "CI": "true"}  # the cluster's PATH (its sbatch) and SLURM_CONF, as a user has them
    (tmp_path / "good.sbatch").write_text(CLEAN)
    (tmp_path / "bad.sbatch").write_text(BROKEN)
    name = f"submit-{uuid.uuid4().hex[:8]}"
    try:
        refused = submit("-J", name, "--hold", "bad.sbatch", cwd=tmp_path, env=env)
        assert refused.returncode == 1 and b"not submitted" in refused.stderr
        assert _queued(cluster, name) == []
        done = submit("-J", name, "--hold", "--parsable", "good.sbatch", cwd=tmp_path, env=env)
        assert done.returncode == 0, done.stderr
        job = done.stdout.decode().strip().split(";")[0]
        assert _queued(cluster, name) == [job]
        # --force hands sbatch a script it refuses: its status (255 for a bad --time) is ours.
        forced = submit("--force", "-J", name, "--hold", "bad.sbatch", cwd=tmp_path, env=env)
        direct = cluster.run(["sbatch", "-J", name, "--hold", "bad.sbatch"], cwd=tmp_path)
        assert forced.returncode == direct.returncode != 0
        assert b"Invalid --time" in forced.stderr and _queued(cluster, name) == [job]
    finally:
        cluster.run(["scancel", "-n", name], timeout=30)
