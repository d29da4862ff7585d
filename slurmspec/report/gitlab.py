"""GitLab Code Quality report: a JSON array of issues (a subset of the Code Climate spec).

GitLab needs ``description``, ``check_name``, ``fingerprint``, ``severity``
and ``location.path`` with ``location.lines.begin``; it shows the findings in
merge requests when the file is an ``artifacts:reports:codequality``.
``fingerprint`` must be unique and stable across pipelines, so it hashes the
path, code, message and the text of the line, never the line number: adding a
line above a finding does not make GitLab call it a new one.
"""

from __future__ import annotations

import hashlib
import json
from typing import IO, Any, Iterable

from slurmspec.lint.diagnostic import Diagnostic

# Code Climate severities: info, minor, major, critical, blocker.
SEVERITY = {"error": "major", "warning": "minor", "info": "info"}


def _line_text(script, line: int) -> str:
    if script is None or line > script.index.line_count:
        return ""
    return script.physical_line(line)


def issues(results: Iterable[tuple]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for script, diagnostics in results:
        for diagnostic in diagnostics:
            found.append(_issue(diagnostic, _line_text(script, diagnostic.span.line), seen))
    return found


def _issue(diagnostic: Diagnostic, line_text: str, seen: dict[str, int]) -> dict[str, Any]:
    path = diagnostic.path or "<stdin>"
    key = "\0".join((path, diagnostic.code, diagnostic.message, line_text.strip()))
    # Identical findings on identical lines stay distinct by their order.
    repeat = seen.get(key, 0)
    seen[key] = repeat + 1
    fingerprint = hashlib.sha256(f"{key}\0{repeat}".encode("utf-8", "surrogatepass")).hexdigest()
    span = diagnostic.span
    return {
        "description": f"{diagnostic.code} {diagnostic.message}",
        "check_name": f"{diagnostic.code} {diagnostic.name}",
        "fingerprint": fingerprint,
        "severity": SEVERITY[diagnostic.severity],
        "location": {"path": path, "lines": {"begin": span.line, "end": span.end_line}},
    }


def write_gitlab(results: Iterable[tuple], out: IO[str]) -> None:
    json.dump(issues(results), out, indent=2, ensure_ascii=False)
    out.write("\n")
