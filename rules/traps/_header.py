"""Helpers shared by the header-trap rules (SB201–SB219).

How a directive is shown in a message (``shown``; ``show`` keeps its spacing), the span a finding marks
(``option_span``, which takes in the ``-`` of a short option), a request
setting the component sets itself (``own``), and whether some words would read
as a clean ``#SBATCH`` line (``reads_cleanly``, for the fixes that make a line
count).
"""

from __future__ import annotations


from slurmspec.lazy_regex import lazy_compile
from slurmspec.model.syntax.script import Directive, Script
from slurmspec.span import Span

SPACE = " \t\v\f\r\n"
OPTION_WORD = lazy_compile(r"-{1,2}[A-Za-z]")


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
    # A slice, not an index: an occurrence from the sbatch command line lies past the script's text.
    if not directive.spelling.startswith("--") and start > 0 and script.source[start - 1:start] == "-":
        return script.span(start - 1, span.end)
    return span


def line_no(directive: Directive) -> int:
    return directive.span.line


def own(request, name: str):
    """The component's setting of ``name`` when it sets it itself (not inherited), else None."""
    setting = request.get(name)
    return None if setting is None or setting.inherited else setting




def show(directive: Directive) -> str:
    """The directive as written, cut to 60 characters (spaces kept, unlike ``shown``)."""
    raw = directive.raw
    return raw if len(raw) <= 60 else raw[:57] + "..."
