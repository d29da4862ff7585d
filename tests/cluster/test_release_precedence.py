"""`parse`, `convert` and `emit` target the release `lint` would: the same precedence, one test per command.

--slurm-version > the configuration's slurm-version > the cluster profile's
Slurm (the configuration's `cluster`, or emit's `--cluster`) > the installed
sbatch's > the newest (`slurmspec.cli.release.target_version`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from slurmspec.cli import main
from slurmspec.settings import release
from slurmspec.version import DEFAULT, parse_version

LAB = Path(__file__).resolve().parent / "profiles" / "lab.toml"  # Slurm 22.05
# --tres-bind came in 23.11: read for 22.05 it is an unknown option, kept as a verbatim line by convert
# and refused by emit's spec loader.
SCRIPT = "#!/bin/bash\n#SBATCH --time=5\n#SBATCH --tres-bind=gres/gpu:closest\nsrun ./app\n"
SPEC = '[job]\ntime = 5\n\n[body]\nscript = "srun ./app\\n"\n\n[sbatch]\noptions = ["--tres-bind=gres/gpu:closest"]\n'

# (command-line flags, configuration lines, installed sbatch, the release expected)
CASES = {
    "newest": ((), "", None, DEFAULT),
    "installed-sbatch": ((), "", "22.05", "22.05"),
    "profile-beats-installed": ((), 'cluster = "lab.toml"\n', "24.11", "22.05"),
    "configuration-beats-profile": ((), 'cluster = "lab.toml"\nslurm-version = "24.11"\n', "22.05", "24.11"),
    "configuration-beats-installed": ((), 'slurm-version = "22.05"\n', "24.11", "22.05"),
    "flag-beats-configuration": (("--slurm-version", "22.05"), 'slurm-version = "24.11"\n', None, "22.05"),
    "no-config-skips-it": (("--no-config",), 'slurm-version = "22.05"\n', None, DEFAULT),
}


@pytest.fixture(params=list(CASES), ids=list(CASES))
def case(request, tmp_path, monkeypatch):
    flags, config, installed, expected = CASES[request.param]
    (tmp_path / "lab.toml").write_text(LAB.read_text())
    if config:
        (tmp_path / "slurmspec.toml").write_text(config)
    (tmp_path / "job.sbatch").write_text(SCRIPT)
    (tmp_path / "job.toml").write_text(SPEC)
    monkeypatch.setattr(release, "installed_sbatch_version", lambda: installed and parse_version(installed))
    monkeypatch.chdir(tmp_path)  # configuration discovery must start from the file's folder, not from here
    return tmp_path, list(flags), expected


def test_parse(case, capsys):
    folder, flags, expected = case
    assert main(["parse", *flags, str(folder / "job.sbatch")]) == 0
    assert json.loads(capsys.readouterr().out)["slurm_version"] == expected


def test_convert(case, capsys):
    folder, flags, expected = case
    assert main(["convert", *flags, str(folder / "job.sbatch")]) == 0
    out = capsys.readouterr().out
    if expected == "22.05":
        assert 'lines = ["#SBATCH --time=5", "#SBATCH --tres-bind=gres/gpu:closest"]' in out
    else:
        assert 'options = ["--tres-bind=gres/gpu:closest"]' in out and "time = 5" in out


def test_emit(case, capsys):
    folder, flags, expected = case
    code = main(["emit", *flags, str(folder / "job.toml")])
    captured = capsys.readouterr()
    if expected == "22.05":
        assert code == 2 and "sbatch has no option `--tres-bind`" in captured.err
    else:
        assert code == 0 and "#SBATCH --tres-bind=gres/gpu:closest" in captured.out


def test_emit_cluster_option_sets_the_default_release(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(release, "installed_sbatch_version", lambda: parse_version("24.11"))
    (tmp_path / "job.toml").write_text(SPEC)
    assert main(["emit", "--no-config", "--cluster", str(LAB), str(tmp_path / "job.toml")]) == 2
    assert "sbatch has no option `--tres-bind`" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["parse", "convert"])
def test_a_broken_profile_is_read_only_when_it_decides(tmp_path, capsys, monkeypatch, command):
    monkeypatch.setattr(release, "installed_sbatch_version", lambda: None)
    (tmp_path / "job.sbatch").write_text(SCRIPT)
    (tmp_path / "slurmspec.toml").write_text('cluster = "missing.toml"\n')
    assert main([command, str(tmp_path / "job.sbatch")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("slurmspec: error: ") and "missing.toml: cannot read the cluster profile" in err
    assert main([command, "--slurm-version", "24.11", str(tmp_path / "job.sbatch")]) == 0


@pytest.mark.parametrize("command", ["parse", "convert", "emit"])
def test_help_says_how_the_default_is_chosen(capsys, command):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "the configuration's, else the cluster profile's, else the installed sbatch's, else" in out
