"""--slurm-version: every release 22.05 ... 26.05 as X.Y, and patch versions X.Y.Z of them."""

from __future__ import annotations

import pytest

from slurmspec.cli import main
from slurmspec.version import NEWEST, OLDEST, SUPPORTED, format_version, parse_version


@pytest.mark.parametrize("release", SUPPORTED)
def test_every_release_as_x_y_and_with_a_patch(release: str) -> None:
    version = parse_version(release)
    assert format_version(version) == release
    assert parse_version(f"{release}.5") == version  # e.g. 24.11.5, what `sbatch --version` prints
    assert parse_version(f"{release}.0") == version
    assert OLDEST <= version <= NEWEST


@pytest.mark.parametrize("text", ["24.11", " 24.11.5 ", "23.2", "23.02.7"])
def test_accepted_spellings(text: str) -> None:
    assert parse_version(text) in {parse_version(v) for v in SUPPORTED}


@pytest.mark.parametrize(("text", "message"), [
    ("21.08", "unsupported Slurm version"),
    ("27.05.1", "unsupported Slurm version"),
    ("24.11.x", "not a Slurm version"),
    ("24.11.", "not a Slurm version"),
    ("24.11.5.1", "not a Slurm version"),
    ("24", "not a Slurm version"),
    ("", "not a Slurm version"),
])
def test_refused_spellings(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_version(text)


def test_cli_takes_a_patch_version(tmp_path, capsys) -> None:
    path = tmp_path / "job.sbatch"
    path.write_text("#!/bin/bash\n#SBATCH -J a\\ b\n#SBATCH -t 10\ntrue\n")  # "\ " joins words from 24.05
    assert main(["lint", "--no-config", "--select", "SB0,SB1", "--slurm-version", "24.11.5", str(path)]) == 0
    assert main(["lint", "--no-config", "--select", "SB0,SB1", "--slurm-version", "22.05.8", str(path)]) == 1
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        main(["lint", "--no-config", "--slurm-version", "24.11.x", str(path)])
    assert stop.value.code == 2
    assert "write X.Y or X.Y.Z" in capsys.readouterr().err
