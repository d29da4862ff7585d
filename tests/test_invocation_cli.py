"""``slurmspec lint SCRIPT -- <sbatch options>`` and ``--sbatch-env`` on the command line, and their reports."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from slurmspec.cli import main

TEMPLATE = "#!/bin/bash\n#SBATCH --partition=batch\n#SBATCH --time=2h\n#SBATCH --mail-type=END\nsrun ./app\n"


@pytest.fixture
def job(tmp_path: Path, monkeypatch) -> Path:
    for name in ("SBATCH_TIMELIMIT", "SBATCH_PARTITION", "SBATCH_JOB_NAME", "SBATCH_ACCOUNT"):
        monkeypatch.delenv(name, raising=False)
    path = tmp_path / "job.sbatch"
    path.write_text(TEMPLATE)
    return path


def lint(*args: str) -> int:
    return main(["lint", "--no-config", *args])


def test_words_after_dashes_are_sbatch_options_not_paths(job, capsys):
    assert lint("--format", "json", str(job), "--", "-t", "3x", "--job-name=run") == 1
    found = json.loads(capsys.readouterr().out)["diagnostics"]
    where = [(d["path"], d["code"], d["line"]) for d in found]
    assert ("<command line>", "SB110", 1) in where and (str(job), "SB110", 3) in where
    script_line = next(d for d in found if d["path"] == str(job) and d["code"] == "SB110")
    assert script_line["notes"] == [
        "the sbatch command line replaces this with `-t 3x`; sbatch reads this line first, and a value it"
        " refuses here still stops the submission"
    ]


def test_the_text_report_shows_the_command_line_under_its_findings(job, capsys):
    assert lint("--format", "text", "--select", "SB1", str(job), "--", "-p", "all", "-t", "3x") == 1
    out = capsys.readouterr().out
    assert "<command line>:1:19: SB110 error:" in out  # the `x` of `3x`
    assert f"1 | sbatch -p all -t 3x {job}\n" in out
    assert "3 | #SBATCH --time=2h\n" in out
    assert out.index(f"{job}:3:17") < out.index("<command line>:1:19")  # the order sbatch reads them in


def test_the_kaust_submission_line_changes_what_the_rules_see(job, capsys):
    args = ["--format", "json", "--extend-select", "SB250", str(job)]  # export-restricts-steps is opt-in
    assert lint(*args) == 1  # `2h` is refused
    plain = {d["code"] for d in json.loads(capsys.readouterr().out)["diagnostics"]}
    lint(*args, "--", "--job-name=run42", "--export=NONE", "--mail-type=BEGIN", "--mail-user=me@kaust.edu.sa")
    invoked = json.loads(capsys.readouterr().out)["diagnostics"]
    assert "SB250" not in plain and "SB250" in {d["code"] for d in invoked}  # --export=NONE reaches srun
    export = next(d for d in invoked if d["code"] == "SB250")
    assert export["path"] == str(job) and export["notes"] == ["the command line: `--export=NONE`"]


def test_standard_input_still_works_before_the_dashes():
    result = subprocess.run(
        [sys.executable, "-m", "slurmspec", "lint", "--no-config", "-", "--", "-t", "3x"],
        input=TEMPLATE.encode(), capture_output=True, timeout=60,
    )
    assert result.returncode == 1, result.stderr
    assert b"<command line>:1:" in result.stdout and b"<stdin>:3:17: SB110" in result.stdout


def test_the_environment_is_read_only_when_asked(job, capsys, monkeypatch):
    monkeypatch.setenv("SBATCH_TIMELIMIT", "4x")
    assert lint("--format", "json", "--select", "SB110", str(job)) == 1
    assert {d["path"] for d in json.loads(capsys.readouterr().out)["diagnostics"]} == {str(job)}
    assert lint("--format", "json", "--select", "SB110", "--sbatch-env", str(job)) == 1
    found = json.loads(capsys.readouterr().out)["diagnostics"]
    assert [(d["path"], d["line"], d["column"]) for d in found] == [(str(job), 3, 17), ("<environment>", 1, 19)]


def test_a_note_names_unread_variables_when_dashes_are_given(job, capsys, monkeypatch):
    monkeypatch.setenv("SBATCH_PARTITION", "all")
    lint("--select", "SB1", str(job), "--", "-J", "x")
    assert "SBATCH_PARTITION is set here and sbatch would read it; add --sbatch-env" in capsys.readouterr().err
    lint("--select", "SB1", str(job))
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(("extra", "message"), [
    (["--", "-t", "5", "other.sbatch"], "`other.sbatch` is not an sbatch option"),
    (["--", "--wrap=hostname"], "`--wrap` makes sbatch submit its own one-line script"),
    (["--fix", "--", "-t", "5"], "`--fix`/`--diff` edit the script file"),
    (["--diff", "--sbatch-env"], "`--fix`/`--diff` edit the script file"),
])
def test_arguments_that_describe_no_submission_of_the_script_are_usage_errors(job, capsys, extra, message):
    before = job.read_text()
    assert lint(str(job), *extra) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.out == ""
    assert job.read_text() == before


def test_pasting_the_whole_sbatch_line_after_the_dashes_is_accepted(job, capsys):
    assert lint("--select", "SB110", str(job), "--", "-t", "5", str(job), "--its", "args") == 1
    out = capsys.readouterr().out
    assert "<command line>" not in out and f"{job}:3:17: SB110" in out
