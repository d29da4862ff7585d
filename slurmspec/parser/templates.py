"""Job templates: scripts with placeholders that a generator fills in before sbatch ever reads them.

Real batch scripts are often templates (issue 23; /work/shared/corpus/real has several):

- Jinja: ``{{ name }}`` placeholders, ``{% if gpus %}`` / ``{% endif %}`` control lines and ``{# ... #}``
  comments (also GitHub-style ``${{ x }}``, which ``{{ x }}`` covers);
- markers a script substitutes with sed: ``XXXmpinodesXXX``, ``@NODES@``;
- "fill this in" placeholders in directives: ``#SBATCH -A <your account>``, ``--mail-user=<email>``.

What sbatch reads is the rendered script, so slurmspec reads a template that way as far as it can:
a placeholder is a value it does not know (never an error), and a control line is neither a command
nor part of one (so it does not end the ``#SBATCH`` header). The parser (parser/script.py) asks this
module once per script; rules see the result as ``Script.template``.

Each pattern is narrow on purpose, so an ordinary script is never taken for a template: bash's
``${#array[@]}`` is not a ``{# #}`` comment, ``SRRXXXXXXXX_1.fastq`` is not a marker, ``{{x}}`` without
spaces (a Python format string's escaped braces) counts only on an ``#SBATCH`` line, ``<...>`` only
in a directive's words, ``@X@`` only in capitals between non-word characters.
"""

from __future__ import annotations

import re

import attrs

from slurmspec.frozen import as_frozenset, as_tuple, frozen
from slurmspec.kinds import TemplateStyle
from slurmspec.lazy_regex import lazy_compile

# `{{ name }}`, `{{ x | default(1) }}`; spaces inside for a body line, any form on a directive line.
_JINJA_SPACED = r"\{\{\s+[^{}\n]*?\s+\}\}"
_JINJA_ANY = r"\{\{[^{}\n]*\}\}"
_JINJA_TAG = r"\{%-?\s*[a-z]+\b[^\n]*?-?%\}"
_JINJA_COMMENT = r"(?<!\$)\{#[^\n]*?#\}"  # `${#array[@]}` is bash
# XXXnameXXX: a name with a letter other than X, not glued to a word (SRRXXXXXXXX_1 is an accession)
_MARKER = r"(?<![A-Za-z0-9_])XXX(?=[A-Za-z0-9_]*[A-WYZa-z])[A-Za-z0-9_]+?XXX(?![A-Za-z0-9_])"
_AT = r"(?<![\w@])@[A-Z][A-Z0-9_]*@(?![\w@])"
_ANGLE = r"<[A-Za-z][^<>\n]*>"

_PATTERNS = {
    TemplateStyle.JINJA: (_JINJA_ANY, _JINJA_TAG, _JINJA_COMMENT),
    TemplateStyle.MARKER: (_MARKER,),
    TemplateStyle.AT_MARKER: (_AT,),
}
_IN_DIRECTIVE = re.compile("|".join(f"(?P<{style.name}_{i}>{pattern})" for style, patterns in
                                    {**_PATTERNS, TemplateStyle.ANGLE: (_ANGLE,)}.items()
                                    for i, pattern in enumerate(patterns)))
_IN_BODY = re.compile("|".join(f"(?P<{style.name}_{i}>{pattern})" for style, patterns in
                               {**_PATTERNS, TemplateStyle.JINJA: (_JINJA_SPACED, _JINJA_TAG, _JINJA_COMMENT)}.items()
                               for i, pattern in enumerate(patterns)))
_CONTROL_LINE = lazy_compile(r"[ \t]*(?:(?:\{%-?\s*[a-z]+\b[^\n]*?-?%\}|\{#[^\n]*?#\})[ \t]*)+")

# What stands in for a blank, quote or `#` inside a placeholder while sbatch's word splitting runs:
# `{{ name }}` and `<your account>` are one word of the rendered script (private-use characters).
MASK = {" ": "\ue000", "\t": "\ue001", "#": "\ue002", '"': "\ue003", "'": "\ue004"}
_UNMASK = {v: k for k, v in MASK.items()}


@frozen
class Placeholder:
    style: TemplateStyle
    start: int  # file offsets
    end: int
    text: str


@frozen
class TemplateInfo:
    """What makes a script a template: its placeholders and control lines (file offsets, line numbers)."""

    placeholders: tuple[Placeholder, ...] = attrs.field(converter=as_tuple)
    control_lines: frozenset[int] = attrs.field(converter=as_frozenset)

    @property
    def styles(self) -> tuple[TemplateStyle, ...]:
        found = {p.style for p in self.placeholders}
        if self.control_lines:
            found.add(TemplateStyle.JINJA)
        return tuple(style for style in TemplateStyle if style in found)

    def covers(self, start: int, end: int) -> bool:
        """Whether [start, end) overlaps a placeholder."""
        return any(p.start < end and start < p.end for p in self.placeholders)


def is_control_line(text: str) -> bool:
    """A line of only Jinja tags or comments (``{% if gpus %}``, ``{% endif %}``, ``{# note #}``)."""
    return _CONTROL_LINE.fullmatch(text) is not None


def placeholders_in(text: str, base: int, directive: bool) -> list[Placeholder]:
    """The placeholders of one line's ``text`` (starting at file offset ``base``); ``directive``: the words
    of an ``#SBATCH`` line, where ``<...>`` and ``{{x}}`` count too."""
    if not any(c in text for c in "{X@<"):
        return []  # most lines: no scan
    pattern = _IN_DIRECTIVE if directive else _IN_BODY
    found = []
    for match in pattern.finditer(text):
        style = TemplateStyle[match.lastgroup.rsplit("_", 1)[0]]
        found.append(Placeholder(style, base + match.start(), base + match.end(), match.group()))
    return found


def mask(text: str, base: int, placeholders: list[Placeholder]) -> str:
    """``text`` with the blanks, quotes and ``#`` inside ``placeholders`` replaced (same length)."""
    if not placeholders:
        return text
    chars = list(text)
    for p in placeholders:
        for i in range(max(p.start - base, 0), min(p.end - base, len(chars))):
            chars[i] = MASK.get(chars[i], chars[i])
    return "".join(chars)


def unmask(value: str) -> str:
    """A word's value with the masked characters given back."""
    if not any(c in _UNMASK for c in value):
        return value
    return "".join(_UNMASK.get(c, c) for c in value)


def has_placeholder(value: str | None) -> bool:
    """Whether an option value holds a placeholder (it is then unknown until rendered)."""
    return bool(value) and bool(placeholders_in(value, 0, True))
