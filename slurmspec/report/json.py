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
    json.dump(report_dict(results), out, indent=2, ensure_ascii=False)
    out.write("\n")
