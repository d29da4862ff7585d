"""Properties of issue 24's rules: what a misspelt prefix and a swallowed option are, over many cases.

- SB202 reports a header comment `#WORD options` exactly when WORD is one edit
  (swap of neighbours, one letter replaced, dropped or added) from `SBATCH`,
  checked against a plain edit-distance written here; and its fix makes the line
  a directive.
- An option that needs a value, written last on its line with the next line an
  option, is reported once (SB251, or SB007 when a stray word follows) on the
  empty option, and the fix removes only that option: sbatch then reads the next
  line's option as written.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from slurmspec.kinds import ArgKind
from slurmspec.lint import lint_text
from slurmspec.model.catalogue.options import all_options
from slurmspec.parser.script import parse_script
from slurmspec.version import NEWEST
from tests.fix.support import fix
from tests.strategies import one_edit_of, option_lines, upper_words


def _distance(a: str, b: str) -> int:
    """Optimal string alignment distance (edits, and swaps of neighbours), by dynamic programming."""
    d = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        d[i][0] = i
    for j in range(len(b) + 1):
        d[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


def _sb202_lines(text: str) -> list[int]:
    return [d.span.line for d in lint_text(text, version=NEWEST) if d.code == "SB202"]


@given(one_edit_of(), option_lines())
def test_a_prefix_one_edit_from_sbatch_is_reported_and_fixed(word, options):
    text = f"#!/bin/bash\n#{word} {options}\n#SBATCH --account=lab\nsrun ./app\n"
    assert _sb202_lines(text) == [2]
    [finding] = [d for d in lint_text(text, version=NEWEST) if d.code == "SB202"]
    assert finding.fix is not None  # the words read cleanly and set nothing another line sets
    assert _applied(text, finding.fix).splitlines()[1] == f"#SBATCH {options}"


@given(upper_words(), option_lines())
def test_sb202_reports_a_prefix_exactly_when_it_is_one_edit_from_sbatch(word, options):
    text = f"#!/bin/bash\n#{word} {options}\n#SBATCH --account=lab\nsrun ./app\n"
    # `#SBATCHH` is no misspelling: sbatch reads `#SBATCH` and then the stray word `H` (SB007)
    expected = [2] if not word.startswith("SBATCH") and _distance(word, "SBATCH") == 1 else []
    assert _sb202_lines(text) == expected


_NEEDS_VALUE = sorted(o.long for o in all_options() if o.argument is ArgKind.REQUIRED and o.until is None
                      and not o.early_pass)


@given(st.sampled_from(_NEEDS_VALUE), option_lines(), st.booleans())
def test_an_option_without_value_is_reported_once_on_its_line_and_removed(name, following, stray):
    follow = f"{following} stray" if stray else following
    text = f"#!/bin/bash\n#SBATCH -N 1 --{name}\n#SBATCH {follow}\nsrun ./app\n"
    found = [d for d in lint_text(text, version=NEWEST) if d.code in ("SB007", "SB251")]
    [finding] = [d for d in found if d.span.line == 2]
    # sbatch stops on the word after the one the option took, if there is one
    assert finding.code == ("SB007" if len(follow.split()) > 1 else "SB251")
    assert f"--{name}" in finding.message
    assert finding.fix is not None
    fixed = _applied(text, finding.fix)
    assert fixed.splitlines()[1] == "#SBATCH -N 1"
    assert parse_script(fixed, None, NEWEST).directives[-1].line == 3  # the next line's option is read


def test_removing_an_option_without_value_reveals_what_the_next_line_then_does():
    """The next line's option, read as written once `-J` is gone, makes a second `--constraint`
    override the first (SB204): the fix is applied and that finding reported as revealed, not
    refused as one the fix caused (the fix property test found the refusal)."""
    text = "#!/bin/bash\n#SBATCH -J\n#SBATCH --constraint=ib\n#SBATCH --constraint=v100\nsrun hostname\n"
    outcome = fix(text, unsafe=False, version=(22, 5))
    assert outcome.failure is None
    assert outcome.text == "#!/bin/bash\n#SBATCH --constraint=ib\n#SBATCH --constraint=v100\nsrun hostname\n"
    assert [d.code for d in outcome.revealed] == ["SB204"]


def _applied(text: str, fix) -> str:
    for edit in sorted(fix.edits, key=lambda e: e.span.start, reverse=True):
        text = text[:edit.span.start] + edit.text + text[edit.span.end:]
    return text
