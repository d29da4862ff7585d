"""Properties of ``fix_text`` (what ``slurmspec lint --fix`` does) over generated broken-but-fixable scripts.

Written over "whatever fixes the rules offer", so every new fix is covered:

* fixing is idempotent (with and without unsafe fixes);
* the fixed text parses and round-trips exactly;
* no finding with an applicable fix is left (unless fixing failed, and then nothing changed);
* every line no edit touched is byte-identical, at its shifted place, and still a line of its own;
* no traceback on arbitrary bytes, through ``fix_text`` and through ``lint --fix -`` on standard input.
"""

from __future__ import annotations

import io
import sys

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import slurmspec
from slurmspec.cli import main
from slurmspec.fix.apply import choose
from slurmspec.kinds import Severity
from slurmspec.parser.script import decode
from slurmspec.version import DEFAULT, NEWEST, OLDEST
from tests.fix.support import RecordingLint, describe, fix
from tests.strategies import fixable_cases, fixable_scripts, script_bytes
from tests.examples import examples

VERSIONS = st.sampled_from([OLDEST, NEWEST])
SETTINGS = settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(text=fixable_scripts(), unsafe=st.booleans(), version=VERSIONS)
@example(text="#!/bin/bash\r\n#SBATCH -t 5\r\nsrun x\r\n", unsafe=False, version=NEWEST)
@example(text=" #!/bin/bash\n#SBATCH -t 5\n", unsafe=False, version=NEWEST)
@example(text="#SBATCH -t 5\nsrun x", unsafe=True, version=OLDEST)
def test_fixing_twice_is_fixing_once(text: str, unsafe: bool, version) -> None:
    once = fix(text, unsafe=unsafe, version=version)
    twice = fix(once.text, unsafe=unsafe, version=version)
    assert twice.text == once.text, describe(once) + "\n=== second run ===\n" + describe(twice)
    assert twice.failure is None or once.failure is not None, describe(twice)
    if once.failure is None:
        assert twice.applied == (), describe(twice)


@SETTINGS
@given(text=fixable_scripts(), unsafe=st.booleans(), version=VERSIONS)
def test_fixed_text_parses_and_round_trips(text: str, unsafe: bool, version) -> None:
    outcome = fix(text, unsafe=unsafe, version=version)
    assert slurmspec.parse(outcome.text, version=version).to_text() == outcome.text, describe(outcome)


@SETTINGS
@given(text=fixable_scripts(), unsafe=st.booleans(), version=VERSIONS)
@example(text="\ufeff#!/bin/bash\r\ntrue\r\n", unsafe=False, version=NEWEST)
def test_no_applicable_fix_is_left(text: str, unsafe: bool, version) -> None:
    outcome = fix(text, unsafe=unsafe, version=version)
    if outcome.failure is not None:
        assert outcome.text == outcome.original and outcome.applied == (), describe(outcome)
        return
    left = [d for d in outcome.diagnostics if d.fix is not None and d.fix.applies(unsafe)]
    assert not left, describe(outcome)
    # What remains is what the linter says about the fixed text (not a stale list).
    fresh = RecordingLint(version)(outcome.text)[1]
    assert sorted(d.sort_key for d in fresh) == sorted(d.sort_key for d in outcome.diagnostics), describe(outcome)


def test_a_byte_order_mark_before_a_directive_is_fixed() -> None:
    # The BOM hid the first line from sbatch; the shebang fix reveals its conflict with line 2 (SB125),
    # which is the user's, so the fix applies and the conflict is reported.
    outcome = fix("\ufeff#SBATCH -t 5 --mem=1G\n#SBATCH --mem-per-cpu=1G\nsrun hostname\n")
    assert outcome.failure is None, describe(outcome)
    assert outcome.text.startswith("#!/bin/bash\n#SBATCH -t 5"), describe(outcome)
    assert [d.code for d in outcome.revealed] == ["SB125"], describe(outcome)


@pytest.mark.parametrize("text", [
    "#!/bin/bash\n#sbatch --time=10\n#SBATCH -t 5\ntrue\n",  # SB202 would make a second --time count
    "#!/bin/bash\n#SBATCH -t 10\n#SBATCH -J run#1 --time=5\ntrue\n",  # SB206 would make a second --time count
    "#!/bin/bash\n#SBATCH -t 10\nsrun x\n#SBATCH -t 5\n",  # SB201 would make a second --time count
])
def test_a_fix_that_would_reveal_a_conflict_is_withheld_not_refused(text: str) -> None:
    outcome = fix(text, unsafe=True)
    assert outcome.failure is None and outcome.text == text, describe(outcome)


