"""Human output: ``path:line:col: CODE severity: message`` plus a source snippet with a caret.

Plain strings with ANSI styles when colour is on (``report/ansi.py``), never
markup: Slurm values are full of square brackets (``--constraint=[a|b]``,
``node[01-04]``) that a markup parser would silently eat.
"""

from __future__ import annotations

from typing import IO, Callable, Iterable

from slurmspec.diagnostic import Diagnostic
from slurmspec.model.syntax.script import Script
from slurmspec.printable import printable
from slurmspec.report.ansi import SEVERITY_STYLE, cell_width, paint
from slurmspec.report.excerpt import Excerpt, line_of

def _snippet(diagnostic: Diagnostic, script: Script | Excerpt | None, color: bool) -> list[str]:
    span = diagnostic.span
    line_text = line_of(script, span.line, diagnostic.path)
    if line_text is None:
        return []
    # A tab is one space here, so the caret below counts the same cells as the line above it.
    line_text = line_text.replace("\t", " ")
    display = printable(line_text)
    gutter = str(span.line)
    pad = " " * len(gutter)
    column = span.column - 1
    if span.end_line == span.line:
        width = max(1, span.end_column - span.column)
    else:
        width = max(1, len(line_text) - column)
    # Measured on the shown text: a stand-in such as `\xff` takes more cells than the byte it shows.
    lead = cell_width(printable(line_text[:column]))
    marks = cell_width(printable(line_text[column:column + width])) or 1
    bar = paint(f"{pad} |", "blue", color)
    source = paint(f"{gutter} | ", "blue", color) + display
    caret = paint(f"{pad} | ", "blue", color) + " " * lead + paint(
        "^" + "~" * (marks - 1), SEVERITY_STYLE[diagnostic.severity], color)
    return [bar, source, caret]


def render(diagnostic: Diagnostic, script: Script | Excerpt | None, color: bool = False) -> list[str]:
    """The finding's lines (without line ends): its heading, the source line with a caret, its notes."""
    span = diagnostic.span
    head = (
        paint(f"{printable(diagnostic.path or '<stdin>')}:{span.line}:{span.column}: ", "bold", color)
        + paint(diagnostic.code, "bold", color) + " "
        + paint(f"{diagnostic.severity}:", SEVERITY_STYLE[diagnostic.severity], color) + " "
        + printable(diagnostic.message)
        + paint(f" [{diagnostic.name}]", "dim", color)
    )
    lines = [head, *_snippet(diagnostic, script, color)]
    for note in diagnostic.notes:
        lines.append(paint("  = note: ", "bold", color) + printable(note))
    return lines


def write_text(
    results: Iterable[tuple[Script | Excerpt | None, list[Diagnostic]]], out: IO[str],
    color: bool | None = None, quiet: bool = False, targets: Iterable = (), incomplete: Callable[[], bool] = bool,
) -> None:
    from slurmspec.report.concise import Tally, summary

    color = bool(color)
    tally = Tally()
    for script, diagnostics in results:
        for diagnostic in diagnostics:
            tally.add(diagnostic)
            out.write("\n".join(render(diagnostic, script, color)) + "\n\n")
    if not quiet:
        for index, line in enumerate(summary(tally, targets, incomplete())):
            out.write(paint(line, "bold" if index == 0 else "", color) + "\n")
