"""GitLab Code Quality report: a JSON array of issues (a subset of the Code Climate spec).

GitLab needs ``description``, ``check_name``, ``fingerprint``, ``severity``
and ``location.path`` with ``location.lines.begin``; it shows the findings in
merge requests when the file is an ``artifacts:reports:codequality``.
``fingerprint`` must be unique and stable across pipelines, so it hashes the
path, code, message and the text of the line, never the line number: adding a
line above a finding does not make GitLab call it a new one. Identical
findings on identical lines are numbered in their file; a file named twice in
one run numbers its second report apart (the report streams, so it keeps no
finding of a file once the next file starts).
"""

from __future__ import annotations

import hashlib
from typing import IO, Any, Iterable, Iterator

from slurmspec.diagnostic import Diagnostic
from slurmspec.printable import printable
from slurmspec.report.excerpt import line_of
from slurmspec.report.json import write_json_array

# Code Climate severities: info, minor, major, critical, blocker.
SEVERITY = {"error": "major", "warning": "minor", "info": "info"}


def issues(results: Iterable[tuple]) -> list[dict[str, Any]]:
    return list(_issues(results))


def _issues(results: Iterable[tuple]) -> Iterator[dict[str, Any]]:
    reports_of: dict[str, int] = {}  # path -> how many files' reports named it so far
    for script, diagnostics in results:
        seen: dict[str, int] = {}
        report_of: dict[str, int] = {}
        for diagnostic in diagnostics:
            path = diagnostic.path or "<stdin>"
            if path not in report_of:
                report_of[path] = reports_of.get(path, 0)
                reports_of[path] = report_of[path] + 1
            yield _issue(diagnostic, line_of(script, diagnostic.span.line, diagnostic.path) or "", seen, report_of[path])


def _issue(diagnostic: Diagnostic, line_text: str, seen: dict[str, int], report: int = 0) -> dict[str, Any]:
    path = diagnostic.path or "<stdin>"
    key = "\0".join((path, diagnostic.code, diagnostic.message, line_text.strip()))
    # Identical findings on identical lines stay distinct by their order.
    repeat = seen.get(key, 0)
    seen[key] = repeat + 1
    salt = f"\0{report}" if report else ""
    fingerprint = hashlib.sha256(f"{key}\0{repeat}{salt}".encode("utf-8", "surrogatepass")).hexdigest()
    span = diagnostic.span
    return {
        "description": f"{diagnostic.code} {printable(diagnostic.message)}",
        "check_name": f"{diagnostic.code} {diagnostic.name}",
        "fingerprint": fingerprint,
        "severity": SEVERITY[diagnostic.severity],
        "location": {"path": printable(path), "lines": {"begin": span.line, "end": span.end_line}},
    }


def write_gitlab(results: Iterable[tuple], out: IO[str]) -> None:
    write_json_array(_issues(results), out)
    out.write("\n")
