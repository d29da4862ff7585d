"""Behaviour of the output formats and the flags that shape them, beyond the golden files."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from slurmspec.cli import main
from slurmspec.diagnostic import Diagnostic
from slurmspec.report import default_format, resolve_color
from slurmspec.report.concise import concise_line
from slurmspec.report.github import annotation
from slurmspec.report.gitlab import issues
from slurmspec.span import LineIndex

BAD = "#!/bin/bash\n#SBATCH --nod=2\n#SBATCH --time=10\nsrun x\n#SBATCH --exclusive\n"


def diagnostic(message="m", path="a.sbatch", severity="error", code="SB001", span=(0, 1), text="x\n"):
    return Diagnostic(
        code=code, name="unknown-option", family="parse", severity=severity, message=message,
        span=LineIndex(text).span(*span), path=path,
    )


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def lint(monkeypatch, *args: str, out: io.StringIO | None = None) -> tuple[int, str]:
    out = out if out is not None else io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    code = main(["lint", "--no-config", *args])
    return code, out.getvalue()


@pytest.fixture
def bad(tmp_path):
    path = tmp_path / "bad.sbatch"
    path.write_text(BAD)
    return str(path)


def test_default_format_is_text_on_a_terminal_and_concise_otherwise(monkeypatch, bad):
    assert default_format(Tty()) == "text" and default_format(io.StringIO()) == "concise"
    _, piped = lint(monkeypatch, bad)
    assert piped.splitlines()[0].startswith(f"{bad}:2:9: SB004 ")
    assert "^" not in piped
    monkeypatch.setenv("NO_COLOR", "1")
    _, terminal = lint(monkeypatch, bad, out=Tty())
    assert "SB004 error:" in terminal and "^" in terminal and "\x1b[" not in terminal


@pytest.mark.parametrize("choice, env, tty, expected", [
    ("auto", {}, False, False),
    ("auto", {}, True, True),
    ("auto", {"NO_COLOR": "1"}, True, False),
    ("auto", {"FORCE_COLOR": "1"}, False, True),
    ("auto", {"NO_COLOR": "1", "FORCE_COLOR": "1"}, False, False),
    ("auto", {"NO_COLOR": ""}, True, True),  # an empty NO_COLOR does not count (no-color.org)
    ("always", {"NO_COLOR": "1"}, False, True),
    ("never", {"FORCE_COLOR": "1"}, True, False),
])
def test_color_choice(monkeypatch, choice, env, tty, expected):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert resolve_color(choice, Tty() if tty else io.StringIO()) is expected


def test_force_color_colours_concise_output(monkeypatch, bad):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("FORCE_COLOR", "1")
    _, out = lint(monkeypatch, "--format", "concise", bad)
    assert "\x1b[1;31mSB004\x1b[0m" in out


def test_exit_codes_fail_on_and_exit_zero(monkeypatch, bad, tmp_path):
    assert lint(monkeypatch, bad)[0] == 1
    assert lint(monkeypatch, "--exit-zero", bad)[0] == 0
    assert lint(monkeypatch, "--select", "SB2", "--fail-on", "error", bad)[0] == 0  # SB201 is a warning
    assert lint(monkeypatch, "--select", "SB2", "--fail-on", "warning", bad)[0] == 1
    no_time = tmp_path / "no-time.sbatch"
    no_time.write_text("#!/bin/bash\n#SBATCH --nodes=1\nsrun x\n")  # SB341 missing-time-limit is info
    assert lint(monkeypatch, "--select", "SB341", str(no_time))[0] == 0
    assert lint(monkeypatch, "--select", "SB341", "--fail-on", "info", str(no_time))[0] == 1
    # --exit-zero never hides a usage error or a missing path.
    assert lint(monkeypatch, "--exit-zero", str(tmp_path / "missing.sbatch"))[0] == 2


def test_quiet_drops_only_the_summary(monkeypatch, bad):
    # A given release: a defaulted one adds a line naming it (tests/test_cli_manners.py).
    _, loud = lint(monkeypatch, "--format", "concise", "--slurm-version", "26.05", bad)
    _, quiet = lint(monkeypatch, "--format", "concise", "--slurm-version", "26.05", "--quiet", bad)
    assert loud.splitlines()[-2].startswith("Found ")
    assert loud.splitlines()[-1] == "[*] 1 fixable with `--fix`."
    assert quiet.splitlines() == loud.splitlines()[:-2]


def test_statistics_counts_per_code(monkeypatch, tmp_path):
    paths = []
    for n in range(3):
        path = tmp_path / f"{n}.sbatch"
        path.write_text(BAD)
        paths.append(str(path))
    _, out = lint(monkeypatch, "--statistics", "--select", "SB0,SB2", *paths)
    assert out.splitlines() == ["3  SB004  ambiguous-option", "3  SB201  directive-after-command"]
    _, out = lint(monkeypatch, "--statistics", "--format", "json", "--select", "SB004", *paths)
    assert json.loads(out) == [{"code": "SB004", "name": "ambiguous-option", "count": 3}]


def test_concise_keeps_one_finding_per_line():
    # Line breaks in quoted user text are shown as Control Pictures (slurmspec.printable).
    line = concise_line(diagnostic(message="first\nsecond\r\x0bthird\u2028"))
    assert line == "a.sbatch:1:1: SB001 first\u240asecond\u240d\u240bthird\\u2028"


def test_github_annotation_escapes_data_and_properties():
    found = diagnostic(message="100% sure\nnext", path="dir,with:odd%name.sbatch", severity="info")
    assert annotation(found) == (
        "::notice file=dir%2Cwith%3Aodd%25name.sbatch,line=1,col=1,endLine=1,endColumn=2,"
        "title=SB001 (unknown-option)::100%25 sure\u240anext"
    )


def test_gitlab_fingerprints_are_unique_and_survive_moved_lines():
    text = "#!/bin/bash\n#SBATCH --bogus\n#SBATCH --bogus\n"
    moved = "#!/bin/bash\n# a new comment line\n#SBATCH --bogus\n#SBATCH --bogus\n"

    class FakeScript:
        def __init__(self, source):
            self.source, self.index = source, LineIndex(source)

        def physical_line(self, number):
            return self.source.splitlines()[number - 1]

    def report(source, lines):
        script = FakeScript(source)
        found = [diagnostic(text=source, span=(script.index.line_start(n), script.index.line_start(n) + 1))
                 for n in lines]
        return issues([(script, found)])

    before, after = report(text, [2, 3]), report(moved, [3, 4])
    assert len({i["fingerprint"] for i in before}) == 2
    assert [i["fingerprint"] for i in before] == [i["fingerprint"] for i in after]
    assert [i["location"]["lines"]["begin"] for i in after] == [3, 4]
    assert {i["severity"] for i in before} == {"major"}


@pytest.mark.parametrize("fmt", ["json", "concise", "sarif", "github", "gitlab"])
def test_machine_formats_do_not_import_rich(fmt, bad):
    code = (
        "import io, sys\nfrom slurmspec.cli import main\n"
        f"sys.stdout = io.StringIO()\nmain(['lint', '--no-config', '--format', {fmt!r}, {bad!r}])\n"
        "sys.stdout = sys.__stdout__\nprint('rich' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "False", result.stderr


def test_json_output_has_a_version_and_rule_links(monkeypatch, bad):
    _, out = lint(monkeypatch, "--format", "json", "--select", "SB004", bad)
    report = json.loads(out)
    assert report["version"] == 1
    (found,) = report["diagnostics"]
    assert found["url"].endswith("docs/rules.md#sb004-ambiguous-option")


def test_json_output_matches_the_documented_schema(monkeypatch, bad):
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is in the test extra")
    from pathlib import Path

    schema = json.loads((Path(__file__).resolve().parents[2] / "slurmspec" / "report" / "lint-report.schema.json").read_text())
    _, out = lint(monkeypatch, "--format", "json", bad)
    report = json.loads(out)
    assert any(d["fix"] is not None for d in report["diagnostics"])  # SB201's fix is covered too
    jsonschema.Draft202012Validator(schema).validate(report)
    report["diagnostics"][0]["severity"] = "fatal"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(schema).validate(report)


def test_output_format_from_the_working_folders_configuration(monkeypatch, tmp_path, bad, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "slurmspec.toml").write_text('output-format = "github"\n')
    _, out = lint_configured(monkeypatch, bad)
    assert out.startswith("::error file=")
    _, out = lint_configured(monkeypatch, "--format", "concise", bad)  # the flag wins
    assert out.startswith(f"{bad}:2:9: SB004")
    (tmp_path / "slurmspec.toml").write_text('output-format = "xml"\n')
    assert lint_configured(monkeypatch, bad)[0] == 2
    assert "`output-format`: must be one of text, concise, json" in capsys.readouterr().err


def lint_configured(monkeypatch, *args: str) -> tuple[int, str]:
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    return main(["lint", *args]), out.getvalue()


def test_text_colour_is_plain_ansi_and_keeps_brackets(monkeypatch, tmp_path):
    path = tmp_path / "brackets.sbatch"
    path.write_text("#!/bin/bash\n#SBATCH --constraint=[a|b] --bogus\nsrun x\n")
    _, out = lint(monkeypatch, "--format", "text", "--color", "always", "--select", "SB001", str(path))
    assert "\x1b[1;31merror:\x1b[0m" in out and "\x1b[2m [unknown-option]\x1b[0m" in out
    assert "#SBATCH --constraint=[a|b] --bogus" in out  # never read as markup
    plain = "".join(part.split("m", 1)[-1] for part in out.split("\x1b["))
    assert plain == lint(monkeypatch, "--format", "text", "--color", "never", "--select", "SB001", str(path))[1]


def test_the_caret_counts_terminal_columns_of_wide_characters(monkeypatch, tmp_path):
    path = tmp_path / "wide.sbatch"
    path.write_text("#!/bin/bash\n#SBATCH -J 日本語 --bogus\nsrun x\n", encoding="utf-8")
    _, out = lint(monkeypatch, "--format", "text", "--color", "never", "--select", "SB001", str(path))
    source, caret = [line for line in out.splitlines() if line.startswith(("2 |", "  |")) and line.strip() != "|"]
    # each of 日本語 takes two columns: the caret sits under `--bogus`, seven columns wide
    assert caret == "  | " + " " * len("#SBATCH -J ") + " " * 6 + " " + "^~~~~~~"
    assert source == "2 | #SBATCH -J 日本語 --bogus"
