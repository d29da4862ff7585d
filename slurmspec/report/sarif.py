"""SARIF 2.1.0 (OASIS), the format GitHub code scanning and most CI dashboards read.

One run, with each rule that has a finding in ``tool.driver.rules`` (id,
name, short and full description, ``helpUri`` into docs/rules.md, default
level; ShellCheck codes link to the ShellCheck wiki). Only the rules that
occur: the full registry would add ~270 KB of documentation to every report. Columns count Unicode code
points, as slurmspec's spans do, and the run says so (``columnKind``):
SARIF's default is UTF-16 code units, which differ after an astral character.
``endColumn`` is exclusive in both. ``tests/report/test_sarif.py`` validates the
output against the vendored OASIS schema. Messages and fix descriptions are
shown text (``slurmspec.printable``); a URI carries the file name's bytes
percent-encoded, so a name that is not UTF-8 still names its file.
"""

from __future__ import annotations

import json
import os
from typing import IO, Any, Iterable
from urllib.parse import quote

from slurmspec.kinds import Applicability
from slurmspec.diagnostic import Diagnostic
from slurmspec.printable import printable
from slurmspec.report.json import dumps
from slurmspec.report.links import REPOSITORY, rule_url

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
LEVELS = {"error": "error", "warning": "warning", "info": "note"}


def _uri(path: str | None) -> str:
    """A URI reference for ``path``: relative paths stay relative (GitHub resolves them from the checkout).

    Percent-encoded from the name's bytes (RFC 3986 encodes octets): a byte that is not UTF-8
    (``surrogateescape`` in ``path``) is ``%FF``, which ``quote`` of the text cannot encode.
    """
    if not path:
        return "stdin"
    path = path.replace(os.sep, "/")
    try:
        encoded = quote(os.fsencode(path))
    except UnicodeEncodeError:  # a lone surrogate no byte stands for (a name not from the file system)
        encoded = quote(printable(path))
    return "file://" + encoded if os.path.isabs(path) else encoded


def _rule_descriptor(rule) -> dict[str, Any]:
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary or rule.name},
        "fullDescription": {"text": rule.doc},
        "help": {"text": rule.summary or rule.name, "markdown": rule.doc},
        "helpUri": rule_url(rule.code, rule.name),
        "defaultConfiguration": {"level": LEVELS[rule.severity]},
        "properties": {"family": rule.family, "outcome": rule.outcome, "fixable": rule.fixable},
    }


def _external_descriptor(diagnostic: Diagnostic) -> dict[str, Any]:
    """A code outside the registry (ShellCheck's), described by what the finding carries."""
    return {
        "id": diagnostic.code,
        "name": diagnostic.name,
        "shortDescription": {"text": f"ShellCheck {diagnostic.code}"},
        "helpUri": rule_url(diagnostic.code, diagnostic.name),
        "properties": {"family": diagnostic.family, **({"outcome": diagnostic.outcome} if diagnostic.outcome else {})},
    }


def _region(span) -> dict[str, int]:
    return {"startLine": span.line, "startColumn": span.column, "endLine": span.end_line, "endColumn": span.end_column}


def _fixes(diagnostic: Diagnostic) -> list[dict[str, Any]]:
    """The autofix as a SARIF ``fix``; its applicability (safe/unsafe) goes in ``properties``.

    A display-only fix has no text to offer (``--fix`` never applies it), so it is left out.
    """
    fix = diagnostic.fix
    if fix is None or fix.applicability is Applicability.DISPLAY_ONLY or not fix.edits:
        return []
    replacements = [
        {"deletedRegion": _region(edit.span), "insertedContent": {"text": edit.text}}
        for edit in sorted(fix.edits, key=lambda e: e.span.start)
    ]
    return [{
        "description": {"text": printable(fix.title)},
        "artifactChanges": [{"artifactLocation": {"uri": _uri(diagnostic.path)}, "replacements": replacements}],
        "properties": {"applicability": fix.applicability},
    }]


def _result(diagnostic: Diagnostic, index: int) -> dict[str, Any]:
    fixes = _fixes(diagnostic)
    return {
        "ruleId": diagnostic.code,
        "ruleIndex": index,
        "level": LEVELS[diagnostic.severity],
        "message": {"text": printable(diagnostic.message)},
        "locations": [{
            "physicalLocation": {
                "artifactLocation": {"uri": _uri(diagnostic.path)},
                "region": _region(diagnostic.span),
            },
        }],
        **({"fixes": fixes} if fixes else {}),
    }


def sarif_log(results: Iterable[tuple]) -> dict[str, Any]:
    from slurmspec import __version__
    from slurmspec.lint.engine import registry

    table = registry()
    diagnostics = [d for _, found in results for d in found]
    first = {d.code: d for d in reversed(diagnostics)}
    descriptors = [
        _rule_descriptor(table[code]) if code in table else _external_descriptor(first[code])
        for code in sorted(first)
    ]
    index = {d["id"]: i for i, d in enumerate(descriptors)}
    found = [_result(d, index[d.code]) for d in diagnostics]
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "slurmspec",
                "version": __version__,
                "informationUri": REPOSITORY,
                "rules": descriptors,
            }},
            "columnKind": "unicodeCodePoints",
            "results": found,
        }],
    }


def write_sarif(results: Iterable[tuple], out: IO[str]) -> None:
    out.write(dumps(sarif_log(results)))
    out.write("\n")
