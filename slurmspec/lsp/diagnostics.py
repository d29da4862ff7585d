"""slurmspec findings as LSP diagnostics: range, severity, code with a link to its doc, related lines.

The link is the one every report format uses (``slurmspec.report.links``:
``docs/rules.md#<code>-<name>``, the ShellCheck wiki for ``SCxxxx``). A
finding about two lines (a repeated option, a late directive and the first
command, two conflicting options) names the other line in its message or
notes as "line N"; each such line becomes related information pointing at
that line, so editors can jump there. Notes follow the message on their own
lines. ``data`` carries the document version and the finding's index, which
ties a code action request back to the finding and its fix. Messages go out
as shown text (``slurmspec.printable``), as in every report format: they quote
the script, and an editor's problems panel is as easily garbled as a terminal.
"""

from __future__ import annotations

import re
from typing import Iterable

from lsprotocol import types

from slurmspec.kinds import Role, Severity
from slurmspec.diagnostic import Diagnostic
from slurmspec.lint.engine import code_of
from slurmspec.lsp.positions import PositionMap
from slurmspec.model.syntax.script import Script
from slurmspec.printable import printable

SOURCE = "slurmspec"
SHELLCHECK_SOURCE = "shellcheck"

_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}
_LINE_REFERENCE = re.compile(r"\bline (\d+)\b")


def line_range(script: Script, positions: PositionMap, number: int) -> types.Range:
    """The text of 1-based line ``number`` (sbatch's lines, ``\\n``-separated), without leading blanks."""
    start = script.index.line_start(number)
    end = script.source.find("\n", start)
    end = len(script.source) if end == -1 else end
    text = script.source[start:end]
    content_start = start + len(text) - len(text.lstrip(" \t"))
    content_end = start + len(text.rstrip("\r"))
    return positions.range(min(content_start, content_end), content_end)


def _related(diagnostic: Diagnostic, script: Script, positions: PositionMap, uri: str
             ) -> list[types.DiagnosticRelatedInformation]:
    found: dict[int, str] = {}
    for text in (diagnostic.message, *diagnostic.notes):
        for match in _LINE_REFERENCE.finditer(text):
            number = int(match.group(1))
            if number != diagnostic.span.line and 1 <= number <= script.index.line_count and number not in found:
                found[number] = text if text is not diagnostic.message else f"line {number}"
    return [
        types.DiagnosticRelatedInformation(
            location=types.Location(uri=uri, range=line_range(script, positions, number)), message=printable(message),
        )
        for number, message in sorted(found.items())
    ]


def to_lsp(diagnostic: Diagnostic, index: int, version: int | None, script: Script,
           positions: PositionMap, uri: str) -> types.Diagnostic:
    from slurmspec.report.links import rule_url

    shellcheck = diagnostic.code.startswith("SC")
    # Notes on their own lines: the one line break that is ours, so it is added after the escaping.
    message = "\n".join(printable(text) for text in (diagnostic.message, *(f"note: {n}" for n in diagnostic.notes)))
    return types.Diagnostic(
        range=positions.range(diagnostic.span.start, diagnostic.span.end),
        message=message,
        severity=_SEVERITY.get(diagnostic.severity, types.DiagnosticSeverity.Warning),
        code=diagnostic.code,
        code_description=types.CodeDescription(href=rule_url(diagnostic.code, diagnostic.name)),
        source=SHELLCHECK_SOURCE if shellcheck else SOURCE,
        related_information=_related(diagnostic, script, positions, uri) or None,
        # An unused suppression is dead text, which editors fade out.
        tags=[types.DiagnosticTag.Unnecessary] if diagnostic.code == code_of(Role.UNUSED_SUPPRESSION) else None,
        data={"version": version, "index": index},
    )


def all_to_lsp(found: Iterable[Diagnostic], version: int | None, script: Script | None,
               positions: PositionMap, uri: str) -> list[types.Diagnostic]:
    if script is None:
        return []
    return [to_lsp(d, i, version, script, positions, uri) for i, d in enumerate(found)]


def configuration_problem(message: str) -> types.Diagnostic:
    """A configuration file that cannot be used: the CLI exits 2; the editor shows it on the first line."""
    return types.Diagnostic(
        range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)),
        message=f"slurmspec cannot lint this file: {printable(message)}",
        severity=types.DiagnosticSeverity.Error,
        source=SOURCE,
    )
