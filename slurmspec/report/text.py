"""Human output: ``path:line:col: CODE severity: message`` plus a source snippet with a caret.

Built from ``rich.text.Text`` objects only, never from markup strings, because
Slurm values are full of square brackets (``--constraint=[a|b]``,
``node[01-04]``) that rich markup would silently eat.
"""

from __future__ import annotations

from typing import IO, Iterable

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from slurmspec.lint.diagnostic import Diagnostic
from slurmspec.model.script import Script
from slurmspec.report.excerpt import Excerpt, line_of

_SEVERITY_STYLE = {"error": "bold red", "warning": "bold yellow", "info": "bold blue"}

# Characters that would garble a terminal are shown as visible one-cell stand-ins.
_VISIBLE = str.maketrans({"\t": " ", "\r": "␍", "\0": "␀", "\v": "␋", "\f": "␌", "\x1b": "␛"})


def _printable(text: str) -> str:
    text = text.translate(_VISIBLE)
    if any("\udc80" <= ch <= "\udcff" or ch < " " for ch in text):
        text = "".join(
            "\ufffd" if "\udc80" <= ch <= "\udcff" else ("?" if ch < " " else ch) for ch in text
        )
    return text


def _snippet(diagnostic: Diagnostic, script: Script | Excerpt | None) -> list[Text]:
    span = diagnostic.span
    line_text = line_of(script, span.line, diagnostic.path)
    if line_text is None:
        return []
    display = _printable(line_text)
    gutter = str(span.line)
    pad = " " * len(gutter)
    column = span.column - 1
    if span.end_line == span.line:
        width = max(1, span.end_column - span.column)
    else:
        width = max(1, len(line_text) - column)
    lead = cell_len(display[:column])
    marks = cell_len(display[column:column + width]) or 1
    bar = Text(f"{pad} |", style="blue")
    source = Text.assemble((f"{gutter} | ", "blue"), display)
    caret = Text.assemble((f"{pad} | ", "blue"), " " * lead, ("^" + "~" * (marks - 1), _SEVERITY_STYLE[diagnostic.severity]))
    return [bar, source, caret]


def render(diagnostic: Diagnostic, script: Script | Excerpt | None) -> list[Text]:
    span = diagnostic.span
    head = Text.assemble(
        (f"{diagnostic.path or '<stdin>'}:{span.line}:{span.column}: ", "bold"),
        (diagnostic.code, "bold"),
        " ",
        (f"{diagnostic.severity}:", _SEVERITY_STYLE[diagnostic.severity]),
        " ",
        diagnostic.message,
        (f" [{diagnostic.name}]", "dim"),
    )
    lines = [head, *_snippet(diagnostic, script)]
    for note in diagnostic.notes:
        lines.append(Text.assemble(("  = note: ", "bold"), note))
    return lines


def make_console(out: IO[str], color: bool | None = None) -> Console:
    # highlight=False: rich must not restyle numbers or paths inside user text.
    return Console(file=out, highlight=False, soft_wrap=True, force_terminal=color, no_color=(color is False) or None, emoji=False)


def write_text(
    results: Iterable[tuple[Script | Excerpt | None, list[Diagnostic]]], out: IO[str],
    color: bool | None = None, quiet: bool = False,
) -> None:
    from slurmspec.report.concise import Tally, summary

    console = make_console(out, color)
    tally = Tally()
    for script, diagnostics in results:
        for diagnostic in diagnostics:
            tally.add(diagnostic)
            for line in render(diagnostic, script):
                console.print(line)
            console.print()
    if not quiet:
        for index, line in enumerate(summary(tally)):
            console.print(Text(line, style="bold" if index == 0 else ""))
