"""``slurmspec emit``, ``convert`` and ``schema``: output, exit codes, messages, no traceback on any input."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from slurmspec.cli import main
from slurmspec.version import NEWEST
from tests.examples import examples

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
# Named where a test needs the newest release: without it the target is the installed sbatch's,
# which an earlier test of the run may have remembered in the run's cache (22.05 here).
NEWEST_NAME = f"{NEWEST[0]}.{NEWEST[1]:02d}"


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "slurmspec", *args], input=stdin, capture_output=True, timeout=60)


def test_emit_to_stdout_and_to_a_file(tmp_path):
    result = run("emit", "--slurm-version", NEWEST_NAME, str(SAMPLES / "multinode-torchrun.toml"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(b"#!/bin/bash\n#SBATCH --job-name=llm-pretrain\n")
    out = tmp_path / "job.sbatch"
    assert run("emit", "--slurm-version", NEWEST_NAME, str(SAMPLES / "multinode-torchrun.toml"), "-o",
               str(out)).returncode == 0
    assert out.read_bytes() == result.stdout


def test_emit_spec_error_exit_2_with_position_and_suggestion(tmp_path):
    spec = tmp_path / "job.toml"
    spec.write_text('[job]\nname = "x"\ntiem = "10"\n[launch]\nkind = "plain"\nprogram = "x"\n')
    result = run("emit", str(spec))
    assert result.returncode == 2
    assert result.stderr.decode() == f"{spec}:3:1: error: unknown key `tiem` in [job]; did you mean `time`?\n"
    assert result.stdout == b""


def test_emit_reports_what_the_rules_find(tmp_path):
    spec = tmp_path / "job.toml"
    spec.write_text('[resources]\nnodes = 1\nntasks = 1\ngpus_per_node = 4\n[launch]\nkind = "plain"\nprogram = "x.py"\n')
    result = run("emit", str(spec))
    # One process on a 4-GPU node: the spec is valid, the rule (an error: 3 GPUs idle) says
    # so; the script is still written, and the exit code is 1.
    assert result.returncode == 1
    assert b"SB310 error" in result.stderr and result.stdout.startswith(b"#!/bin/bash\n")
    unchecked = run("emit", "--no-check", str(spec))
    assert unchecked.returncode == 0 and b"SB310" not in unchecked.stderr
    assert unchecked.stdout == result.stdout


def test_emit_body_file_relative_to_the_spec(tmp_path):
    (tmp_path / "body.sh").write_text("\nsrun hostname\n")
    (tmp_path / "job.toml").write_text('[body]\nfile = "body.sh"\n')
    result = run("emit", str(tmp_path / "job.toml"))
    assert result.returncode == 0 and result.stdout == b"#!/bin/bash\n\nsrun hostname\n"
    (tmp_path / "job.toml").write_text('[body]\nfile = "missing.sh"\n')
    assert run("emit", str(tmp_path / "job.toml")).returncode == 2


def test_emit_unreadable_or_not_utf8(tmp_path):
    assert run("emit", str(tmp_path / "nope.toml")).returncode == 2
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"[job]\nname = \"\xff\"\n")
    result = run("emit", str(bad))
    assert result.returncode == 2 and b":1:1: error: a TOML file must be UTF-8" in result.stderr


def test_convert_then_emit_from_stdin(tmp_path):
    script = (SAMPLES / "array-sweep.sbatch").read_bytes()
    converted = run("convert", "-", stdin=script)
    assert converted.returncode == 0, converted.stderr
    assert b'array = "0-15%4"' in converted.stdout and b"[body]" in converted.stdout
    emitted = run("emit", "-", stdin=converted.stdout)
    assert emitted.returncode == 0
    assert emitted.stdout.endswith(b'python sweep.py --trial "$SLURM_ARRAY_TASK_ID"\n')


def test_convert_body_file(tmp_path):
    out, body = tmp_path / "job.toml", tmp_path / "job-body.sh"
    assert run("convert", str(SAMPLES / "clean-mpi.sbatch"), "-o", str(out), "--body-file", str(body)).returncode == 0
    assert 'file = "job-body.sh"' in out.read_text()
    assert run("emit", str(out)).returncode == 0


def test_convert_not_utf8_is_exit_2(tmp_path):
    result = run("convert", "-", stdin=b"#!/bin/bash\n#SBATCH -N 1\necho \xff\n")
    assert result.returncode == 2 and b"<stdin>:1:1: error:" in result.stderr


def test_schema_command_prints_the_shipped_schema():
    result = run("schema")
    assert result.returncode == 0
    assert json.loads(result.stdout)["title"] == "slurmspec job spec"


@pytest.mark.parametrize("name, resource", [
    ("job-spec", "slurmspec/spec/schema.json"),
    ("cluster-profile", "slurmspec/cluster/profile.schema.json"),
    ("lint-report", "slurmspec/report/lint-report.schema.json"),
])
def test_schema_command_prints_each_schema_by_name(name, resource):
    result = run("schema", name)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == json.loads((SAMPLES.parent / resource).read_text(encoding="utf-8"))


def test_schema_command_rejects_an_unknown_name():
    result = run("schema", "bogus")
    assert result.returncode == 2 and b"invalid choice: 'bogus'" in result.stderr and b"Traceback" not in result.stderr


@settings(max_examples=examples(150), suppress_health_check=list(HealthCheck), deadline=None)
@given(st.one_of(st.text(max_size=200), st.lists(st.sampled_from(
    ["[job]", "[launch]", "[[hetjob]]", "[env]", "kind = ", '"torchrun"', "program", "=", "1", "[", "]", "{", "}",
     '"', "'''", "\n", "nodes", "time", "options", "= [", "true", "x.y", "container", "image", "-1", "1e9"]),
    max_size=30).map(" ".join)))
def test_arbitrary_text_never_raises(text):
    import contextlib

    stdin = io.TextIOWrapper(io.BytesIO(text.encode("utf-8", "surrogatepass")), encoding="utf-8")
    err = io.StringIO()
    with pytest.MonkeyPatch.context() as mp, contextlib.redirect_stderr(err):
        mp.setattr(sys, "stdin", stdin)
        code = main(["emit", "--no-check", "-"])
    assert code in (0, 2)
    if code == 2:
        assert "error:" in err.getvalue()


@pytest.mark.parametrize(("resources", "expected"), [
    # The three layouts of issue 11 that emit used to write with exit 0, though sbatch refuses them.
    ('mem = "4G"\nmem_per_gpu = "8G"\ngpus_per_node = 1\nntasks = 1', "3:1: error: `resources.mem_per_gpu` cannot be"
                                                                       " combined with `resources.mem`"),
    ("gpus_per_task = 1", "2:1: error: `resources.gpus_per_task` needs a task count"),
    ("nodes = 1\nntasks = 16\nntasks_per_node = 2", "3:1: error: `resources.ntasks = 16` does not fit"),
])
def test_emit_refuses_what_sbatch_refuses_with_the_keys_position(tmp_path, resources, expected):
    spec = tmp_path / "job.toml"
    spec.write_text(f'[resources]\n{resources}\n[launch]\nkind = "mpi"\nprogram = "./app"\n')
    result = run("emit", str(spec))
    assert result.returncode == 2 and result.stdout == b""
    assert result.stderr.decode().startswith(f"{spec}:{expected}"), result.stderr


def test_emit_exits_1_when_the_written_script_has_an_error(tmp_path):
    """What the loader cannot judge (a raw option) is caught by the lint of the emitted script."""
    spec, out = tmp_path / "job.toml", tmp_path / "job.sbatch"
    spec.write_text('[resources]\nnodes = 1\nntasks = 1\ngpus_per_node = 2\n[sbatch]\noptions = ["--gpus=3"]\n'
                    '[launch]\nkind = "plain"\nprogram = "./app"\n')
    result = run("emit", str(spec), "-o", str(out))
    assert result.returncode == 1
    assert f"{out}:5:9: SB142 error: `--gpus=3` is not a multiple of `--gpus-per-node=2`".encode() in result.stderr
    assert out.read_text().startswith("#!/bin/bash\n")  # written all the same, to be read and fixed
    assert run("emit", "--no-check", str(spec)).returncode == 0


def test_emit_help_lists_the_exit_codes():
    result = run("emit", "--help")
    assert result.returncode == 0
    text = result.stdout.decode()
    assert "exit codes:\n  0  the script was written" in text
    assert "\n  1  the script was written, but the rules found an error in it" in text
    assert "\n  2  the spec is broken" in text


def test_emit_for_22_05_gives_srun_the_cpus_per_task(tmp_path):
    spec = tmp_path / "job.toml"
    spec.write_text('[resources]\nntasks = 2\ncpus_per_task = 4\n[launch]\nkind = "mpi"\nprogram = "./app"\n')
    old, new = run("emit", "--slurm-version", "22.05", str(spec)), run("emit", "--slurm-version", NEWEST_NAME, str(spec))
    assert old.returncode == new.returncode == 0 and old.stderr == new.stderr == b""
    assert b'\nsrun --cpus-per-task="$SLURM_CPUS_PER_TASK" ./app\n' in old.stdout
    assert b"\nsrun ./app\n" in new.stdout
    converted = run("convert", "--slurm-version", "22.05", "-", stdin=old.stdout)
    assert b"[launch]" in converted.stdout  # the generated body is recognised for the same release
