"""Code actions: each finding's fix as a quick fix, the two suppression comments, and "fix all".

- A *safe* fix (what ``slurmspec lint --fix`` applies) is the preferred action;
  an *unsafe* one (``--unsafe-fixes``) says so in its title; a *display-only*
  fix is never applied by slurmspec and is not offered as an edit.
- "Ignore CODE on this line" / "in this file" add the suppression comments
  (``slurmspec.lsp.ignore_comments``); not for SB900, a slurmspec bug to report.
- ``source.fixAll.slurmspec`` runs the CLI's safe fix rounds (``--fix``: lint,
  fix, re-lint, refuse a result with new warnings) on the editor's text.

Edits name the document version they were computed for, when the client
accepts versioned edits, so a stale action is refused rather than misapplied.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from lsprotocol import types

from slurmspec.fix.edit import Edit
from slurmspec.kinds import Applicability, Role
from slurmspec.diagnostic import Diagnostic
from slurmspec.lint.engine import code_of
from slurmspec.lsp.analysis import LintResult
from slurmspec.lsp.diagnostics import to_lsp
from slurmspec.lsp.positions import PositionMap

FIX_ALL = f"{types.CodeActionKind.SourceFixAll.value}.slurmspec"


def wants(only: Sequence[str] | None, kind: str) -> bool:
    """LSP kinds are hierarchical: asking for ``source`` includes ``source.fixAll.slurmspec``."""
    return not only or any(kind == asked or kind.startswith(f"{asked}.") for asked in only)


class ActionBuilder:
    """Builds actions for one lint result; ``versioned``: the client takes ``documentChanges``."""

    def __init__(self, result: LintResult, encoding: str, versioned: bool) -> None:
        self.result = result
        self.positions = PositionMap(result.snapshot.text, encoding)
        self.versioned = versioned

    def workspace_edit(self, edits: Iterable[Edit]) -> types.WorkspaceEdit:
        text_edits = [
            types.TextEdit(range=self.positions.range(edit.span.start, edit.span.end), new_text=edit.text)
            for edit in sorted(edits, key=lambda e: e.span.start)
        ]
        snapshot = self.result.snapshot
        if self.versioned and snapshot.version is not None:
            document = types.OptionalVersionedTextDocumentIdentifier(uri=snapshot.uri, version=snapshot.version)
            return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(text_document=document, edits=text_edits)])
        return types.WorkspaceEdit(changes={snapshot.uri: text_edits})

    def _lsp(self, index: int, diagnostic: Diagnostic) -> types.Diagnostic:
        snapshot = self.result.snapshot
        return to_lsp(diagnostic, index, snapshot.version, self.result.script, self.positions, snapshot.uri)

    def _named(self, context: Sequence[types.Diagnostic]) -> set[int]:
        """Our findings among the diagnostics the client sent (by the ``data`` we gave it, else code and range)."""
        version, found = self.result.snapshot.version, self.result.diagnostics
        named = set()

        def same(index: int, sent: types.Diagnostic) -> bool:
            diagnostic = found[index]
            return diagnostic.code == sent.code and \
                self.positions.range(diagnostic.span.start, diagnostic.span.end) == sent.range

        for sent in context:
            data = sent.data if isinstance(sent.data, dict) else {}
            index = data.get("index")
            # The index is checked too: ShellCheck's findings, published later, shift the list.
            if data.get("version") == version and isinstance(index, int) and 0 <= index < len(found) \
                    and same(index, sent):
                named.add(index)
                continue
            named.update(index for index in range(len(found)) if same(index, sent))
        return named

    def for_range(self, start: int, end: int, only: Sequence[str] | None,
                  context: Sequence[types.Diagnostic] = ()) -> list[types.CodeAction]:
        """Actions for the findings under the range, and for those the client names (the cursor's line)."""
        actions: list[types.CodeAction] = []
        offered: list[object] = []
        named = self._named(context)
        for index, diagnostic in enumerate(self.result.diagnostics):
            if index not in named and not _touches(diagnostic, start, end):
                continue
            lsp_diagnostic = self._lsp(index, diagnostic)
            fix = diagnostic.fix
            if fix is not None and fix.edits and fix.applicability is not Applicability.DISPLAY_ONLY \
                    and fix not in offered and wants(only, types.CodeActionKind.QuickFix.value):
                offered.append(fix)
                actions.append(self._fix_action(fix, lsp_diagnostic))
            if diagnostic.code != code_of(Role.INTERNAL_ERROR) and wants(only, types.CodeActionKind.QuickFix.value):
                actions.extend(self._ignore_actions(diagnostic, lsp_diagnostic))
        return actions

    def _fix_action(self, fix, lsp_diagnostic: types.Diagnostic) -> types.CodeAction:
        safe = fix.applicability is Applicability.SAFE
        return types.CodeAction(
            title=fix.title if safe else f"{fix.title} (unsafe fix: check it keeps what the job needs)",
            kind=types.CodeActionKind.QuickFix,
            diagnostics=[lsp_diagnostic],
            is_preferred=safe,
            edit=self.workspace_edit(fix.edits),
        )

    def _ignore_actions(self, diagnostic: Diagnostic, lsp_diagnostic: types.Diagnostic) -> list[types.CodeAction]:
        from slurmspec.lsp.ignore_comments import file_ignore, line_ignore

        script = self.result.script
        shown = diagnostic.code if diagnostic.code.startswith("SC") else f"{diagnostic.code} ({diagnostic.name})"
        actions = []
        for where, edit in (("on this line", line_ignore(script, diagnostic)),
                            ("in this file", file_ignore(script, diagnostic.code))):
            if edit is not None:
                actions.append(types.CodeAction(
                    title=f"Ignore {shown} {where}", kind=types.CodeActionKind.QuickFix,
                    diagnostics=[lsp_diagnostic], edit=self.workspace_edit([edit]),
                ))
        return actions

    def fix_all(self) -> types.CodeAction | None:
        """The safe fix rounds of ``slurmspec lint --fix``, as one edit; None when they change nothing."""
        if not any(d.fix is not None and d.fix.applies(False) for d in self.result.diagnostics):
            return None
        from slurmspec.fix.loop import fix_text
        from slurmspec.lint.pipeline import fix_round_linter

        snapshot, settings = self.result.snapshot, self.result.settings
        outcome = fix_text(snapshot.text, fix_round_linter(settings, snapshot.path), unsafe=False)
        if outcome.failure is not None or not outcome.changed:
            return None
        return types.CodeAction(
            title="Fix all safe problems (slurmspec)", kind=FIX_ALL,
            edit=self.workspace_edit([_smallest_edit(self.result, outcome.text)]),
        )


def _touches(diagnostic: Diagnostic, start: int, end: int) -> bool:
    span = diagnostic.span
    return span.start <= end and start <= span.end


def _smallest_edit(result: LintResult, fixed: str) -> Edit:
    """One edit replacing only what differs between the text and ``fixed`` (the cursor stays put)."""
    original = result.snapshot.text
    head = 0
    limit = min(len(original), len(fixed))
    while head < limit and original[head] == fixed[head]:
        head += 1
    tail = 0
    while tail < limit - head and original[-1 - tail] == fixed[-1 - tail]:
        tail += 1
    script = result.script
    return Edit(script.span(head, len(original) - tail), fixed[head:len(fixed) - tail])

