"""Find where quoted strings and bracketed expansions end, without raising on unclosed ones.

Helpers for ``shell.tokenize``.  The quoting rules are those of bash(1), QUOTING:
no escapes inside '...'; inside "..." a backslash escapes only $ ` " \\ and newline;
$'...' honours backslash escapes.  ``$( )``, ``${ }`` and backticks are matched by
counting brackets outside quotes; their contents are never interpreted.
"""

from __future__ import annotations

import re

__all__ = ["line_end", "close_quote", "ansi_close", "balanced", "dquote"]

_MAX_LINES = 64  # longest $( ... ) we look for a closing bracket in
_INERT = {")": re.compile(r"[^()'\"\\`]+"), "}": re.compile(r"[^{}'\"\\`]+")}
_DQUOTE_SPECIAL = re.compile(r'["\\$`]').search  # what ends or changes "...": the rest is literal


def line_end(text: str, i: int) -> int:
    j = text.find("\n", i)
    return len(text) if j < 0 else j


def close_quote(text: str, i: int, quote: str) -> int:
    """Index of the quote closing the one at ``i`` (escapes honoured except in '...'); -1 if none."""
    if quote == "'":  # nothing escapes inside '...'
        return text.find("'", i + 1)
    j = i + 1
    n = len(text)
    while j < n:
        c = text[j]
        if c == quote:
            return j
        if c == "\\" and quote != "'":
            j += 2
            continue
        j += 1
    return -1


def ansi_close(text: str, i: int) -> int:
    """Index of the quote closing the $'...' whose opening quote is at ``i``; -1 if none."""
    j, n = i + 1, len(text)
    while j < n:
        if text[j] == "\\":
            j += 2
            continue
        if text[j] == "'":
            return j
        j += 1
    return -1


def balanced(text: str, i: int) -> int:
    """Index just past the bracket closing the ``(`` or ``{`` at ``i``; -1 when unbalanced.

    The search gives up after _MAX_LINES lines so that many unclosed ``$(`` stay linear.
    """
    opener = text[i]
    closer = ")" if opener == "(" else "}"
    inert = _INERT[closer]
    n = i
    for _ in range(_MAX_LINES):
        n = text.find("\n", n + 1)
        if n < 0:
            n = len(text)
            break
    depth, j = 0, i
    while j < n:
        m = inert.match(text, j)
        if m:
            j = m.end()
            continue
        c = text[j]
        if c == opener:
            depth += 1
        elif c == closer:
            depth -= 1
            if depth == 0:
                return j + 1
        elif c == "\\":
            j += 1
        elif c in "'\"`":
            k = close_quote(text, j, c)
            if k < 0 or k >= n:
                return -1
            j = k
        j += 1
    return -1


def dquote(text: str, i: int, out: list[str]) -> tuple[int, bool]:
    """Read the "..." starting at ``i`` into ``out``; return (index past it, expands)."""
    n = len(text)
    j = i + 1
    expands = False
    while j < n:
        special = _DQUOTE_SPECIAL(text, j)
        if special is None:
            break
        if special.start() > j:  # a run of ordinary characters, kept as one piece
            out.append(text[j:special.start()])
            j = special.start()
        c = text[j]
        if c == '"':
            return j + 1, expands
        if c == "\\" and j + 1 < n:
            nxt = text[j + 1]
            # In double quotes a backslash only escapes $ ` " \ and newline (bash(1) QUOTING).
            if nxt == "\n":
                pass
            elif nxt in '$`"\\':
                out.append(nxt)
            else:
                out.append("\\" + nxt)
            j += 2
            continue
        if c == "$" and j + 1 < n and text[j + 1] in "({":
            k = balanced(text, j + 1)
            k = k if k > 0 else line_end(text, j)
            out.append(text[j:k])
            j, expands = k, True
            continue
        if c == "`":
            k = close_quote(text, j, "`")
            k = k + 1 if k > 0 else line_end(text, j)
            out.append(text[j:k])
            j, expands = k, True
            continue
        if c == "$":
            expands = True
        out.append(c)
        j += 1
    # Unterminated: like an unclosed quote anywhere, keep only the rest of this line.
    end = line_end(text, i + 1)
    del out[:]
    out.append(text[i + 1 : end])
    return end, expands
