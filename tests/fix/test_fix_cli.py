"""``slurmspec lint --fix / --diff / --unsafe-fixes / --show-fixes`` and the pieces behind them."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from slurmspec.cli import main
from slurmspec.fix.edit import Edit, Fix
from slurmspec.fix.loop import MAX_ROUNDS, fix_text
from slurmspec.fix.write import ChangedOnDisk, write_fixed
from slurmspec.kinds import Severity
from slurmspec.lint import lint_text
from slurmspec.diagnostic import Diagnostic
from slurmspec.parser.script import parse_script
from slurmspec.span import Span

CRLF = b"#!/bin/bash\r\n#SBATCH --time=10\r\nsrun hostname\r\n"
FIXED = b"#!/bin/bash\n#SBATCH --time=10\nsrun hostname\n"
NO_SHEBANG = b"#SBATCH --time=10\nsrun hostname\n"
CLEAN = FIXED


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "slurmspec", *args], input=stdin, capture_output=True, timeout=60)


def expected_exit(data: bytes) -> int:
    """What `lint` must exit with for a file that ends up as ``data``: 1 when a warning or error remains."""
    return 1 if any(d.severity.rank >= Severity.WARNING.rank for d in lint_text(data)) else 0


def script_file(tmp_path: Path, data: bytes, mode: int = 0o644, name: str = "job.sbatch") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    os.chmod(path, mode)
    return path


# ------------------------------------------------------------------ --fix on files
def test_fix_rewrites_the_file_atomically_and_keeps_its_mode(tmp_path, capsys):
    path = script_file(tmp_path, CRLF, mode=0o750)
    inode = path.stat().st_ino
    code = main(["lint", "--no-config", "--fix", str(path)])
    err = capsys.readouterr().err
    assert code == expected_exit(FIXED), err
    assert path.read_bytes() == FIXED
    assert stat.S_IMODE(path.stat().st_mode) == 0o750
    # A rename put a new file in place (never a write into the old one), and no temporary is left behind.
    assert path.stat().st_ino != inode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["job.sbatch"]
    assert "Fixed 1 finding in 1 file" in err


@pytest.mark.parametrize("mode", [0o600, 0o755, 0o640])
def test_write_fixed_keeps_permission_bits(tmp_path, mode):
    path = script_file(tmp_path, CRLF, mode=mode)
    write_fixed(str(path), FIXED, CRLF)
    assert path.read_bytes() == FIXED and stat.S_IMODE(path.stat().st_mode) == mode


def test_fix_leaves_a_clean_file_alone(tmp_path, capsys):
    path = script_file(tmp_path, CLEAN)
    before = path.stat()
    assert main(["lint", "--no-config", "--fix", str(path)]) == expected_exit(CLEAN)
    after = path.stat()
    assert path.read_bytes() == CLEAN and (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert "Fixed 0 findings in 0 files" in capsys.readouterr().err


def test_fix_reports_what_remains_after_fixing(tmp_path, capsys):
    # --bogus has no fix: it is still reported (against the fixed text, so at line 2 of 3 lines).
    path = script_file(tmp_path, b"#!/bin/bash\r\n#SBATCH --bogus\r\nsrun x\r\n")
    assert main(["lint", "--no-config", "--fix", "--format", "json", str(path)]) == 1
    captured = capsys.readouterr()
    assert path.read_bytes() == b"#!/bin/bash\n#SBATCH --bogus\nsrun x\n"
    assert '"SB001"' in captured.out and '"SB105"' not in captured.out


# ------------------------------------------------------------------ changed on disk
def test_write_fixed_refuses_a_file_changed_since_it_was_read(tmp_path):
    path = script_file(tmp_path, b"someone else's edit\n", mode=0o700)
    with pytest.raises(ChangedOnDisk, match="changed on disk"):
        write_fixed(str(path), FIXED, expected=CRLF)
    assert path.read_bytes() == b"someone else's edit\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o700
    assert sorted(p.name for p in tmp_path.iterdir()) == ["job.sbatch"]  # the temporary is gone


def test_fix_refuses_to_overwrite_an_edit_made_while_fixing(tmp_path, capsys, monkeypatch):
    from slurmspec.cli import fixing

    path = script_file(tmp_path, CRLF)
    real = fixing.fix_input

    def edited_meanwhile(data, shown, settings, args):
        outcome = real(data, shown, settings, args)
        path.write_bytes(b"#!/bin/bash\r\n# an editor saved this meanwhile\r\n")
        return outcome

    monkeypatch.setattr(fixing, "fix_input", edited_meanwhile)
    assert main(["lint", "--no-config", "--fix", str(path)]) == 2
    assert path.read_bytes() == b"#!/bin/bash\r\n# an editor saved this meanwhile\r\n"
    err = capsys.readouterr().err
    assert f"{path} changed on disk since it was read; not written" in err


# ------------------------------------------------------------------ --diff
def test_diff_prints_the_change_writes_nothing_and_exits_1(tmp_path, capsys):
    path = script_file(tmp_path, NO_SHEBANG)
    before = path.stat()
    assert main(["lint", "--no-config", "--diff", str(path)]) == 1
    out = capsys.readouterr().out
    assert path.read_bytes() == NO_SHEBANG and path.stat().st_mtime_ns == before.st_mtime_ns
    assert out.startswith(f"--- {path}\n+++ {path}\n@@ ")
    assert "+#!/bin/bash\n" in out and " #SBATCH --time=10\n" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["job.sbatch"]


def test_diff_exits_0_when_nothing_would_change(tmp_path, capsys):
    path = script_file(tmp_path, b"#!/bin/bash\n#SBATCH --bogus\nsrun x\n")  # a finding, but no fix
    assert main(["lint", "--no-config", "--diff", str(path)]) == 0
    assert capsys.readouterr().out == ""
    assert path.read_bytes() == b"#!/bin/bash\n#SBATCH --bogus\nsrun x\n"


def test_diff_shows_each_crlf_line(tmp_path, capsys):
    path = script_file(tmp_path, CRLF)
    assert main(["lint", "--no-config", "--diff", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.count("\n-") == 3 and out.count("\n+") == 3 + 1  # +1: the "+++" header line
    assert path.read_bytes() == CRLF


# ------------------------------------------------------------------ standard input
def test_fix_on_stdin_prints_the_fixed_script_and_findings_go_to_stderr():
    result = run("lint", "--no-config", "--fix", "-", stdin=b"#SBATCH --time=10\r\n#SBATCH --bogus\r\nsrun x\r\n")
    assert result.returncode == 1, result.stderr
    assert result.stdout == b"#!/bin/bash\n#SBATCH --time=10\n#SBATCH --bogus\nsrun x\n"
    err = result.stderr.decode()
    assert "SB001" in err and "Traceback" not in err


def test_fix_on_stdin_keeps_undecodable_bytes():
    data = b"#!/bin/bash\r\n#SBATCH -J caf\xe9\r\nsrun x\r\n"
    result = run("lint", "--no-config", "--fix", "-", stdin=data)
    assert result.stdout == data.replace(b"\r\n", b"\n"), result.stderr


# ------------------------------------------------------------------ usage errors
@pytest.mark.parametrize("args", [
    ["--unsafe-fixes"], ["--show-fixes"], ["--fix", "--diff"], ["--unsafe-fixes", "--show-fixes"],
])
def test_fix_options_need_fix_or_diff(tmp_path, capsys, args):
    path = script_file(tmp_path, CRLF)
    assert main(["lint", "--no-config", *args, str(path)]) == 2
    assert "slurmspec: error:" in capsys.readouterr().err
    assert path.read_bytes() == CRLF


# ------------------------------------------------------------------ --show-fixes
def test_show_fixes_lists_code_name_and_title(tmp_path, capsys):
    path = script_file(tmp_path, b"#SBATCH --time=10\r\nsrun x\r\n")
    main(["lint", "--no-config", "--fix", "--show-fixes", str(path)])
    err = capsys.readouterr().err
    assert f"{path}:\n" in err
    assert "    SB103 (missing-shebang): " in err
    assert "    SB105 (dos-line-breaks): Convert the DOS line breaks (\\r\\n) to Unix ones (\\n)" in err
    assert path.read_bytes() == b"#!/bin/bash\n#SBATCH --time=10\nsrun x\n"


def test_without_show_fixes_no_list(tmp_path, capsys):
    path = script_file(tmp_path, CRLF)
    main(["lint", "--no-config", "--fix", str(path)])
    assert "SB105 (dos-line-breaks):" not in capsys.readouterr().err


# ------------------------------------------------------------------ fix loop failures
def _real_lint(text: str):
    script = parse_script(text, "<t>")
    from slurmspec.lint.engine import lint_script

    return script.to_text(), lint_script(script)


def _fake(text: str, code: str, name: str, fix: Fix | None, at: int = 0) -> Diagnostic:
    script = parse_script(text, "<t>")
    return Diagnostic(code=code, name=name, family="traps", severity="warning", message="fake",
                      span=script.span(at, at), fix=fix)


def _fake_fix(text: str, start: int, end: int, new: str, title: str = "Fake it") -> Fix:
    script = parse_script(text, "<t>")
    return Fix(title=title, edits=[Edit(script.span(start, end), new)])


def bad_rule_lint(text: str):
    """The real linter plus SB999 (fake-breaker), whose fix inserts an unknown option: that adds SB001."""
    rendered, found = _real_lint(text)
    if "--zzzzzzzz" not in text:
        at = text.find("\n") + 1
        found = [*found, _fake(text, "SB999", "fake-breaker", _fake_fix(text, at, at, "#SBATCH --zzzzzzzz\n",
                                                                         "Add an option"))]
    return rendered, found


def test_a_fix_that_adds_a_finding_is_refused_and_named():
    text = "#!/bin/bash\n#SBATCH -t 5\nsrun x\n"
    assert "SB001" not in {d.code for d in _real_lint(text)[1]}
    outcome = fix_text(text, bad_rule_lint)
    assert outcome.text == text and not outcome.changed and outcome.applied == ()
    assert "SB999 (fake-breaker)" in outcome.failure and "Add an option" in outcome.failure
    assert "adds SB001" in outcome.failure
    # The findings reported are the original ones, not those of the refused text.
    assert [d.code for d in outcome.diagnostics] == [d.code for d in bad_rule_lint(text)[1]]


_HINT = "#SBATCH --hint=nomultithread --threads-per-core=1\n"


def _adds_a_dropped_hint(reveals: bool):
    """The real linter plus SB993, whose fix adds a `--hint` that sbatch drops: an SB212 warning (no fix)."""
    def lint(text: str):
        rendered, found = _real_lint(text)
        if "--hint" not in text:
            at = text.find("\n") + 1
            fix = Fix(title="Add a hint", edits=[_fake_fix(text, at, at, _HINT).edits[0]], reveals=reveals)
            found = [*found, _fake(text, "SB993", "fake-hinter", fix)]
        return rendered, found
    return lint


def test_a_fix_that_adds_a_warning_is_refused():
    text = "#!/bin/bash\n#SBATCH -t 5\nsrun x\n"
    outcome = fix_text(text, _adds_a_dropped_hint(reveals=False))
    assert outcome.text == text and "SB993 (fake-hinter)" in outcome.failure and "adds SB212" in outcome.failure


def test_a_revealing_fix_is_applied_and_what_it_reveals_is_reported():
    text = "#!/bin/bash\n#SBATCH -t 5\nsrun x\n"
    outcome = fix_text(text, _adds_a_dropped_hint(reveals=True))
    assert outcome.failure is None and outcome.text == text.replace("\n", "\n" + _HINT, 1)
    assert [d.code for d in outcome.revealed] == ["SB212"]
    assert "SB212" in [d.code for d in outcome.diagnostics]


def test_a_fix_that_changes_nothing_is_refused():
    def lint(text: str):
        rendered, found = _real_lint(text)
        return rendered, [*found, _fake(text, "SB998", "fake-noop", _fake_fix(text, 0, 1, text[0]))]

    text = "#!/bin/bash\nsrun x\n"
    outcome = fix_text(text, lint)
    assert outcome.text == text and "SB998" in outcome.failure and "change nothing" in outcome.failure


def test_a_fix_that_never_settles_is_refused():
    def lint(text: str):  # always offers to append one more line
        rendered, found = _real_lint(text)
        return rendered, [*found, _fake(text, "SB997", "fake-forever", _fake_fix(text, len(text), len(text), "#\n"))]

    text = "#!/bin/bash\nsrun x\n"
    outcome = fix_text(text, lint)
    assert outcome.text == text and "SB997" in outcome.failure and f"after {MAX_ROUNDS} rounds" in outcome.failure


def test_a_fix_whose_edit_cannot_be_applied_is_refused():
    def lint(text: str):
        rendered, found = _real_lint(text)
        broken = Fix(title="Broken edit", edits=[Edit(parse_script(text).span(0, 0), None)])  # not a str
        return rendered, [*found, _fake(text, "SB996", "fake-crash", broken)]

    text = "#!/bin/bash\nsrun x\n"
    outcome = fix_text(text, lint)
    assert outcome.text == text and "applying the fixes of SB996 failed" in outcome.failure


def test_a_fix_whose_edit_reaches_past_the_end_is_refused():
    def lint(text: str):
        rendered, found = _real_lint(text)
        end = len(text)
        past = Span(end, end + 1, 3, 1, 3, 2)  # one character past the end, as a stale parse could hand out
        return rendered, [*found, _fake(text, "SB994", "fake-past-end", Fix(title="Past the end", edits=[Edit(past, "x")]))]

    text = "#!/bin/bash\nsrun x\n"
    outcome = fix_text(text, lint)
    assert outcome.text == text and not outcome.changed
    assert "applying the fixes of SB994 failed: an edit reaches past the end" in outcome.failure


def test_safe_fixes_still_apply_when_an_unsafe_one_is_not_asked_for():
    def lint(text: str):
        rendered, found = _real_lint(text)
        unsafe = Fix(title="Unsafe", edits=[Edit(parse_script(text).span(0, len(text)), "")], applicability="unsafe")
        return rendered, [*found, _fake(text, "SB995", "fake-unsafe", unsafe)]

    outcome = fix_text("#!/bin/bash\r\nsrun x\r\n", lint)
    assert outcome.failure is None and outcome.text == "#!/bin/bash\nsrun x\n"
    assert [a.code for a in outcome.applied] == ["SB105"]


def test_cli_fix_loop_failure_leaves_the_file_untouched_and_names_the_rule(tmp_path, capsys, monkeypatch):

    def with_bad_rule(text, lint, *, unsafe=False):
        def both(t):
            rendered, found = lint(t)
            extra = bad_rule_lint(t)[1][len(_real_lint(t)[1]):]
            return rendered, [*found, *extra]

        return fix_text(text, both, unsafe=unsafe)

    import slurmspec.fix.loop as loop  # fixing.py imports fix_text from here when --fix runs

    monkeypatch.setattr(loop, "fix_text", with_bad_rule)
    path = script_file(tmp_path, CRLF, mode=0o750)
    inode = path.stat().st_ino
    assert main(["lint", "--no-config", "--fix", str(path)]) == 2
    err = capsys.readouterr().err
    assert path.read_bytes() == CRLF and path.stat().st_ino == inode
    assert f"{path}: not fixed, the file is left as it was:" in err
    assert "SB999 (fake-breaker)" in err and "please report it" in err


# ------------------------------------------------------------------ safe vs unsafe
MISSPELT = b"#!/bin/bash\n#SBATCH --time=10\n#SBATCH --job-nmae=x\nsrun x\n"


def test_fix_applies_no_unsafe_fix_and_says_how_many_are_left(tmp_path, capsys):
    path = script_file(tmp_path, MISSPELT)
    offered = [d for d in _real_lint(MISSPELT.decode())[1] if d.fix is not None]
    assert [d.fix.applicability for d in offered] == ["unsafe"], offered
    assert main(["lint", "--no-config", "--fix", str(path)]) == 1
    assert path.read_bytes() == MISSPELT
    assert "1 more can be fixed with --unsafe-fixes" in capsys.readouterr().err


def test_unsafe_fixes_apply_with_fix_and_show_in_diff(tmp_path, capsys):
    path = script_file(tmp_path, MISSPELT)
    assert main(["lint", "--no-config", "--diff", str(path)]) == 0  # nothing safe to do
    assert capsys.readouterr().out == ""
    assert main(["lint", "--no-config", "--diff", "--unsafe-fixes", str(path)]) == 1
    out = capsys.readouterr().out
    assert "-#SBATCH --job-nmae=x\n+#SBATCH --job-name=x\n" in out
    assert path.read_bytes() == MISSPELT
    assert main(["lint", "--no-config", "--fix", "--unsafe-fixes", str(path)]) == expected_exit(
        MISSPELT.replace(b"--job-nmae", b"--job-name"))
    assert path.read_bytes() == MISSPELT.replace(b"--job-nmae", b"--job-name")


def test_display_only_fixes_are_never_applied():
    def lint(text: str):
        rendered, found = _real_lint(text)
        shown = Fix(title="Shown only", edits=[Edit(parse_script(text).span(0, len(text)), "")],
                    applicability="display-only")
        return rendered, [*found, _fake(text, "SB994", "fake-display", shown)]

    text = "#!/bin/bash\nsrun x\n"
    for unsafe in (False, True):
        outcome = fix_text(text, lint, unsafe=unsafe)
        assert outcome.failure is None and outcome.text == text and outcome.applied == ()


def test_json_output_carries_the_fix(tmp_path, capsys):
    import json

    path = script_file(tmp_path, CRLF)
    assert main(["lint", "--no-config", "--format", "json", "--select", "SB105", str(path)]) == 1
    [finding] = json.loads(capsys.readouterr().out)["diagnostics"]  # JSON report version 1
    assert finding["fix"]["applicability"] == "safe"
    carriage_returns = [i for i, c in enumerate(CRLF.decode()) if c == "\r"]
    assert len(carriage_returns) == 3
    assert [(e["start"], e["end"], e["text"]) for e in finding["fix"]["edits"]] == [(i, i + 1, "") for i in carriage_returns]


# ------------------------------------------------------------------ what the file is
def test_fix_through_a_symlink_fixes_the_target_and_keeps_the_link(tmp_path, capsys):
    target = script_file(tmp_path, CRLF, name="real.sbatch")
    link = tmp_path / "link.sbatch"
    link.symlink_to(target.name)
    main(["lint", "--no-config", "--fix", str(link)])
    capsys.readouterr()
    assert link.is_symlink()
    assert target.read_bytes() == FIXED


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give the file another owner")
def test_fix_keeps_the_owner(tmp_path, capsys):
    path = script_file(tmp_path, CRLF)
    os.chown(path, 65534, 65534)
    main(["lint", "--no-config", "--fix", str(path)])
    capsys.readouterr()
    assert path.read_bytes() == FIXED
    assert (path.stat().st_uid, path.stat().st_gid) == (65534, 65534)


# ------------------------------------------------------------------ which findings get fixed
def test_fix_applies_only_the_selected_rules(tmp_path, capsys):
    path = script_file(tmp_path, b"#SBATCH -t 10\r\nsrun x\r\n")
    main(["lint", "--no-config", "--fix", "--select", "SB105", str(path)])
    capsys.readouterr()
    assert path.read_bytes() == b"#SBATCH -t 10\nsrun x\n"  # no `#!` added: SB103 was not selected
    main(["lint", "--no-config", "--fix", "--ignore", "SB105", str(tmp_path / "job.sbatch")])
    assert path.read_bytes() == b"#!/bin/bash\n#SBATCH -t 10\nsrun x\n"


def test_a_suppressed_finding_is_not_fixed(tmp_path, capsys):
    data = b"#!/bin/bash\n#SBATCH -t 10\n#SBATCH -t 10  # slurmspec: ignore[SB205]\nsrun x\n"
    path = script_file(tmp_path, data)
    main(["lint", "--no-config", "--extend-select", "SB205", "--fix", str(path)])  # SB205 is opt-in
    assert path.read_bytes() == data
    main(["lint", "--no-config", "--extend-select", "SB205", "--fix", "--no-suppress", str(path)])
    capsys.readouterr()
    assert path.read_bytes().count(b"#SBATCH -t 10") == 1


def test_fix_on_a_folder_fixes_the_batch_scripts_only(tmp_path, capsys):
    script_file(tmp_path, CRLF, name="a.sbatch")
    script_file(tmp_path, CRLF, name="notes.txt")
    script_file(tmp_path, b"echo hi\r\n", name="plain.sh")  # no directive: not a batch script
    assert main(["lint", "--no-config", "--fix", str(tmp_path)]) == expected_exit(FIXED)
    capsys.readouterr()
    assert (tmp_path / "a.sbatch").read_bytes() == FIXED
    assert (tmp_path / "notes.txt").read_bytes() == CRLF
    assert (tmp_path / "plain.sh").read_bytes() == b"echo hi\r\n"


def test_diff_on_stdin_prints_a_diff_and_exits_1():
    result = run("lint", "--no-config", "--diff", "-", stdin=CRLF)
    assert result.returncode == 1, result.stderr
    assert result.stdout.startswith(b"--- <stdin>\n+++ <stdin>\n")
    assert b"+#!/bin/bash\n" in result.stdout


def test_fix_on_a_folder_applies_a_move_that_reveals_a_problem_and_reports_it(tmp_path, capsys):
    late = b"#!/bin/bash\n#SBATCH --time=10\nmodule load x\n#SBATCH --mail-user=$USER@uab.edu\nsrun hostname\n"
    script_file(tmp_path, late)
    # SB207 (shell expansion in a directive) is opt-in: selected, so that the move reveals it.
    code = main(["lint", "--no-config", "--extend-select", "SB207", "--format", "concise", "--fix", str(tmp_path)])
    captured = capsys.readouterr()
    assert code == 1, captured.err  # findings remain; not exit 2 ("not fixed ... adds SB207")
    assert (tmp_path / "job.sbatch").read_bytes() == (
        b"#!/bin/bash\n#SBATCH --time=10\n#SBATCH --mail-user=$USER@uab.edu\nmodule load x\nsrun hostname\n")
    assert "SB207" in captured.out and "not fixed" not in captured.err
    assert "the fixes made sbatch read this line" in captured.err
