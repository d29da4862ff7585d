"""Settings are resolved in one place (slurmspec/settings/resolve.py): the CLI and the language server
read a configuration into the same ``LintSettings``, and the command line's flags mean what they say."""

from __future__ import annotations

from hypothesis import given, settings as hypothesis_settings, strategies as st

from slurmspec.cli import build_parser
from slurmspec.cli.lint_cmd import settings_for
from slurmspec.lint import lint_text
from slurmspec.lint.engine import default_codes, registry
from slurmspec.lint.pipeline import LintSettings, every_rule, lint_source
from slurmspec.lsp.settings import ConfigSource
from slurmspec.settings.config import DEFAULT, load_config

CONFIG = (
    'select = ["SB1", "SB2"]\nextend-select = ["SB341"]\nignore = ["SB110"]\nslurm-version = "23.02"\n'
    '[severity]\nSB1 = "info"\n[per-file-ignores]\n"legacy/*.sbatch" = ["SB2"]\n'
)


def _summary(resolved: LintSettings) -> tuple:
    return (tuple(rule.code for rule in resolved.rules), dict(resolved.severity), resolved.version,
            resolved.shellcheck, resolved.select, resolved.ignore, resolved.suppress, resolved.config_path)


def _cli(words: list[str], config, path: str) -> LintSettings:
    return settings_for(build_parser("lint").parse_args(["lint", *words, path]), config, path)


def test_the_cli_and_the_language_server_resolve_a_configuration_alike(tmp_path, monkeypatch):
    monkeypatch.setattr("slurmspec.settings.release.installed_sbatch_version", lambda: None)
    (tmp_path / "slurmspec.toml").write_text(CONFIG)
    (tmp_path / "legacy").mkdir()
    config = load_config(str(tmp_path / "slurmspec.toml"))
    for name in ("job.sbatch", "legacy/old.sbatch"):
        path = str(tmp_path / name)
        editor = ConfigSource(root=str(tmp_path)).settings_for(path)
        assert editor.error is None
        assert _summary(editor) == _summary(_cli([], config, path))
    legacy = _cli([], config, str(tmp_path / "legacy/old.sbatch"))
    assert not any(rule.code.startswith("SB2") for rule in legacy.rules)  # the per-file ignore


def test_select_on_the_command_line_replaces_the_configurations_select_and_extend_select(tmp_path, monkeypatch):
    monkeypatch.setattr("slurmspec.settings.release.installed_sbatch_version", lambda: None)
    (tmp_path / "slurmspec.toml").write_text(CONFIG)
    config = load_config(str(tmp_path / "slurmspec.toml"))
    path = str(tmp_path / "job.sbatch")
    chosen = _cli(["--select", "SB0", "--ignore", "SB001", "--no-suppress", "--slurm-version", "24.11"], config, path)
    assert {rule.code[:3] for rule in chosen.rules} == {"SB0"}
    assert "SB001" not in {rule.code for rule in chosen.rules} and "SB341" not in {rule.code for rule in chosen.rules}
    assert chosen.ignore == ("SB110", "SB001") and not chosen.suppress and chosen.version == (24, 11)
    extended = _cli(["--extend-select", "SB342"], config, path)
    assert {"SB341", "SB342"} <= {rule.code for rule in extended.rules}  # added to the configuration's


_SCRIPTS = st.lists(st.sampled_from([
    "#SBATCH --time=1:00:00\n", "#SBATCH --tim=5\n", "#SBATCH --ntasks=4 --ntasks-per-node=8\n",
    "#SBATCH --gpus-per-node=2\n", "srun python train.py\n", "# slurmspec: ignore[SB001]\n",
    "#SBATCH --mem=4G --mem-per-cpu=1G\n", "export OMP_NUM_THREADS=8\n", "#SBATCH -N 2\n",
]), max_size=8).map(lambda lines: "#!/bin/bash\n" + "".join(lines))


@hypothesis_settings(max_examples=25, deadline=None)
@given(_SCRIPTS)
def test_lint_text_is_the_pipeline_with_every_rule_selected(script):
    """``lint_text`` runs every rule: an explicit settings value, not a pipeline of its own."""
    assert lint_text(script) == lint_source(script, LintSettings(every_rule())).diagnostics


def test_without_a_configuration_the_cli_and_the_language_server_run_the_default_selection(tmp_path, monkeypatch):
    monkeypatch.setattr("slurmspec.settings.release.installed_sbatch_version", lambda: None)
    path = str(tmp_path / "job.sbatch")
    cli = _cli([], DEFAULT, path)
    editor = ConfigSource(enabled=False, root=str(tmp_path)).settings_for(path)
    assert {rule.code for rule in cli.rules} == {rule.code for rule in editor.rules} == default_codes()
    assert len(every_rule()) == len(registry()) > len(default_codes())