@SETTINGS
@given(case=fixable_cases(), unsafe=st.booleans(), version=VERSIONS)
# A near-miss `#SBATCh --time=10` that the unsafe SB202 fix makes count, then SB110 respelling
# `--time-min=1h`: the respelt value is longer than that `--time` (SB123), which it always was.
@example(case=("#!/bin/bash\n#SBATCh --time=10\n#SBATCH --time-min=1h\nsrun hostname\n", ("near-miss",)),
         unsafe=True, version=OLDEST)
def test_generated_fixable_scripts_never_fail_to_fix(case, unsafe: bool, version) -> None:
    """A fix loop failure is a bug in some rule's fix: the generated problems must all be fixable."""
    text, kinds = case
    outcome = fix(text, unsafe=unsafe, version=version)
    assert outcome.failure is None, f"mutations {kinds}\n" + describe(outcome)
    offered = [d for d in RecordingLint(version)(text)[1] if d.fix is not None and d.fix.applies(unsafe)]
    assert outcome.changed == bool(offered), f"mutations {kinds}\n" + describe(outcome)


# ------------------------------------------------------------ untouched lines
def _lines(text: str) -> list[tuple[int, int]]:
    """(start, end) of every line, the end past its ``\\n`` (only ``\\n`` ends a line, as for sbatch)."""
    spans, start = [], 0
    while start < len(text):
        nl = text.find("\n", start)
        end = len(text) if nl == -1 else nl + 1
        spans.append((start, end))
        start = end
    return spans


def _splice(text: str, edits) -> str:
    out, at = [], 0
    for edit in sorted(edits, key=lambda e: (e.span.start, e.span.end)):
        assert edit.span.start >= at, f"overlapping edits were chosen: {edits}"
        out += [text[at:edit.span.start], edit.text]
        at = edit.span.end
    return "".join(out) + text[at:]


def _touches(edit, start: int, end: int) -> bool:
    """The edit changes bytes of the line [start, end): it replaces some of them, or inserts inside it."""
    s, e = edit.span.start, edit.span.end
    if s == e:
        return start < s < end
    return s < end and start < e


def check_untouched_lines(before: str, after: str, edits) -> None:
    """Every line of ``before`` that no edit touches is in ``after`` byte for byte, shifted by the
    edits in front of it, and still starts a line there (an insertion glued to it would break it)."""
    for start, end in _lines(before):
        if any(_touches(edit, start, end) for edit in edits):
            continue
        shift = sum(len(e.text) - (e.span.end - e.span.start) for e in edits if e.span.end <= start)
        at = start + shift
        assert after[at:at + end - start] == before[start:end], (
            f"untouched line {before[start:end]!r} changed in\n{before!r}\n->\n{after!r}\nedits: {edits}")
        assert at == 0 or after[at - 1] == "\n", (
            f"untouched line {before[start:end]!r} no longer starts a line in {after!r}; edits: {edits}")


@SETTINGS
@given(text=fixable_scripts(), unsafe=st.booleans(), version=VERSIONS)
@example(text="echo hi\n#SBATCH -t 5\r\n", unsafe=True, version=OLDEST)
def test_lines_no_edit_touched_are_byte_identical(text: str, unsafe: bool, version) -> None:
    lint = RecordingLint(version)
    from slurmspec.fix.loop import fix_text

    outcome = fix_text(decode(text)[0], lint, unsafe=unsafe)
    if outcome.failure is not None:
        assert outcome.text == outcome.original
        return
    # Replay the rounds: each round's fixes, spliced into the text it started from, give the next round's text.
    replayed = []
    texts = [before for before, _ in outcome.steps] + [outcome.text]
    for (before, chosen), after in zip(outcome.steps, texts[1:]):
        found = lint(before)[1]
        replayed += [(d.code, d.fix.title) for d in found if d.fix is not None and d.fix in chosen]
        edits = [edit for f in chosen for edit in f.edits]
        assert edits, describe(outcome)
        spliced = _splice(before, edits)
        assert spliced == after, describe(outcome)
        assert lint(spliced)[0] == spliced, "a fixed text did not round-trip through the parser\n" + describe(outcome)
        check_untouched_lines(before, spliced, edits)
    # What the user is told was fixed is what the rounds applied.
    assert sorted(replayed) == sorted((a.code, a.title) for a in outcome.applied), describe(outcome)


