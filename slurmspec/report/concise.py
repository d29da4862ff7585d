"""One line per finding, ``path:line:col: CODE message``: for pipes, editors' problem matchers and grep.

The default when standard output is not a terminal (as ruff's ``concise``).
No rich: colour, when asked for, is three plain ANSI sequences.
"""

from __future__ import annotations

from typing import IO, Iterable

from slurmspec.lint.diagnostic import Diagnostic

_BOLD, _RESET = "\x1b[1m", "\x1b[0m"
_SEVERITY = {"error": "\x1b[1;31m", "warning": "\x1b[1;33m", "info": "\x1b[1;34m"}


def _one_line(text: str) -> str:
    # A message quotes user text; a newline in it would split one finding into two lines.
    return text.replace("\r", "\\r").replace("\n", "\\n")


def concise_line(diagnostic: Diagnostic, color: bool = False) -> str:
    span = diagnostic.span
    where = f"{diagnostic.path or '<stdin>'}:{span.line}:{span.column}:"
    message = _one_line(diagnostic.message)
    if not color:
        return f"{where} {diagnostic.code} {message}"
    return f"{_BOLD}{where}{_RESET} {_SEVERITY[diagnostic.severity]}{diagnostic.code}{_RESET} {message}"


def summary(total: int) -> str:
    return f"Found {total} problem{'s' if total != 1 else ''}." if total else ""


def write_concise(results: Iterable[tuple], out: IO[str], *, color: bool = False, quiet: bool = False) -> None:
    total = 0
    for _, diagnostics in results:
        for diagnostic in diagnostics:
            total += 1
            out.write(concise_line(diagnostic, color) + "\n")
    if total and not quiet:
        out.write(summary(total) + "\n")
