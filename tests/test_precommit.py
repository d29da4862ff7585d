"""The pre-commit hooks in ``.pre-commit-hooks.yaml``, run by the real ``pre-commit`` against this checkout.

A session fixture snapshots this checkout (tracked and untracked files, so
uncommitted work is what gets tested) into a temporary git repository that a
temporary project uses as its hook repository; pre-commit then builds the
hook's virtualenv and pip-installs slurmspec into it, as it does for users.

Offline: when this machine has a local package index (``/opt/pypi/simple``),
pip is pointed at it with ``PIP_INDEX_URL``, so installing the hook needs no
network. Skipped when pre-commit or git is missing; under CI=true that is a
failure instead (pre-commit is in the ``test`` extra).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

from tests.conftest import in_ci

ROOT = Path(__file__).resolve().parent.parent
LOCAL_INDEX = Path("/opt/pypi/simple")
LOCAL_INDEX_MORE = Path("/opt/pypi-more/simple")
# One worker runs them all, so the hook's virtualenv (pip installs slurmspec: about 20 CPU
# seconds) is built once per run rather than once per worker that runs one of them.
pytestmark = pytest.mark.xdist_group("pre-commit")

GIT = ["git", "-c", "user.name=slurmspec tests", "-c", "user.email=tests@example.invalid",
       "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"]

BAD = "#!/bin/bash\n#SBATCH --nod=2\n#SBATCH --time=10\nsrun hostname\n"
PLAIN_SHELL = "#!/bin/bash\n# no directives: an ordinary shell script, not for slurmspec\necho $undefined\n"
SHELL_JOB = "#!/bin/bash\n#SBATCH --time=10\n#SBATCH --bogus\nsrun hostname\n"
# SB207: a job variable in --output is never expanded; the safe fix writes the `%j` pattern.
FIXABLE = "#!/bin/bash\n#SBATCH --time=10\n#SBATCH --output=train-$SLURM_JOB_ID.out\nsrun hostname\n"
FIXED = "#!/bin/bash\n#SBATCH --time=10\n#SBATCH --output=train-%j.out\nsrun hostname\n"


def _pre_commit() -> list[str]:
    """pre-commit from this Python's environment, else from PATH; skip (fail in CI) when missing."""
    beside = Path(sys.executable).with_name("pre-commit")
    found = str(beside) if beside.exists() else shutil.which("pre-commit")
    missing = None if found else "pre-commit is not installed (pip install -e '.[test]')"
    if shutil.which("git") is None:
        missing = "git is not installed"
    if missing:
        if in_ci():
            pytest.fail(f"{missing} -- CI=true, so the pre-commit test must run", pytrace=False)
        pytest.skip(missing)
    return [found]


def _git(cwd: Path, *args: str) -> str:
    done = subprocess.run([*GIT, *args], cwd=cwd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"git {' '.join(args)}: {done.stderr}"
    return done.stdout.strip()


# Module-scoped, and removed once the module's tests are done: a copy of the checkout and a hook
# virtualenv are 8,500 files, which pytest would otherwise delete at the end of a later run, while
# both workers wait (it keeps the last three runs' temporary folders).
@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory) -> Iterator[tuple[Path, str]]:
    """A git repository holding this checkout's current files, and its commit."""
    _pre_commit()
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, timeout=120,
    )
    repo = tmp_path_factory.mktemp("hook-repo")
    if listed.returncode == 0:
        names = [n for n in listed.stdout.decode().split("\0") if n]
    else:  # not a git checkout (an unpacked sdist): take the files that matter
        names = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if p.is_file() and ".git" not in p.parts]
    # A virtualenv made in the checkout (`python -m venv venv`, untracked) is no part of slurmspec:
    # copied, committed and cloned, its thousands of files cost the hook set-up 8 more CPU seconds.
    virtualenvs = {f"{found.parent.name}/" for found in ROOT.glob("*/pyvenv.cfg")}
    names = [name for name in names if not name.startswith(tuple(virtualenvs))] if virtualenvs else names
    for name in names:
        source = ROOT / name
        if source.is_file():
            target = repo / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "snapshot of the slurmspec checkout under test")
    yield repo, _git(repo, "rev-parse", "HEAD")
    shutil.rmtree(repo, ignore_errors=True)


