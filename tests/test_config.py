"""Configuration files: discovery, every key, mistakes as exit 2 with a did-you-mean, CLI overrides."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from slurmspec.cli import main
from slurmspec.settings.config import ConfigError, find_config, load_config

BAD_TIME = "#!/bin/bash\n#SBATCH --time=2h\nsrun x\n"  # SB110 error
POWER = "#!/bin/bash\n#SBATCH --power=level\nsrun x\n"  # SB003 on 24.05+, fine on 23.11


def lint_json(capsys, *args: str) -> tuple[int, list[dict]]:
    code = main(["lint", "--format", "json", *args])
    out = capsys.readouterr().out
    return code, (json.loads(out)["diagnostics"] if out.strip() else [])


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """project/ with a config, a nested job folder and a legacy folder."""
    project = tmp_path / "project"
    (project / "jobs" / "deep").mkdir(parents=True)
    (project / "legacy").mkdir()
    for path in ("jobs/a.sbatch", "jobs/deep/b.sbatch", "legacy/c.sbatch"):
        (project / path).write_text(BAD_TIME)
    return project


def test_slurmspec_toml_found_by_walking_up(tree, capsys):
    (tree / "slurmspec.toml").write_text('ignore = ["SB110"]\n')
    assert find_config(str(tree / "jobs" / "deep")) == str(tree / "slurmspec.toml")
    assert lint_json(capsys, str(tree / "jobs" / "deep" / "b.sbatch")) == (0, [])


def test_pyproject_without_the_table_is_skipped(tree, capsys):
    (tree / "slurmspec.toml").write_text('ignore = ["invalid-duration"]\n')
    (tree / "jobs" / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert find_config(str(tree / "jobs")) == str(tree / "slurmspec.toml")
    (tree / "jobs" / "pyproject.toml").write_text('[tool.slurmspec]\nselect = ["SB0"]\n')
    assert find_config(str(tree / "jobs")) == str(tree / "jobs" / "pyproject.toml")


def test_nearest_config_wins_per_file(tree, capsys):
    (tree / "slurmspec.toml").write_text('ignore = ["SB110"]\n')
    (tree / "legacy" / "pyproject.toml").write_text('[tool.slurmspec]\nfail-on = "error"\n')
    code, found = lint_json(capsys, str(tree))
    assert [Path(d["path"]).name for d in found] == ["c.sbatch"]
    assert code == 1


def test_no_config_found_means_defaults(tmp_path, capsys):
    (tmp_path / "a.sbatch").write_text(BAD_TIME)
    code, found = lint_json(capsys, str(tmp_path / "a.sbatch"))
    assert code == 1 and [d["code"] for d in found] == ["SB110"]


def test_select_extend_select_and_ignore(tree, capsys):
    (tree / "a.sbatch").write_text("#!/bin/bash\n#SBATCH --time=2h --mem=lots --nod=2\nsrun x\n")
    (tree / "slurmspec.toml").write_text('select = ["SB0"]\nextend-select = ["invalid-memory"]\nignore = ["SB004"]\n')
    _, found = lint_json(capsys, str(tree / "a.sbatch"))
    assert [d["code"] for d in found] == ["SB112"]
    # The command line's --select replaces select and extend-select; --ignore adds to ignore.
    _, found = lint_json(capsys, "--select", "SB0,SB1", str(tree / "a.sbatch"))
    assert [d["code"] for d in found] == ["SB110", "SB112"]
    _, found = lint_json(capsys, "--ignore", "SB112", str(tree / "a.sbatch"))
    assert found == []


def test_severity_overrides_most_specific_wins(tree, capsys):
    (tree / "slurmspec.toml").write_text('[severity]\nSB1 = "info"\ninvalid-duration = "warning"\n')
    (tree / "a.sbatch").write_text("#!/bin/bash\n#SBATCH --time=2h --mem=lots\nsrun x\n")
    code, found = lint_json(capsys, str(tree / "a.sbatch"))
    assert [(d["code"], d["severity"]) for d in found] == [("SB110", "warning"), ("SB112", "info")]
    assert code == 1
    assert main(["lint", "--fail-on", "error", str(tree / "a.sbatch")]) == 0


def test_fail_on_from_config_and_cli_override(tree, capsys):
    (tree / "slurmspec.toml").write_text('fail-on = "error"\n[severity]\nSB110 = "warning"\n')
    assert main(["lint", str(tree / "jobs" / "a.sbatch")]) == 0
    assert main(["lint", "--fail-on", "warning", str(tree / "jobs" / "a.sbatch")]) == 1


def test_slurm_version_from_config_and_cli_override(tree, capsys, monkeypatch):
    # Without a configuration the default would be an installed sbatch's release: none here.
    monkeypatch.setattr("slurmspec.settings.release.installed_sbatch_version", lambda: None)
    (tree / "p.sbatch").write_text(POWER)
    (tree / "slurmspec.toml").write_text('slurm-version = "23.11"\n')
    assert main(["lint", str(tree / "p.sbatch")]) == 0
    assert main(["lint", "--slurm-version", "24.05", str(tree / "p.sbatch")]) == 1
    assert main(["lint", "--no-config", str(tree / "p.sbatch")]) == 1


def test_per_file_ignores_are_relative_to_the_config(tree, capsys):
    (tree / "slurmspec.toml").write_text(
        '[per-file-ignores]\n"legacy/*.sbatch" = ["SB1"]\n"b.sbatch" = ["invalid-duration"]\n'
    )
    _, found = lint_json(capsys, str(tree))
    assert [Path(d["path"]).name for d in found] == ["a.sbatch"]
    (tree / "slurmspec.toml").write_text('[per-file-ignores]\n"jobs/**/*.sbatch" = ["SB110"]\n')
    _, found = lint_json(capsys, str(tree))
    assert [Path(d["path"]).name for d in found] == ["c.sbatch"]


def test_per_file_ignores_make_suppressions_of_those_rules_quiet(tree, capsys):
    (tree / "slurmspec.toml").write_text('[per-file-ignores]\n"*.sbatch" = ["SB110"]\n')
    (tree / "a.sbatch").write_text("#!/bin/bash\n#SBATCH --time=2h  # slurmspec: ignore[SB110]\nsrun x\n")
    assert lint_json(capsys, str(tree / "a.sbatch")) == (0, [])


def test_explicit_config_and_stdin(tree, capsys, monkeypatch):
    other = tree.parent / "elsewhere.toml"
    other.write_text('ignore = ["SB1"]\n')
    assert main(["lint", "--config", str(other), str(tree / "jobs" / "a.sbatch")]) == 0
    # Standard input finds its configuration from the working folder (or --stdin-filename).
    (tree / "slurmspec.toml").write_text('ignore = ["SB110"]\n')
    monkeypatch.chdir(tree / "jobs")
    monkeypatch.setattr("sys.stdin", _Stdin(BAD_TIME.encode()))
    assert main(["lint", "-"]) == 0


class _Stdin:
    def __init__(self, data: bytes) -> None:
        import io

        self.buffer = io.BytesIO(data)


def test_pyproject_table(tree, capsys):
    (tree / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.slurmspec]\nignore = ["SB110"]\n\n'
        '[tool.slurmspec.severity]\nSB112 = "info"\n'
    )
    config = load_config(str(tree / "pyproject.toml"))
    assert config.ignore == ("SB110",) and config.severity == (("SB112", "info"),)
    assert lint_json(capsys, str(tree / "jobs" / "a.sbatch")) == (0, [])


@pytest.mark.parametrize("text, fragments", [
    ('selct = ["SB1"]\n', ["unknown key `selct`", "did you mean `select`?"]),
    ('[tool]\n', ["unknown key `tool`"]),
    ('ignore = ["SB11O"]\n', ["`ignore`", "`SB11O` is not a rule code", "did you mean `SB110`?"]),
    ('ignore = ["invalid-durations"]\n', ["did you mean `invalid-duration`?"]),
    ('ignore = "SB110"\n', ["`ignore`: must be a list"]),
    ('fail-on = "warn"\n', ["`fail-on`", "did you mean `warning`?"]),
    ('slurm-version = 23.02\n', ["`slurm-version`", "must be a string"]),
    ('slurm-version = "21.08"\n', ["unsupported Slurm version"]),
    ('[severity]\nSB110 = "fatal"\n', ["`severity.SB110`", "not a severity"]),
    ('[severity]\nSB999 = "error"\n', ["`severity.SB999`", "not a rule code"]),
    ('severity = "error"\n', ["`severity`: must be a table"]),
    ('[per-file-ignores]\n"*.sh" = ["SB0", "bogus-rule"]\n', ['per-file-ignores."*.sh"', "`bogus-rule`"]),
    ('select = [\n', ["invalid TOML"]),
])
def test_config_mistakes_are_exit_2_naming_file_and_key(tmp_path, capsys, text, fragments):
    (tmp_path / "slurmspec.toml").write_text(text)
    (tmp_path / "a.sbatch").write_text(BAD_TIME)
    assert main(["lint", str(tmp_path / "a.sbatch")]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert str(tmp_path / "slurmspec.toml") in captured.err
    for fragment in fragments:
        assert fragment in captured.err, captured.err
    assert "Traceback" not in captured.err
    with pytest.raises(ConfigError):
        load_config(str(tmp_path / "slurmspec.toml"))


def test_pyproject_key_is_named_with_its_table(tmp_path, capsys):
    (tmp_path / "pyproject.toml").write_text('[tool.slurmspec]\nfail_on = "error"\n')
    (tmp_path / "a.sbatch").write_text(BAD_TIME)
    assert main(["lint", str(tmp_path / "a.sbatch")]) == 2
    err = capsys.readouterr().err
    assert "unknown key `tool.slurmspec.fail_on`; did you mean `fail-on`?" in err


def test_missing_explicit_config_is_exit_2(tmp_path, capsys):
    assert main(["lint", "--config", str(tmp_path / "nope.toml"), str(tmp_path)]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_cli_selectors_get_a_did_you_mean(capsys, tmp_path):
    assert main(["lint", "--ignore", "invalid-durations", str(tmp_path)]) == 2
    assert "did you mean `invalid-duration`?" in capsys.readouterr().err


def test_parse_uses_the_configured_version(tmp_path, capsys):
    (tmp_path / "slurmspec.toml").write_text('slurm-version = "22.05"\n')
    (tmp_path / "a.sbatch").write_text(BAD_TIME)
    assert main(["parse", str(tmp_path / "a.sbatch")]) == 0
    assert json.loads(capsys.readouterr().out)["slurm_version"] == "22.05"


def test_config_is_not_searched_above_with_no_config(tree, capsys):
    (tree / "slurmspec.toml").write_text('selct = 1\n')
    assert main(["lint", "--no-config", str(tree / "jobs" / "a.sbatch")]) == 1
    assert main(["lint", str(tree / "jobs" / "a.sbatch")]) == 2
    assert os.path.exists(tree / "slurmspec.toml")


def test_readme_configuration_example_is_valid(tmp_path):
    import re

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    blocks = re.findall(r"```toml\n(.*?)```", readme, flags=re.S)
    assert blocks, "README.md has a ```toml configuration example"
    for block in blocks:
        (tmp_path / "slurmspec.toml").write_text(block)
        config = load_config(str(tmp_path / "slurmspec.toml"))
        assert config.select and config.severity and config.per_file_ignores
        assert config.ignores_for(str(tmp_path / "legacy" / "x" / "job.sbatch")) == ("SB2",)
        assert config.ignores_for(str(tmp_path / "sub" / "array_1.sh")) == ("SB116",)


def test_no_suppress_flag(tmp_path, capsys):
    (tmp_path / "a.sbatch").write_text("#!/bin/bash\n#SBATCH --time=2h  # slurmspec: ignore[SB110]\nsrun x\n")
    assert lint_json(capsys, "--no-config", "--select", "SB1,SB9", str(tmp_path / "a.sbatch")) == (0, [])
    code, found = lint_json(capsys, "--no-config", "--select", "SB1,SB9", "--no-suppress", str(tmp_path / "a.sbatch"))
    assert code == 1 and [d["code"] for d in found] == ["SB110"]
