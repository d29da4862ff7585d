"""slurmspec.model.job.logs: where each component's standard streams land, as far as the script tells."""

from __future__ import annotations

import pytest

import slurmspec
from slurmspec.gates import CREATES_LOG_DIRS
from slurmspec.model.job.logs import (
    Base, absolute_missing, component_base, folder_missing, log_files, submit_dirs,
)


class FakeFS:
    """A machine with the given folders and files (absolute paths), working in ``cwd``."""

    def __init__(self, cwd="/home/alice/project", dirs=(), files=()):
        self._cwd = cwd
        self.dirs = {"/", "/home", "/home/alice", cwd, *dirs}
        self.files = set(files)

    def cwd(self):
        return self._cwd

    def _abs(self, path):
        import posixpath
        return posixpath.normpath(path if path.startswith("/") else posixpath.join(self._cwd, path))

    def isdir(self, path):
        return self._abs(path) in self.dirs

    def isfile(self, path):
        return self._abs(path) in self.files


def _logs(text, path="jobs/train.sbatch", fs=None, version=None):
    script = slurmspec.parse("#!/bin/bash\n" + text + "srun ./app\n", path=path, version=version)
    fs = fs or FakeFS(files={"/home/alice/project/jobs/train.sbatch"}, dirs={"/home/alice/project/jobs"})
    return {(log.component, log.stream): log for log in log_files(script, fs)}


def test_defaults_without_any_option():
    logs = _logs("#SBATCH --time=10\n")
    output, error, stdin = logs[0, "output"], logs[0, "error"], logs[0, "input"]
    assert (output.written, output.expanded, output.default) == ("slurm-%j.out", "slurm-%j.out", True)
    assert error.follows_output and error.expanded == "slurm-%j.out" and not error.default
    assert stdin.null and stdin.expanded == "/dev/null"


def test_array_default_names_array_ids():
    logs = _logs("#SBATCH --array=1-4\n")
    assert logs[0, "output"].written == "slurm-%A_%a.out"
    assert logs[0, "output"].fill({"A": "7", "a": "3"}) == "slurm-7_3.out"


def test_job_name_fills_x_and_percent_percent_is_a_percent():
    log = _logs("#SBATCH --job-name=train --output=../results/%x/%%-%j.out\n")[0, "output"]
    assert log.expanded == "../results/train/%-%j.out"
    assert log.folder == "../results/train"
    assert log.named and log.fresh is None
    assert log.known_folder() == log.known_folder(trust_script_name=False) == "../results/train"


def test_script_name_fills_x_but_is_not_trusted_for_checks():
    log = _logs("#SBATCH --output=logs/%x/%j.out\n")[0, "output"]
    assert log.job_name == "train.sbatch" and not log.named
    assert log.folder == "logs/train.sbatch"
    assert log.known_folder() == "logs/train.sbatch"
    assert log.known_folder(trust_script_name=False) == "logs"
    assert log.folder_patterns(trust_script_name=False) == ("x",)


def test_standard_input_leaves_x_unknown():
    log = _logs("#SBATCH --output=%x/out.log\n", path="<stdin>")[0, "output"]
    assert log.job_name is None and log.expanded == "%x/out.log"
    assert log.known_folder() == "" and log.folder_patterns() == ("x",)


@pytest.mark.parametrize("written, fresh, known", [
    ("run_%j/out.log", "j", ""),
    ("logs/run_%j/out.log", "j", "logs"),
    ("logs/%A/%a.out", "A", "logs"),
    ("logs/%u/%j.out", None, "logs"),
    ("logs/%N/x/%j.out", None, "logs"),
    ("/scratch/%u/run_%J/o", "J", "/scratch"),
    ("/%u/o", None, "/"),
    ("logs/%q/o", None, "logs/%q"),  # not a pattern: Slurm keeps `%q` as literal text
    ("logs/%j.out", None, "logs"),
])
def test_folder_patterns(written, fresh, known):
    log = _logs(f"#SBATCH --output={written}\n")[0, "output"]
    assert log.fresh == fresh
    assert log.known_folder() == known


def test_backslash_disables_expansion():
    log = _logs("#SBATCH --output=logs\\\\/%j.out\n")[0, "output"]
    assert log.escaped and log.expanded == "logs/%j.out" and log.fresh is None


def test_fill_pads_numbers():
    log = _logs("#SBATCH -o run-%4j/%u.out\n")[0, "output"]
    assert log.fill({"j": "42", "u": "alice"}) == "run-0042/alice.out"
    assert log.fill({}) == log.expanded == "run-%4j/%u.out"