def test_untouched_line_check_can_fail() -> None:
    """The check above notices a change outside the edits and an insertion glued to the next line."""
    from slurmspec.fix.edit import Edit
    from slurmspec.span import Span

    def at(start: int, end: int) -> Span:
        return Span(start, end, 1, 1, 1, 1)

    before = "#SBATCH -t 5\nsrun x\n"
    check_untouched_lines(before, "#!/bin/bash\n" + before, [Edit(at(0, 0), "#!/bin/bash\n")])
    with pytest.raises(AssertionError, match="no longer starts a line"):
        check_untouched_lines(before, "#!/bin/bash" + before, [Edit(at(0, 0), "#!/bin/bash")])
    with pytest.raises(AssertionError, match="changed"):
        check_untouched_lines(before, "#SBATCH -t 6\nsrun y\n", [Edit(at(11, 12), "6")])


# ------------------------------------------------------------ never a traceback
@settings(max_examples=examples(300), deadline=None)
@given(data=st.one_of(st.binary(max_size=300), script_bytes), unsafe=st.booleans())
def test_fix_text_never_raises(data: bytes, unsafe: bool) -> None:
    outcome = fix(data, unsafe=unsafe)
    assert isinstance(outcome.text, str)


class _Stdio:
    """Swap sys.stdin/stdout/stderr for byte buffers (a function-scoped capsys would not reset per example)."""

    def __init__(self, data: bytes) -> None:
        self.stdin = io.TextIOWrapper(io.BytesIO(data))
        self.stdout = io.TextIOWrapper(io.BytesIO(), write_through=True)
        self.stderr = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace", write_through=True)

    def __enter__(self) -> "_Stdio":
        self.saved = sys.stdin, sys.stdout, sys.stderr
        sys.stdin, sys.stdout, sys.stderr = self.stdin, self.stdout, self.stderr
        return self

    def __exit__(self, *exc) -> None:
        sys.stdin, sys.stdout, sys.stderr = self.saved


@settings(max_examples=examples(200), deadline=None)
@given(data=st.one_of(st.binary(max_size=300), script_bytes,
                      fixable_scripts().map(lambda t: t.encode("utf-8", "surrogateescape"))),
       unsafe=st.booleans())
def test_cli_fix_on_stdin_never_raises(data: bytes, unsafe: bool) -> None:
    with _Stdio(data) as stdio:
        # The library's `fix` targets the newest release; so must the CLI (not an installed sbatch's).
        # ... and every rule, as the library's `fix` runs them (the CLI's default selection is fewer).
        code = main(["lint", "--no-config", "--select", "ALL", "--slurm-version", DEFAULT, "--fix",
                     *(["--unsafe-fixes"] if unsafe else []), "-"])
    printed = stdio.stdout.buffer.getvalue()
    errors = stdio.stderr.buffer.getvalue().decode()
    outcome = fix(data, unsafe=unsafe)
    assert "Traceback" not in errors
    if outcome.failure is None:
        failing = any(d.severity.rank >= Severity.WARNING.rank for d in outcome.diagnostics)
        assert code == (1 if failing else 0), errors
    else:  # a fix loop failure is an error (exit 2) that names the rule; the script is printed unchanged
        assert code == 2 and "not fixed" in errors, errors
    # Standard output carries exactly the fixed script, nothing else.
    assert printed == outcome.text.encode("utf-8", "surrogateescape"), errors


# ------------------------------------------------------------ what a "line" of the body is
@pytest.mark.parametrize("text", [
    # here-documents are data: left alone (passes)
    "#!/bin/bash\n#SBATCH -N 1\ncat > sub.sh <<EOF\n#!/bin/bash\n#SBATCH -t 5\nsrun x\nEOF\nsbatch sub.sh\n",
    # and so are multi-line quoted strings (SB201 used to move these lines out of them)
    '#!/bin/bash\n#SBATCH -N 1\necho "\n#SBATCH -t 5\n" > notes.txt\n',
    "#!/bin/bash\n#SBATCH -N 1\npython -c '\n#SBATCH -t 5\nprint(1)\n'\n",
])
def test_a_directive_look_alike_inside_shell_data_is_not_moved(text: str) -> None:
    outcome = fix(text, unsafe=True)
    assert outcome.text == text, describe(outcome)
