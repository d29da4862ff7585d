"""GitHub Actions workflow commands: each finding becomes an annotation on the pull request's diff.

    ::error file=job.sbatch,line=3,col=9,endLine=3,endColumn=14,title=SB004 (ambiguous-option)::message

GitHub has three annotation levels; ``info`` maps to ``notice``. Values are
escaped as the Actions runner expects (``%``, CR, LF in the message; also
``:`` and ``,`` in properties), otherwise a ``,`` in a path or a newline in a
message would cut the command short.
"""

from __future__ import annotations

from typing import IO, Iterable

from slurmspec.diagnostic import Diagnostic
from slurmspec.printable import printable

LEVELS = {"error": "error", "warning": "warning", "info": "notice"}


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(diagnostic: Diagnostic) -> str:
    span = diagnostic.span
    properties = [
        ("file", printable(diagnostic.path or "<stdin>")),
        ("line", span.line), ("col", span.column),
        ("endLine", span.end_line), ("endColumn", span.end_column),
        ("title", f"{diagnostic.code} ({diagnostic.name})"),
    ]
    joined = ",".join(f"{key}={_property(str(value))}" for key, value in properties)
    return f"::{LEVELS[diagnostic.severity]} {joined}::{_data(printable(diagnostic.message))}"


def write_github(results: Iterable[tuple], out: IO[str]) -> None:
    for _, diagnostics in results:
        for diagnostic in diagnostics:
            out.write(annotation(diagnostic) + "\n")
