"""A linter's everyday manners (issue 26): what a clean, an empty and a defaulted run say."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from slurmspec.cli import main

CLEAN = "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --time=10\nsrun x\n"


@pytest.fixture
def no_sbatch(monkeypatch):
    """No installed sbatch answers: the target falls to the newest release."""
    monkeypatch.setattr("slurmspec.settings.release.installed_sbatch_version", lambda: None)


@pytest.fixture
def clean(tmp_path: Path) -> Path:
    path = tmp_path / "ok.sbatch"
    path.write_text(CLEAN)
    return path


@pytest.mark.parametrize("fmt", ["text", "concise"])
def test_a_clean_run_says_so(fmt, clean, capsys):
    assert main(["lint", "--no-config", "--slurm-version", "22.05", "--format", fmt, str(clean)]) == 0
    assert capsys.readouterr().out == "All checks passed!\n"


@pytest.mark.parametrize("fmt", ["json", "sarif", "github", "gitlab"])
def test_machine_formats_stay_silent_about_a_clean_run(fmt, clean, capsys):
    assert main(["lint", "--no-config", "--slurm-version", "22.05", "--format", fmt, str(clean)]) == 0
    assert "All checks passed" not in capsys.readouterr().out


@pytest.mark.parametrize("fmt", ["text", "concise"])
@pytest.mark.parametrize("fix", [[], ["--fix"]])
def test_a_run_that_could_not_read_a_path_never_says_the_checks_passed(fmt, fix, clean, tmp_path, capsys):
    """A mistyped path exits 2; the clean file beside it must not make the summary read as a pass."""
    missing = tmp_path / "cleen.sbatch"
    assert main(["lint", "--no-config", "--slurm-version", "22.05", "--format", fmt, *fix, str(clean), str(missing)]) == 2
    captured = capsys.readouterr()
    assert "All checks passed" not in captured.out
    assert "the run is incomplete" in captured.out
    assert "cleen.sbatch" in captured.err


def test_quiet_drops_the_clean_line(clean, capsys):
    assert main(["lint", "--no-config", "--slurm-version", "22.05", "-q", "--format", "concise", str(clean)]) == 0
    assert capsys.readouterr().out == ""


def test_an_empty_folder_warns_on_stderr(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert main(["lint", "--no-config", str(tmp_path / "empty")]) == 0
    captured = capsys.readouterr()
    assert "warning: no batch scripts found in" in captured.err and "empty" in captured.err


def test_no_path_lints_the_current_folder(tmp_path, monkeypatch, capsys):
    (tmp_path / "bad.sbatch").write_text("#!/bin/bash\n#SBATCH --time=2h\nsrun x\n")
    monkeypatch.chdir(tmp_path)
    assert main(["lint", "--no-config", "--format", "concise", "--select", "SB110"]) == 1
    assert "bad.sbatch:2:17: SB110" in capsys.readouterr().out


def test_a_defaulted_release_is_named(clean, no_sbatch, capsys):
    assert main(["lint", "--no-config", "--format", "concise", str(clean)]) == 0
    out = capsys.readouterr().out
    assert "Judged against Slurm 26.05 (newest supported release" in out


def test_a_given_release_is_not_repeated(clean, capsys):
    assert main(["lint", "--no-config", "--slurm-version", "23.02", "--format", "text", str(clean)]) == 0
    assert "Judged" not in capsys.readouterr().out


def test_json_names_every_release_judged(clean, no_sbatch, capsys):
    assert main(["lint", "--no-config", "--format", "json", str(clean)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["version"] == 1
    assert report["slurm_versions"] == [{"release": "26.05", "source": "newest supported release"}]
    assert main(["lint", "--no-config", "--format", "json", "--slurm-version", "23.02", str(clean)]) == 0
    assert json.loads(capsys.readouterr().out)["slurm_versions"] == [{"release": "23.02", "source": "--slurm-version"}]


@pytest.mark.parametrize("flag", ["-V", "--version"])
def test_version_flag(flag, capsys):
    from slurmspec import __version__

    with pytest.raises(SystemExit) as stop:
        main([flag])
    assert stop.value.code == 0 and capsys.readouterr().out == f"slurmspec {__version__}\n"


@pytest.mark.parametrize("fmt", ["text", "concise", "json", "sarif", "github", "gitlab"])
def test_command_line_findings_name_their_script(fmt, tmp_path, capsys):
    for name in ("a.sbatch", "b.sbatch"):
        (tmp_path / name).write_text(CLEAN)
    args = ["lint", "--no-config", "--slurm-version", "22.05", "--format", fmt, "--select", "SB110",
            str(tmp_path / "a.sbatch"), str(tmp_path / "b.sbatch"), "--", "--time=2h"]
    assert main(args) == 1
    out = capsys.readouterr().out
    for name in ("a.sbatch", "b.sbatch"):
        assert f"(submitting `{tmp_path / name}`)" in out.replace("\\u0060", "`")


def test_convert_warns_for_each_overridden_option_it_drops(tmp_path, capsys):
    job = tmp_path / "dup.sbatch"
    job.write_text("#!/bin/bash\n#SBATCH --constraint=v100\n#SBATCH --constraint=ib\n#SBATCH -t 5\n#SBATCH -t 10\n"
                   "#SBATCH --signal=B:USR1@60\n#SBATCH --signal=B:USR2@90\nsrun x\n")
    assert main(["convert", "--no-config", str(job)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"{job}:2:9: warning: `--constraint=v100` is left out of the spec: line 3's `--constraint=ib` replaces it,"
        " as sbatch does",
        f"{job}:4:9: warning: `-t 5` is left out of the spec: line 5's `-t 10` replaces it, as sbatch does",
    ]  # --signal accumulates: both are kept, nothing to say


def test_convert_of_a_script_without_repeats_says_nothing(tmp_path, capsys):
    job = tmp_path / "one.sbatch"
    job.write_text(CLEAN)
    assert main(["convert", "--no-config", str(job)]) == 0
    assert capsys.readouterr().err == ""


def test_output_file_takes_the_report(tmp_path, capsys):
    job = tmp_path / "bad.sbatch"
    job.write_text("#!/bin/bash\n#SBATCH --time=2h\nsrun x\n")
    report = tmp_path / "report.json"
    assert main(["lint", "--no-config", "--slurm-version", "22.05", "--format", "json", "--select", "SB110",
                 "--output-file", str(report), str(job)]) == 1
    assert capsys.readouterr().out == ""
    assert [d["code"] for d in json.loads(report.read_text())["diagnostics"]] == ["SB110"]
    assert main(["lint", "--no-config", "-o", str(tmp_path / "no-such-folder" / "r.txt"), str(job)]) == 2
