"""Findings of an invoked script: where they are reported, which fixes survive, what notes they carry.

- A finding in the environment or on the command line is reported under the
  synthetic source's name (``<command line>:1:11``, ``<environment>:2:18``, as
  gcc reports ``<command-line>``), with that text's line and column, its message
  ending with the script it was linted with (``(submitting `jobs/a.sbatch`)``,
  so every format tells a multi-file run's scripts apart), and never
  with a fix: only the script is a file slurmspec may edit. Suppression
  comments in the script do not reach it (the engine applies them to the
  script's findings only); the configuration's ``ignore`` does.
- A fix with an edit that reaches past the script's text is dropped.
- A finding on an ``#SBATCH`` occurrence that the environment or the command
  line replaces (or a flag variable cancels) gets a note saying so.
- The environment and the command line apply to every hetjob component, so a
  rule can report one occurrence once per component: identical findings are
  kept once.
- No unused-suppression finding (SB901): a suppression is written for the
  script, and one this invocation happens not to need is still needed when
  the script is submitted without it.
"""

from __future__ import annotations

import re

import attrs

from slurmspec.gates import MAIL_TYPE_LAST_WINS
from slurmspec.invocation.sources import PLACEHOLDER_LINES
from slurmspec.kinds import Origin, Outcome, Role
from slurmspec.diagnostic import Diagnostic
from slurmspec.lint.engine import code_of
from slurmspec.model.syntax.script import Directive, Script


def split_by_origin(script: Script, found: list[Diagnostic]) -> tuple[list[Diagnostic], list[Diagnostic]]:
    """(findings in the script, findings in its environment or command line)."""
    mine, theirs = [], []
    for diagnostic in found:
        (mine if script.origin_of(diagnostic.span) is Origin.SCRIPT else theirs).append(diagnostic)
    return mine, theirs


def settle(script: Script, found: list[Diagnostic]) -> list[Diagnostic]:
    """``found`` as reported for an invoked script (see the module docstring)."""
    layer = script.invocation
    if layer is None:
        return found
    settled, seen = [], set()
    unused_suppression = code_of(Role.UNUSED_SUPPRESSION)
    for diagnostic in found:
        if diagnostic.code == unused_suppression:
            continue
        origin = script.origin_of(diagnostic.span)
        diagnostic = _named_lines(diagnostic)
        if origin is not Origin.SCRIPT:
            source = layer.source(origin)
            diagnostic = attrs.evolve(diagnostic, path=source.name, span=source.reported_span(diagnostic.span), fix=None,
                                      message=_for_script(diagnostic.message, script.path))
        else:
            fix = diagnostic.fix
            if fix is not None and any(edit.span.end > layer.script_length for edit in fix.edits):
                diagnostic = attrs.evolve(diagnostic, fix=None)
            note = _replaced_note(script, diagnostic)
            if note is not None:
                diagnostic = attrs.evolve(diagnostic, notes=(*diagnostic.notes, note))
        key = (diagnostic.code, diagnostic.path, diagnostic.span, diagnostic.message)
        if key not in seen:
            seen.add(key)
            settled.append(diagnostic)
    return settled


def _for_script(message: str, path: str | None) -> str:
    """The message naming the script it was linted with: ``lint jobs/ -- -p gpu`` reports the same
    `<command line>` position once per script, and the path column is the synthetic source's."""
    return message if path is None else f"{message} (submitting `{path}`)"


# How a rule's "line N" reads when N is a synthetic text's placeholder (sources.PLACEHOLDER_LINES).
_PHRASES = (
    (r"\bon line {n}\b", {Origin.ENVIRONMENT: "in the environment", Origin.COMMAND_LINE: "on the command line"}),
    (r"\brepeats line {n}\b", {Origin.ENVIRONMENT: "repeats a variable of the environment",
                               Origin.COMMAND_LINE: "repeats an option of the command line"}),
    (r"\(line {n}\)", {Origin.ENVIRONMENT: "(in the environment)", Origin.COMMAND_LINE: "(on the command line)"}),
    (r"\bline {n}\b", {Origin.ENVIRONMENT: "the environment", Origin.COMMAND_LINE: "the command line"}),
)


def _named_lines(diagnostic: Diagnostic) -> Diagnostic:
    """Rewrite "line <placeholder>" in the message and notes as the source it stands for."""
    def rewrite(text: str) -> str:
        for origin, number in PLACEHOLDER_LINES.items():
            if str(number) in text:
                for pattern, words in _PHRASES:
                    text = re.sub(pattern.format(n=number), words[origin], text)
        return text

    message, notes = rewrite(diagnostic.message), tuple(rewrite(note) for note in diagnostic.notes)
    if message == diagnostic.message and notes == diagnostic.notes:
        return diagnostic
    return attrs.evolve(diagnostic, message=message, notes=notes)


def _replaced_note(script: Script, diagnostic: Diagnostic) -> str | None:
    start = diagnostic.span.start
    for directive, later in script.invocation.replaced:
        if directive.span.start <= start < max(directive.span.end, directive.span.start + 1):
            return _note(script, directive, later, diagnostic)
    return None


def _note(script: Script, directive: Directive, later, diagnostic: Diagnostic) -> str:
    where = "the sbatch command line" if script.origin_of(later.span) is Origin.COMMAND_LINE else "the environment"
    if not isinstance(later, Directive):  # a flag variable's reset (environment.Reset)
        return f"`{later.name}={later.value}` in the environment cancels this option"
    combined = later.option.accumulates or (later.option.long == "mail-type" and script.version < MAIL_TYPE_LAST_WINS)
    shown = f"`{later.raw}`" if where == "the environment" else f"`{_shown(later)}`"
    if combined:
        return f"{where} adds {shown} to this option (sbatch combines repeated `--{later.option.long}`)"
    text = f"{where} replaces this with {shown}"
    if diagnostic.outcome is Outcome.REFUSED:
        text += "; sbatch reads this line first, and a value it refuses here still stops the submission"
    return text


def _shown(directive: Directive) -> str:
    """The option as written on the command line: ``--time=5``, ``-t 5``, ``-H``."""
    if directive.spelling.startswith("--"):
        return directive.raw
    return directive.spelling if directive.value is None else f"{directive.spelling} {directive.value}"
