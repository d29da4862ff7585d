"""The default selection (rules/selection.py, docs/judged.md): what runs without ``select``, and how the rest is
opted into by code, prefix, name, outcome group or ``ALL`` — explicit selection means what it names."""

from __future__ import annotations

import json

from hypothesis import given

from slurmspec.cli import main
from slurmspec.kinds import Outcome
from slurmspec.settings.config import ConfigError, load_config
from slurmspec.lint.engine import default_codes, is_default, registry, select_rules, selector_matches
from tests.strategies import rule_selectors

TABLE = registry()


def _codes(rules) -> set[str]:
    return {rule.code for rule in rules}


def test_no_select_runs_the_default_selection_and_it_is_not_every_rule():
    chosen = _codes(select_rules())
    assert chosen == default_codes()
    assert chosen < TABLE.keys()
    assert "SB341" not in chosen and "SB001" in chosen  # advice opt-in, a refusal default


def test_groups_all_default_and_outcomes():
    assert _codes(select_rules(["ALL"])) == set(TABLE)
    assert _codes(select_rules(["default"])) == default_codes()
    advice = {code for code, rule in TABLE.items() if rule.outcome is Outcome.ADVICE}
    assert _codes(select_rules(["advice"])) == advice
    assert _codes(select_rules(extend_select=["advice"])) == default_codes() | advice


def test_explicit_select_means_what_it_names_default_or_opt_in():
    assert _codes(select_rules(["SB341"])) == {"SB341"}
    assert _codes(select_rules(["SB34"])) == {code for code in TABLE if code.startswith("SB34")}
    assert _codes(select_rules(["missing-time-limit", "SB001"])) == {"SB341", "SB001"}
    assert _codes(select_rules(["SB001"], extend_select=["SB341"])) == {"SB001", "SB341"}
    assert "SB001" not in _codes(select_rules(ignore=["SB001"]))


@given(rule_selectors(list(TABLE), [rule.name for rule in TABLE.values()]),
       rule_selectors(list(TABLE), [rule.name for rule in TABLE.values()]),
       rule_selectors(list(TABLE), [rule.name for rule in TABLE.values()]))
def test_selection_is_select_or_default_plus_extend_minus_ignore(select, extend, ignore):
    def named(patterns):
        return {code for code, rule in TABLE.items() if any(selector_matches(rule, p) for p in patterns)}

    base = named(select) if select else default_codes()
    assert _codes(select_rules(select, ignore, extend)) == (base | named(extend)) - named(ignore)
    assert all(is_default(TABLE[code]) == (code in default_codes()) for code in TABLE)


def test_configuration_accepts_groups(tmp_path):
    config = tmp_path / "slurmspec.toml"
    config.write_text('extend-select = ["advice", "default", "ALL"]\nignore = ["wrong"]\n')
    assert load_config(str(config)).extend_select == ("advice", "default", "ALL")
    config.write_text('extend-select = ["advise"]\n')
    try:
        load_config(str(config))
    except ConfigError as exc:
        assert "advise" in str(exc)
    else:
        raise AssertionError("a mistyped group must be refused")


SCRIPT = "#!/bin/bash\n#SBATCH --partition=gpu\n#SBATCH --hodl\nsrun ./app\n"  # no --time: SB341 is advice


def _lint(tmp_path, capsys, *options) -> set[str]:
    job = tmp_path / "job.sbatch"
    job.write_text(SCRIPT)
    main(["lint", "--no-config", "--format", "json", *options, str(job)])
    return {d["code"] for d in json.loads(capsys.readouterr().out)["diagnostics"]}


def test_cli_default_opt_in_and_all(tmp_path, capsys):
    assert _lint(tmp_path, capsys) == {"SB001"}
    assert _lint(tmp_path, capsys, "--extend-select", "advice") == {"SB001", "SB341"}
    assert _lint(tmp_path, capsys, "--select", "ALL") >= {"SB001", "SB341"}
    assert _lint(tmp_path, capsys, "--select", "SB341") == {"SB341"}


def test_cli_configuration_extend_select(tmp_path, capsys):
    (tmp_path / "slurmspec.toml").write_text('extend-select = ["missing-time-limit"]\n')
    job = tmp_path / "job.sbatch"
    job.write_text(SCRIPT)
    main(["lint", "--format", "json", str(job)])
    assert {d["code"] for d in json.loads(capsys.readouterr().out)["diagnostics"]} == {"SB001", "SB341"}
