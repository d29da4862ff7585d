"""JSON output, format version 1 (documented in docs/output-formats.md; no rich import on this path).

    {"version": 1, "diagnostics": [{"path": ..., "code": ..., ..., "url": ...}, ...]}

``version`` changes only when a field is removed or changes meaning; new
fields may appear within a version, so consumers should ignore unknown keys.
"""

from __future__ import annotations

import json
from typing import IO, Any, Iterable

from slurmspec.lint.diagnostic import Diagnostic
from slurmspec.report.links import rule_url

JSON_VERSION = 1


def diagnostic_dict(diagnostic: Diagnostic) -> dict[str, Any]:
    return {**diagnostic.to_dict(), "url": rule_url(diagnostic.code, diagnostic.name)}


def report_dict(results: Iterable[tuple]) -> dict[str, Any]:
    return {
        "version": JSON_VERSION,
        "diagnostics": [diagnostic_dict(d) for _, found in results for d in found],
    }


def write_json(results: Iterable[tuple], out: IO[str]) -> None:
    """``report_dict`` as ``json.dump(indent=2)`` writes it, one finding at a time as the results come."""
    write_json_array(
        (diagnostic_dict(d) for _, found in results for d in found), out,
        opening=f'{{\n  "version": {JSON_VERSION},\n  "diagnostics": ', depth=1,
    )
    out.write("\n}\n")


def write_json_array(items: Iterable[Any], out: IO[str], *, opening: str = "", depth: int = 0) -> None:
    """A JSON array nested ``depth`` levels deep, byte for byte as ``json.dump(..., indent=2,
    ensure_ascii=False)`` writes it inside its document, without holding the items.

    Nothing is written before the first item is ready (or the array turns out empty), so a run
    that stops on an error before any result has printed nothing.
    """
    outer = "\n" + "  " * depth
    inner = outer + "  "
    started = False
    for item in items:
        out.write(f"{opening}[{inner}" if not started else f",{inner}")
        out.write(json.dumps(item, indent=2, ensure_ascii=False).replace("\n", inner))
        started = True
    out.write(f"{outer}]" if started else f"{opening}[]")
