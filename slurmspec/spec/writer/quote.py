"""Quoting for the two readers of an emitted script: sbatch's directive tokeniser and bash.

- ``directive_word``: one argument on an ``#SBATCH`` line. sbatch groups
  characters in ``"..."`` and drops a backslash before any character, also
  inside quotes (src/sbatch/opt.c get_argument, see slurmspec/parser/words.py),
  so a double-quoted word with ``\\`` before ``"`` and ``\\`` is read back exactly.
  Line breaks cannot be written at all; the spec loader refuses them.
- ``shell_literal``: ``shlex.quote`` — single quotes, nothing inside expands.
- ``shell_template``: user text in which ``$NAME`` and ``${NAME}`` expand (so a
  path may say ``$SLURM_TMPDIR``) and nothing else does: every other character,
  ``$(``, backticks, quotes and newlines included, is single-quoted.
"""

from __future__ import annotations

import re
import shlex

_PLAIN_DIRECTIVE = re.compile(r"[A-Za-z0-9_@%+=:,./\[\]|&*()!^~{}<>?-]+")
_VAR = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")


def directive_word(word: str) -> str:
    """``word`` written so sbatch's tokeniser gives back exactly ``word``."""
    if _PLAIN_DIRECTIVE.fullmatch(word) and not word.startswith(":"):
        return word
    return '"' + word.replace("\\", "\\\\").replace('"', '\\"') + '"'


def directive_option(name: str, value: str | None) -> str:
    """``--name=value`` with the value quoted for sbatch (the name never needs it)."""
    if value is None:
        return f"--{name}"
    quoted = directive_word(value)
    return f"--{name}={quoted}"


def shell_literal(text: str) -> str:
    """One literal bash word. Control characters and newlines (a carriage return
    above all: sbatch refuses a script with DOS line breaks) are written as ``$'\\xHH'``."""
    if not any(_control(ch) for ch in text):
        return shlex.quote(text)
    out = []
    for ch in text:
        if _control(ch) or ch in "\\'":
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(ch)
    return "$'" + "".join(out) + "'"


def _control(ch: str) -> bool:
    # Newlines too: a value never spans script lines, which keeps every emitted
    # command on one line for readers (and for line-based checks).
    return (ord(ch) < 32 and ch != "\t") or ord(ch) == 127


def shell_template(text: str) -> str:
    """A single bash word: ``$NAME``/``${NAME}`` expand (inside double quotes), the rest is literal."""
    parts: list[str] = []
    pos = 0
    for match in _VAR.finditer(text):
        if match.start() > pos:
            parts.append(shell_literal(text[pos:match.start()]))
        parts.append('"${' + (match.group(1) or match.group(2)) + '}"')
        pos = match.end()
    if pos < len(text) or not parts:
        parts.append(shell_literal(text[pos:]))
    return "".join(parts)


# Words bash reads as syntax, not as a command name, when bare in command position.
_RESERVED = frozenset("if then else elif fi case esac for select while until do done in function time coproc".split())
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\+?=")
_BARE = re.compile(r"[\w@%+=:,./-]+")  # what shlex.quote leaves unquoted


def command_word(text: str) -> str:
    """``shell_template(text)`` for the first word of a command: never an assignment or a reserved word.

    ``A=b`` or ``time`` left bare in command position would be read by bash as a
    variable assignment or a keyword, so their leading bare run is single-quoted.
    """
    word = shell_template(text)
    bare = _BARE.match(word)
    if bare is not None and (_ASSIGNMENT.match(word) or bare.group() in _RESERVED and bare.end() == len(word)):
        return "'" + bare.group() + "'" + word[bare.end():]
    return word


def shell_words(words: list[str] | tuple[str, ...]) -> str:
    return " ".join(shell_template(w) for w in words)
