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


def _snippet(diagnostic: Diagnostic, script: Script | None) -> list[Text]:
    if script is None:
        return []
    span = diagnostic.span
    index = script.index
    if span.line > index.line_count:
        return []
    line_text = script.physical_line(span.line)
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


def render(diagnostic: Diagnostic, script: Script | None) -> list[Text]:
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
    results: Iterable[tuple[Script | None, list[Diagnostic]]], out: IO[str],
    color: bool | None = None, quiet: bool = False,
) -> None:
    from slurmspec.report.concise import summary

    console = make_console(out, color)
    found: list[Diagnostic] = []
    for script, diagnostics in results:
        for diagnostic in diagnostics:
            found.append(diagnostic)
            for line in render(diagnostic, script):
                console.print(line)
            console.print()
    if not quiet:
        for index, line in enumerate(summary(found)):
            console.print(Text(line, style="bold" if index == 0 else ""))
