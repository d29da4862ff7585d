"""Fix a script in rounds until nothing changes, and refuse any result that is worse.

One round: lint, take the applicable fixes, keep the ones whose edits do not
touch (``apply.choose``), splice them in, re-parse and re-lint. Fixes that
clashed are offered again by the next round's lint. The rounds stop when no
applicable fix is left; after ``MAX_ROUNDS`` the fixes are said not to converge.

The result is refused, and the script left as it was, when a fix introduces
a finding: a code is reported (at warning or error severity) more often after
the fixes than before them, and the fix that did it wrote text of its own.
That covers a fix that breaks the parse (the parse family is findings too)
and a fix that trades one problem for another. The rules whose fixes did it
are named, so the user can report the bug and fall back to ``--ignore``.

A fix marked ``reveals`` only makes sbatch read text the user wrote (a late
directive moved into the header, a byte order mark replaced by a shebang), or
spells a value the user wrote, which sbatch refused, the one way it reads it
(`--time-min=1h` as `1:00:00`): a finding that appears with it (that time is
longer than `--time`) was in the script all along, so the fix is
applied and the finding reported (``FixOutcome.revealed``), as ruff reports
what remains after its fixes.
"""

from __future__ import annotations

from collections import Counter
from typing import Callable, Sequence

import attrs

from slurmspec.fix.apply import apply_edits, choose
from slurmspec.fix.edit import Fix
from slurmspec.frozen import frozen
from slurmspec.kinds import Severity
from slurmspec.diagnostic import Diagnostic

MAX_ROUNDS = 20

# text -> (text as parsed and re-rendered, diagnostics)
Linter = Callable[[str], tuple[str, list[Diagnostic]]]


@frozen(kw_only=True)
class Applied:
    code: str
    name: str
    title: str


@frozen(kw_only=True)
class FixOutcome:
    original: str
    text: str  # the fixed text; equal to ``original`` when nothing changed or fixing failed
    applied: tuple[Applied, ...]
    diagnostics: tuple[Diagnostic, ...]  # what remains (the original findings when fixing failed)
    failure: str | None = None  # why the fixes were not applied
    revealed: tuple[Diagnostic, ...] = ()  # findings that fixes marked `reveals` brought to light
    steps: tuple[tuple[str, tuple[Fix, ...]], ...] = ()  # each round: the text it fixed, the fixes it applied

    @property
    def changed(self) -> bool:
        return self.text != self.original


def _added(before: Sequence[Diagnostic], after: Sequence[Diagnostic]) -> list[str]:
    """Codes reported more often after than before, at warning or error severity.

    Info findings are advice, and a fix can rightly make some apply: a directive
    moved into the header is read, so the job now has directives but no `--time`
    (SB341). Warnings and errors that appear mean the fix made the script worse.
    """
    old = Counter(d.code for d in before if d.severity is not Severity.INFO)
    new = Counter(d.code for d in after if d.severity is not Severity.INFO)
    return sorted(code for code, count in new.items() if count > old[code])


def _owners(fixes: Sequence[Fix], found: Sequence[Diagnostic]) -> list[Diagnostic]:
    """The findings that offered these fixes (several findings may share one fix)."""
    return [d for d in found if d.fix is not None and d.fix in fixes]


def _culprits(text: str, chosen: list[Fix], found: list[Diagnostic], lint: Linter) -> list[tuple[Fix, list[str]]]:
    """The fixes that, applied one at a time, add findings, with the codes each adds.

    Empty when no fix adds anything alone (the round's fixes only do it together).
    """
    culprits = []
    for fix in chosen:
        _, alone = lint(apply_edits(text, fix.edits))
        added = _added(found, alone)
        if added:
            culprits.append((fix, added))
    return culprits


def _blame(culprits: list[tuple[Fix, list[str]]], chosen: list[Fix], found: list[Diagnostic]) -> str:
    """Which rules' fixes add findings (or all of them, if only together)."""
    named = []
    for fix, added in culprits:
        owner = _owners([fix], found)[0]
        named.append(f"{owner.code} ({owner.name}) fix {fix.title!r} adds {', '.join(added)}")
    if named:
        return "; ".join(named)
    owners = sorted({f"{d.code} ({d.name})" for d in _owners(chosen, found)})
    return f"the fixes of {', '.join(owners)} together add findings"


def fix_text(text: str, lint: Linter, *, unsafe: bool = False) -> FixOutcome:
    """Apply safe (and with ``unsafe``, unsafe) fixes to ``text`` in rounds; see the module doc."""
    current, found = lint(text)
    original_found = tuple(found)
    applied: list[Applied] = []
    rounds: list[tuple[str, list[Diagnostic], list[Fix], list[Diagnostic]]] = []
    for _ in range(MAX_ROUNDS):
        candidates = [d.fix for d in found if d.fix is not None and d.fix.applies(unsafe)]
        if not candidates:
            break
        chosen = choose(candidates)
        try:
            new_text, new_found = lint(apply_edits(current, (e for fix in chosen for e in fix.edits)))
            if len(chosen) > 1 and _added(found, new_found):
                # Fixes right alone can clash in meaning (a respelt `--time` and an escaped `#` that
                # reveals another `--time`): take one per round then, a revealing one first, so the
                # next round's rules see what it revealed and withhold what no longer fits.
                chosen = [min(chosen, key=lambda fix: not fix.reveals)]
                new_text, new_found = lint(apply_edits(current, chosen[0].edits))
        except Exception as exc:  # a rule's edit that cannot be applied is that rule's bug
            return _failed(text, original_found, f"applying the fixes of {_codes(chosen, found)} failed: {exc}")
        if new_text == current:
            return _failed(text, original_found, f"the fixes of {_codes(chosen, found)} change nothing"
                                                 " but are still offered")
        applied.extend(Applied(code=d.code, name=d.name, title=d.fix.title) for d in _owners(chosen, found))
        rounds.append((current, found, chosen, new_found))
        current, found = new_text, new_found
    else:
        still = [d.fix for d in found if d.fix is not None and d.fix.applies(unsafe)]
        if still:
            return _failed(text, original_found, f"the fixes of {_codes(still, found)} did not settle"
                                                 f" after {MAX_ROUNDS} rounds")
    # A fix may reveal a finding that a later round fixes (adding `#!` makes late
    # directives count, and the next round moves them): only the end result is judged.
    added = set(_added(original_found, found))
    for before, before_found, chosen, after_found in rounds:
        if not set(_added(before_found, after_found)) & added:
            continue
        culprits = _culprits(before, chosen, before_found, lint)
        if not all(fix.reveals for fix in ([fix for fix, _ in culprits] or chosen)):
            return _failed(text, original_found, _blame(culprits, chosen, before_found))
    revealed = tuple(d for d in found if d.code in added and d.severity is not Severity.INFO)
    return FixOutcome(original=text, text=current, applied=tuple(applied), diagnostics=tuple(found),
                      revealed=revealed, steps=tuple((before, tuple(chosen)) for before, _, chosen, _ in rounds))


def _codes(fixes: Sequence[Fix], found: Sequence[Diagnostic]) -> str:
    return ", ".join(sorted({d.code for d in _owners(fixes, found)}))


def _failed(text: str, found: tuple[Diagnostic, ...], why: str) -> FixOutcome:
    return FixOutcome(original=text, text=text, applied=(), diagnostics=found, failure=why)