def test_error_and_input_written():
    logs = _logs("#SBATCH -o out-%j.log -e err/%j.log -i none\n")
    assert logs[0, "error"].written == "err/%j.log" and logs[0, "error"].setting is not None
    assert logs[0, "input"].null


def test_hetjob_components_inherit_the_name_and_the_output():
    logs = _logs("#SBATCH -J het -o logs/%x-%j.out\n#SBATCH hetjob\n#SBATCH -n 2\n")
    assert logs[1, "output"].expanded == "logs/het-%j.out"
    assert logs[1, "output"].setting.inherited


def test_relative_names_resolve_against_chdir_or_the_submit_folders():
    fs = FakeFS(files={"/home/alice/project/jobs/train.sbatch"},
                dirs={"/home/alice/project/jobs", "/home/alice/project/jobs/logs", "/work/run"})
    script = slurmspec.parse("#!/bin/bash\n#SBATCH -o logs/%j.out\nsrun ./app\n", path="jobs/train.sbatch")
    assert submit_dirs(script, fs) == ["/home/alice/project/jobs", "/home/alice/project"]
    base = component_base(script, fs, script.components[0])
    assert base == Base(("/home/alice/project/jobs", "/home/alice/project"), False, True)
    assert not folder_missing(fs, base, "logs")
    assert folder_missing(fs, base, "results")
    chdir = slurmspec.parse("#!/bin/bash\n#SBATCH -D /work/run -o logs/%j.out\n", path="jobs/train.sbatch")
    base = component_base(chdir, fs, chdir.components[0])
    assert base.via_chdir and base.absolute and base.dirs == ("/work/run",)
    assert folder_missing(fs, base, "logs")
    unknown = slurmspec.parse("#!/bin/bash\n#SBATCH -D $HOME/run\n", path="jobs/train.sbatch")
    assert not component_base(unknown, fs, unknown.components[0]).known


def test_absolute_folders_count_as_missing_only_when_their_parent_exists():
    fs = FakeFS(dirs={"/scratch"})
    assert absolute_missing(fs, "/scratch/logs")
    assert not absolute_missing(fs, "/lustre/alice/logs")  # most likely another machine
    assert not folder_missing(fs, Base((), False, False), "$HOME/logs")


# --- against real Slurm 22.05 and 24.11 (the throwaway clusters of tests/slurm_cluster.py) --


@pytest.mark.parametrize("options, outcome", [
    ("-J named -o res/%x/o-%j.out", "COMPLETED"),
    ("-J other -o res/%x/o-%j.out", "JobLaunchFailure"),  # ../results/<job name> missing (issue 11)
    ("-J run -o run_%j/out.log", "JobLaunchFailure"),  # named after the job: never there beforehand
    ("-J pct -o %x-%%-%j.out", "COMPLETED"),
    ("-J plain", "COMPLETED"),  # Slurm's default slurm-%j.out
])
def test_the_model_predicts_where_a_real_job_writes(slurm_cluster, tmp_path, options, outcome):
    from slurmspec.check.context import FileSystem
    from slurmspec.lint.engine import lint_script
    from slurmspec.parser.script import parse_script

    tmp_path.chmod(0o777)
    (tmp_path / "res" / "named").mkdir(parents=True)
    text = f"#!/bin/bash\n#SBATCH {options}\necho written\n"
    script = parse_script(text, None, slurm_cluster.version)
    made_by_slurm = outcome == "JobLaunchFailure" and slurm_cluster.version >= CREATES_LOG_DIRS
    if made_by_slurm:
        outcome = "COMPLETED"  # from 23.02 slurmstepd makes the missing folder (mkdir -p)
    fs = FileSystem(cwd=str(tmp_path))
    log = next(log for log in log_files(script, fs) if log.stream == "output")
    job = slurm_cluster.job_id(slurm_cluster.submit(text, cwd=tmp_path))
    state = slurm_cluster.wait(job, timeout=60)
    info = slurm_cluster.job_info(job)
    predicted = str(tmp_path / log.fill({"j": str(job)}))
    assert info["StdOut"].replace("%%", "%") == predicted  # scontrol leaves `%%` as written
    sb230 = [d for d in lint_script(script, fs=fs) if d.code in ("SB230", "SB255")]
    if outcome == "COMPLETED":
        assert state == "COMPLETED"
        assert (tmp_path / predicted).read_text() == "written\n"
        # where Slurm makes the folder, only SB255 may advise (older releases fail the job: SB230)
        assert {d.severity.value for d in sb230} <= ({"info"} if made_by_slurm else set())
    else:
        assert info.get("Reason") == outcome
        assert not (tmp_path / predicted).exists()
        assert [d.severity.value for d in sb230] == ["error"]
