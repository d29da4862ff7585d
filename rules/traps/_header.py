"""Helpers shared by the header-trap rules (SB201–SB219).

How a directive is shown in a message (``shown``), the span a finding marks
(``option_span``, which takes in the ``-`` of a short option), a request
setting the component sets itself (``own``), and whether some words would read
as a clean ``#SBATCH`` line (``reads_cleanly``, for the fixes that make a line
count).
"""

from __future__ import annotations

import re

from slurmspec.model.script import Directive, Script
from slurmspec.span import Span

SPACE = " \t\v\f\r\n"
OPTION_WORD = re.compile(r"-{1,2}[A-Za-z]")


def clip(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def shown(directive: Directive) -> str:
    """The option as written: ``--time=5``, ``-t 5``, ``--exclusive``."""
    if directive.spelling.startswith("--"):
        return clip(directive.raw)
    if directive.value is None:
        return directive.spelling
    return clip(f"{directive.spelling} {directive.value}")


def option_span(script: Script, directive: Directive) -> Span:
    """The directive's span, widened to take in the `-` of a short option (`-p gpu`)."""
    span = directive.span
    start = span.start
    if not directive.spelling.startswith("--") and start > 0 and script.source[start - 1] == "-":
        return script.span(start - 1, span.end)
    return span


def line_no(directive: Directive) -> int:
    return directive.span.line


def own(request, name: str):
    """The component's setting of ``name`` when it sets it itself (not inherited), else None."""
    setting = request.get(name)
    return None if setting is None or setting.inherited else setting


def reads_cleanly(words: str, version, script: Script | None = None, keep: tuple[int, int] = (0, 0)) -> bool:
    """Would ``#SBATCH <words>`` be read without a parse problem or a refused value, and
    (given ``script``) without setting an option that another directive of it sets
    (outside the ``keep`` range, the text being rewritten)? Making such words count
    would silently replace one of the two values, so which one was meant is the user's call.
    """
    from slurmspec.parser.script import parse_script

    probe = parse_script("#!/bin/bash\n#SBATCH " + words + "\n", None, version)
    if probe.issues or not all(d.typed is None or d.typed.ok for d in probe.directives):
        return False
    if script is None:
        return True
    others = {d.option.long for d in script.directives if not keep[0] <= d.span.start < keep[1]}
    return not any(d.option.long in others for d in probe.directives)
