"""The command line: output formats, exit codes, paths, standard input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from slurmspec.cli import main
from slurmspec.kinds import Severity
from slurmspec.lint import lint_text

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
BAD = "#!/bin/bash\n#SBATCH --nod=2\n#SBATCH --constraint=[rack1*2&rack2*4] --bogus\nsrun x\n"
CLEAN = "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --time=10\nsrun x\n"


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "slurmspec", *args],
        input=stdin, capture_output=True, timeout=60,
    )


@pytest.fixture
def bad_file(tmp_path: Path) -> Path:
    path = tmp_path / "bad.sbatch"
    path.write_text(BAD)
    return path


def test_json_output_shape_and_exit_code(bad_file, capsys):
    assert main(["lint", "--format", "json", "--select", "SB0,SB1", str(bad_file)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["version"] == 1
    found = report["diagnostics"]
    assert [(d["code"], d["line"], d["column"]) for d in found] == [("SB004", 2, 9), ("SB001", 3, 40)]
    first = found[0]
    assert set(first) >= {"path", "code", "name", "family", "severity", "message",
                          "line", "column", "end_line", "end_column", "fix"}
    assert first["fix"] is None and first["family"] == "parse" and first["name"] == "ambiguous-option"
    assert (first["end_line"], first["end_column"]) == (2, 14)


def test_text_output_keeps_brackets_and_shows_a_caret(bad_file, capsys):
    assert main(["lint", "--format", "text", str(bad_file)]) == 1
    out = capsys.readouterr().out
    assert f"{bad_file}:3:40: SB001 error:" in out
    # rich markup would eat "[rack1*2&rack2*4]"; user text must print intact.
    assert "#SBATCH --constraint=[rack1*2&rack2*4] --bogus" in out
    assert "^~~~~~~" in out


def test_clean_file_exits_zero(tmp_path, capsys):
    path = tmp_path / "ok.sbatch"
    path.write_text(CLEAN)
    assert main(["lint", "--fail-on", "warning", str(path)]) == 0
    capsys.readouterr()
    assert main(["lint", "--format", "json", "--select", "SB0,SB1", "--slurm-version", "24.11", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "version": 1, "diagnostics": [], "slurm_versions": [{"release": "24.11", "source": "--slurm-version"}]}


def test_folder_walk_picks_batch_scripts_only(tmp_path, capsys):
    (tmp_path / "a.sbatch").write_text(BAD)
    (tmp_path / "b.sh").write_text("#!/bin/bash\necho plain shell\n")
    (tmp_path / "c.sh").write_text(BAD)
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "d.sbatch").write_text(BAD)
    main(["lint", "--format", "json", str(tmp_path)])
    paths = {Path(d["path"]).name for d in json.loads(capsys.readouterr().out)["diagnostics"]}
    assert paths == {"a.sbatch", "c.sh"}


def test_stdin_and_its_name():
    result = run("lint", "--format", "json", "--stdin-filename", "job.sbatch", "-", stdin=BAD.encode())
    assert result.returncode == 1
    assert {d["path"] for d in json.loads(result.stdout)["diagnostics"]} == {"job.sbatch"}


def test_unreadable_or_missing_path_is_exit_2(tmp_path):
    result = run("lint", str(tmp_path / "nope.sbatch"))
    assert result.returncode == 2
    assert b"no such file" in result.stderr
    assert b"Traceback" not in result.stderr


def test_usage_errors_are_exit_2(tmp_path):
    clean = tmp_path / "clean.sbatch"  # a file that lints clean: the exit 2 can only come from the flag
    clean.write_text("#!/bin/bash\n#SBATCH --time=10\nsrun hostname\n")
    assert run("lint", "--no-config", str(clean)).returncode == 0
    assert run("lint", "--bogus-flag").returncode == 2
    result = run("lint", "--no-config", "--slurm-version", "21.08", str(clean))
    assert result.returncode == 2 and b"unsupported Slurm version" in result.stderr
    result = run("lint", "--no-config", "--select", "SB999", str(clean))
    assert result.returncode == 2 and b"`SB999` is not a rule code" in result.stderr


def test_broken_script_content_is_a_finding_not_exit_2(tmp_path):
    path = tmp_path / "binary.sbatch"
    path.write_bytes(b"\xff\xfe\x00\r\n#SBATCH -J '\n")
    result = run("lint", str(path))
    assert result.returncode == 1
    assert b"Traceback" not in result.stderr


def test_fail_on_and_select(bad_file, capsys):
    assert main(["lint", "--select", "SB1", str(bad_file)]) == 0
    assert main(["lint", "--ignore", "ambiguous-option,SB001", str(bad_file)]) == 0
    assert main(["lint", "--fail-on", "error", str(bad_file)]) == 1


def test_slurm_version_changes_the_verdict(tmp_path, capsys):
    path = tmp_path / "power.sbatch"
    path.write_text("#!/bin/bash\n#SBATCH --power=level\nsrun x\n")
    assert main(["lint", "--slurm-version", "23.11", str(path)]) == 0
    assert main(["lint", "--slurm-version", "24.05", str(path)]) == 1


def test_parse_prints_the_model(capsys):
    sample = SAMPLES / "multinode-torchrun.sbatch"
    assert main(["parse", str(sample)]) == 0
    model = json.loads(capsys.readouterr().out)
    assert model["shebang"] == "#!/bin/bash"
    names = [d["option"] for d in model["directives"]]
    assert names[:3] == ["job-name", "partition", "nodes"]
    late = [d for d in model["directives"] if d["ignored"]]
    assert [d["option"] for d in late] == ["exclusive"]
    request = model["components"][0]["request"]
    assert request["nodes"]["raw"] == "2"
    assert {launch["kind"] for launch in model["launches"]} == {"srun"}


def test_every_sample_lints_without_crashing():
    for sample in sorted(SAMPLES.glob("*.sbatch")):
        result = run("lint", "--no-config", str(sample))
        failing = any(d.severity.rank >= Severity.WARNING.rank for d in lint_text(sample.read_bytes(), str(sample)))
        assert result.returncode == (1 if failing else 0), result.stderr
        assert b"Traceback" not in result.stderr


def test_require_sbatch_skips_named_plain_shell_scripts(tmp_path, capsys):
    plain = tmp_path / "plain.sh"
    plain.write_text("echo plain shell\n")  # SB103 (no #! line) shows when it is linted
    job = tmp_path / "job.sh"
    job.write_text(BAD)
    batch = tmp_path / "nothing.job"
    batch.write_text("srun x\n")  # a batch suffix is linted even without #SBATCH (SB103: no #! line)
    main(["lint", "--format", "json", "--require-sbatch", str(plain), str(job), str(batch)])
    paths = {Path(d["path"]).name for d in json.loads(capsys.readouterr().out)["diagnostics"]}
    assert paths == {"job.sh", "nothing.job"}
    main(["lint", "--format", "json", str(plain)])  # without the flag a named file is always linted
    assert {Path(d["path"]).name for d in json.loads(capsys.readouterr().out)["diagnostics"]} == {"plain.sh"}


def test_select_all_selects_every_rule_and_ignore_still_applies(tmp_path):
    job = tmp_path / "job.sbatch"
    job.write_text("#!/bin/bash\n#SBATCH --hodl\nsrun x\n#SBATCH -N 1\n")
    result = run("lint", "--no-config", "--format", "json", "--select", "ALL", str(job))
    assert result.returncode == 1, result.stderr
    assert {d["code"] for d in json.loads(result.stdout)["diagnostics"]} >= {"SB001", "SB201"}
    result = run("lint", "--no-config", "--format", "json", "--select", "all", "--ignore", "SB2", str(job))
    assert {d["code"] for d in json.loads(result.stdout)["diagnostics"]} == {"SB001"}
