"""``slurmspec rule``: one rule's documentation in the terminal, or every rule as text, JSON or Markdown."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from slurmspec.cli import main
from slurmspec.lint.engine import registry


def test_one_rule_by_code_or_name(capsys):
    assert main(["rule", "SB110"]) == 0
    by_code = capsys.readouterr().out
    assert main(["rule", "invalid-duration"]) == 0
    assert capsys.readouterr().out == by_code
    assert by_code.startswith("SB110 invalid-duration\n")
    assert "Default severity: error" in by_code
    for heading in ("What it does", "Why is this bad?", "Example", "Use instead"):
        assert heading in by_code
    assert "#SBATCH" in by_code


def test_doc_text_is_not_read_as_rich_markup(capsys):
    # SB121's doc shows constraints such as [rack1*2&rack2*4]; markup would eat brackets.
    rule = registry()["SB903"]
    assert "ignore[SB110]" in rule.doc
    assert main(["rule", "SB903"]) == 0
    assert "ignore[SB110]" in capsys.readouterr().out


def test_all_as_json_has_every_rule_and_field(capsys):
    assert main(["rule", "--all", "--format", "json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [r["code"] for r in listed] == sorted(registry())
    for entry in listed:
        assert set(entry) == {"code", "name", "family", "severity", "outcome", "fixable", "fix", "default", "judged",
                              "summary", "doc"}
        assert isinstance(entry["default"], bool)
        assert entry["judged"] is None or set(entry["judged"]) == {"real", "low", "wrong"}
        assert entry["outcome"] in ("refused", "pends", "fails", "wrong", "advice")
        assert entry["fixable"] == (entry["fix"] != "none")
        assert entry["summary"] and entry["doc"].startswith("## What it does")


def test_one_rule_as_json_is_an_object(capsys):
    assert main(["rule", "unused-suppression", "--format", "json"]) == 0
    entry = json.loads(capsys.readouterr().out)
    assert entry["code"] == "SB901" and entry["family"] == "meta" and entry["fixable"] is False


def test_all_as_text_lists_one_line_per_rule(capsys):
    assert main(["rule", "--all"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(registry())
    assert lines[0].startswith("SB001  unknown-option")


def test_the_list_and_a_rule_doc_say_default_or_opt_in(capsys):
    from slurmspec.lint.engine import is_default

    assert main(["rule", "--all"]) == 0
    for line, rule in zip(capsys.readouterr().out.splitlines(), registry().values()):
        assert ("  default  " in line) == is_default(rule) and ("  opt-in   " in line) != is_default(rule), line
    assert main(["rule", "SB341"]) == 0
    assert "Selection: opt-in · Judged on real scripts: " in capsys.readouterr().out


def test_a_prefix_lists_that_family(capsys):
    assert main(["rule", "SB90", "--format", "json"]) == 0
    assert {r["code"] for r in json.loads(capsys.readouterr().out)} >= {"SB901", "SB902", "SB903"}


@pytest.mark.parametrize("argv, fragment", [
    (["rule", "SB11O"], "did you mean `SB110`?"),
    (["rule", "unused-supression"], "did you mean `unused-suppression`?"),
    (["rule"], "give a rule code or name, or --all"),
    (["rule", "SB110", "--all"], "give a rule code or name, or --all"),
])
def test_mistakes_are_exit_2(capsys, argv, fragment):
    assert main(argv) == 2
    assert fragment in capsys.readouterr().err


def test_json_path_does_not_import_rich():
    code = (
        "import sys\nfrom slurmspec.cli import main\nimport io\n"
        "sys.stdout = io.StringIO()\nmain(['rule', '--all', '--format', 'json'])\n"
        "sys.stdout = sys.__stdout__\nprint('rich' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "False", result.stderr


def test_rule_doc_in_a_pipe_wraps_and_never_cuts_text():
    """Every word of every rule's documentation is in ``slurmspec rule CODE`` written to a pipe
    (rich cropped list items at the pipe's 80 columns: 50 rules lost text)."""
    import io
    import re

    from slurmspec.lint.engine import registry
    from slurmspec.report.rule_docs import write_rule_doc

    for rule in registry().values():
        out = io.StringIO()
        write_rule_doc(rule, out)
        shown = set(re.findall(r"[A-Za-z0-9_]{3,}", out.getvalue()))
        words = set(re.findall(r"[A-Za-z0-9_]{3,}", re.sub(r"\]\([^)]*\)|```\w*", "]", rule.doc)))
        assert words <= shown, (rule.code, sorted(words - shown)[:5])
        assert all(line == line.rstrip() for line in out.getvalue().splitlines()), rule.code