@pytest.fixture(scope="module")
def pre_commit_env(tmp_path_factory) -> Iterator[dict[str, str]]:
    env = dict(os.environ)
    # One hook environment for the module (pre-commit caches it here), away from ~/.cache.
    home = tmp_path_factory.mktemp("pre-commit-home")
    env["PRE_COMMIT_HOME"] = str(home)
    env.pop("SLURMSPEC_CONFIG", None)
    if LOCAL_INDEX.is_dir():
        env["PIP_INDEX_URL"] = LOCAL_INDEX.as_uri()
        env["PIP_EXTRA_INDEX_URL"] = LOCAL_INDEX_MORE.as_uri() if LOCAL_INDEX_MORE.is_dir() else ""
    env["NO_COLOR"] = "1"
    # pip byte-compiles every module it installs (pygments alone has hundreds): 3 of the hook
    # set-up's 11 CPU seconds; the hooks compile the few they import as they run. `--compile`
    # off: PIP_NO_COMPILE=1 would turn it on (pip reads a flag's variable as the flag's value).
    env["PIP_COMPILE"] = "0"
    yield env
    shutil.rmtree(home, ignore_errors=True)


def _project(tmp_path: Path, hook_repo: tuple[Path, str], hook: str, files: dict[str, str]) -> Path:
    repo, rev = hook_repo
    project = tmp_path / "project"
    project.mkdir()
    (project / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {repo}\n    rev: {rev}\n    hooks:\n      - id: {hook}\n"
    )
    for name, text in files.items():
        (project / name).write_text(text)
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    _git(project, "commit", "-q", "-m", "a batch script")
    return project


def _run(project: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*_pre_commit(), "run", "--all-files", "--color", "never", *args],
        cwd=project, env=env, capture_output=True, text=True, timeout=900,
    )


def test_lint_hook_fails_on_a_bad_script(tmp_path, hook_repo, pre_commit_env):
    project = _project(tmp_path, hook_repo, "slurmspec", {
        "bad.sbatch": BAD, "plain.sh": PLAIN_SHELL, "job.sh": SHELL_JOB, "README.md": "not a script\n",
    })
    result = _run(project, pre_commit_env)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "bad.sbatch:2:9: SB004" in output
    assert "job.sh:3:9: SB001" in output  # a shell script with #SBATCH is linted
    assert "plain.sh" not in output and "README.md" not in output  # other files are left alone


def test_lint_hook_passes_a_clean_script(tmp_path, hook_repo, pre_commit_env):
    clean = "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --time=10\nsrun hostname\n"
    project = _project(tmp_path, hook_repo, "slurmspec", {"ok.slurm": clean, "plain.sh": PLAIN_SHELL})
    result = _run(project, pre_commit_env)
    assert result.returncode == 0, result.stdout + result.stderr


def test_fix_hook_fixes_the_script(tmp_path, hook_repo, pre_commit_env):
    project = _project(tmp_path, hook_repo, "slurmspec-fix", {"train.job": FIXABLE})
    first = _run(project, pre_commit_env)
    # pre-commit fails a hook that modified files, so the user sees and stages the change.
    assert first.returncode == 1, first.stdout + first.stderr
    assert (project / "train.job").read_text() == FIXED
    second = _run(project, pre_commit_env)
    assert second.returncode == 0, second.stdout + second.stderr


def test_hook_manifest_is_valid():
    result = subprocess.run([*_pre_commit(), "validate-manifest", str(ROOT / ".pre-commit-hooks.yaml")],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_documented_hook_setups_pin_what_exists_and_pass_the_hooks_flags():
    """Issue 26: the README pinned `rev: v0.1.0`, a tag that was never made, and its `repo: local` hook
    lacked the hook's --force-exclude. No tag exists yet, so a pin names a full commit hash (or a real tag)."""
    tags = set(subprocess.run(["git", "tag"], cwd=ROOT, capture_output=True, text=True).stdout.split())
    documents = {name: (ROOT / name).read_text() for name in ("README.md", ".pre-commit-hooks.yaml")}
    for name, text in documents.items():
        for rev in re.findall(r"^\s*#?\s*rev:\s*(\S+)", text, flags=re.MULTILINE):
            assert rev in tags or re.fullmatch(r"[0-9a-f]{40}", rev) or rev.startswith("<"), (name, rev)
    hook_entry = re.search(r"^  entry: (slurmspec lint --require-sbatch.*)$", documents[".pre-commit-hooks.yaml"],
                           flags=re.MULTILINE).group(1)
    assert f"`entry: {hook_entry}`" in documents["README.md"]
