"""One line per finding, ``path:line:col: CODE message``: for pipes, editors' problem matchers and grep.

The default when standard output is not a terminal (as ruff's ``concise``).
No rich: colour, when asked for, is plain ANSI sequences (``report/ansi.py``).
"""

from __future__ import annotations

from typing import IO, Callable, Iterable

from slurmspec.diagnostic import Diagnostic
from slurmspec.printable import printable
from slurmspec.report.ansi import SEVERITY_STYLE, paint
from slurmspec.report.targets import Target, target_lines


def concise_line(diagnostic: Diagnostic, color: bool = False) -> str:
    span = diagnostic.span
    # A message quotes user text: a line break in it would split one finding into two lines.
    where = f"{printable(diagnostic.path or '<stdin>')}:{span.line}:{span.column}:"
    message = printable(diagnostic.message)
    if not color:
        return f"{where} {diagnostic.code} {message}"
    return f"{paint(where, 'bold', True)} {paint(diagnostic.code, SEVERITY_STYLE[diagnostic.severity], True)} {message}"


class Tally:
    """How many findings a report showed, and how many of them the fixes can fix (for ``summary``).

    Counted as the findings stream by, so a report never keeps them all.
    """

    __slots__ = ("found", "safe", "unsafe")

    def __init__(self) -> None:
        self.found = self.safe = self.unsafe = 0

    def add(self, diagnostic: Diagnostic) -> None:
        self.found += 1
        fix = diagnostic.fix
        if fix is not None:
            if fix.applies(unsafe=False):
                self.safe += 1
            elif fix.applies(unsafe=True):
                self.unsafe += 1


INCOMPLETE = "No problems found in what was checked, but the run is incomplete (errors on standard error)."


def summary(found: Iterable[Diagnostic] | Tally, targets: Iterable[Target] = (), incomplete: bool = False) -> list[str]:
    """``Found N problems.``, then how many ``--fix`` (and ``--unsafe-fixes``) would fix, as ruff says it;
    ``All checks passed!`` when nothing was found (silence would not tell a clean file from no file),
    unless the run was ``incomplete`` (a path could not be read, a rule failed: the CLI names each on
    standard error and exits 2), which must never read as a pass;
    then the releases judged that the user did not choose (``report/targets.py``)."""
    if not isinstance(found, Tally):
        tally = Tally()
        for diagnostic in found:
            tally.add(diagnostic)
        found = tally
    if not found.found:
        verdict = INCOMPLETE if incomplete else "All checks passed!"
        return [verdict, *target_lines(targets)]
    lines = [f"Found {found.found} problem{'s' if found.found != 1 else ''}."]
    safe, unsafe = found.safe, found.unsafe
    if safe:
        more = f" ({unsafe} more with `--fix --unsafe-fixes`)" if unsafe else ""
        lines.append(f"[*] {safe} fixable with `--fix`{more}.")
    elif unsafe:
        lines.append(f"{unsafe} fixable with `--fix --unsafe-fixes` (review them first: `--diff --unsafe-fixes`).")
    return [*lines, *target_lines(targets)]


def write_concise(results: Iterable[tuple], out: IO[str], *, color: bool = False, quiet: bool = False,
                  targets: Iterable[Target] = (), incomplete: Callable[[], bool] = bool) -> None:
    """One line per finding, then the summary; ``incomplete`` is asked once every result was read."""
    tally = Tally()
    for _, diagnostics in results:
        for diagnostic in diagnostics:
            tally.add(diagnostic)
            out.write(concise_line(diagnostic, color) + "\n")
    if not quiet:
        for line in summary(tally, targets, incomplete()):
            out.write(line + "\n")
