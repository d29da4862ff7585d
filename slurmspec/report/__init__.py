"""Output formats for ``slurmspec lint``: one writer per format, imported only when used.

Every writer takes ``[(script, diagnostics), ...]`` in file order and a text
stream. The JSON path must never import rich (it is the fast path for tools).
"""

from __future__ import annotations

from typing import IO, Sequence

FORMATS = ("text", "json")


def write_report(format: str, results: Sequence[tuple], out: IO[str]) -> None:
    if format == "json":
        from slurmspec.report.json import write_json

        write_json([d for _, found in results for d in found], out)
    else:
        from slurmspec.report.text import write_text

        write_text(list(results), out)
