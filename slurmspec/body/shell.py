"""Split shell text into words and operators with absolute offsets, tolerantly and without raising.

This is not a shell parser. It knows just enough of the POSIX/bash token rules to
find the words of *simple commands*: quotes, backslash escapes, ``\\``-newline
continuations, comments, ``$(...)``/``${...}``/backticks (kept whole and opaque),
operators and redirections, and here-documents (whose bodies are skipped, never
read as commands).  Anything it cannot close (an unterminated quote or ``$(``)
is cut at the end of its line, so one odd line never hides the rest of the body
(prior-art.md §7.1: a parse failure must not abort linting, hadolint #682/#806).
"""

from __future__ import annotations

import re
from typing import Iterator, Sequence, Union

import attrs

from slurmspec.body.scan import ansi_close, balanced, close_quote, dquote, line_end
from slurmspec.frozen import frozen

__all__ = ["Word", "Op", "Token", "tokenize", "iter_tokens", "token_batches", "TokenStream"]


@frozen(slots=True)
class Word:
    """One shell word. ``text`` is as written; ``value`` has quotes and escapes removed.

    Expansions (``$X``, ``${X:-8}``, ``$(...)``, backticks) stay verbatim in
    ``value``: nothing is ever evaluated.
    """

    text: str
    value: str
    start: int
    end: int
    quoted: bool = False
    expands: bool = False

    @property
    def plain(self) -> bool:
        """True when the word is written without quotes, escapes or expansions."""
        return not self.quoted and not self.expands and self.text == self.value


@frozen(slots=True)
class Op:
    """An operator: ``kind`` is the operator text, or ``"redir"`` for redirections."""

    kind: str
    text: str
    start: int
    end: int


Token = Union[Word, Op]

_PLAIN = re.compile(r"[^\s'\"\\$`;&|()<>]+")
_BLANK = re.compile(r"[ \t\r\f\v]+")
_OP = re.compile(
    r";;&|;;|;&|;|&&|&>>|&>|&|\|\||\|&|\||\(|\)"
    r"|<<<|<<-|<<|<>|<&|<|>>|>&|>\||>"
)
_FD = re.compile(r"[0-9]+(?=[<>])")
# Most words: blanks, then a plain run that a blank, a line end or an operator ends, and that is
# neither a comment nor a file descriptor (`2>`) -- what the full scan below would make of it,
# taken in one match (the tokenizer is the hottest loop of a lint).
_PLAIN_WORD = re.compile(r"[ \t\r\f\v]*([^\s'\"\\$`;&|()<>#0-9][^\s'\"\\$`;&|()<>]*)(?=[ \t\r\f\v\n;&|()]|\Z)")
# After a plain run these always end the word (``<`` and ``>`` may open ``<(...)``: not here).
_ENDS_PLAIN_WORD = frozenset(" \t\r\f\v\n;&|()")
_REDIRS = frozenset({"<<<", "<<-", "<<", "<>", "<&", "<", ">>", ">&", ">|", ">", "&>", "&>>"})
# Inside $( ), ${ } and backticks only quotes and escapes can hide a closing bracket.


def _scan_word(text: str, i: int) -> tuple[int, str, bool, bool]:
    """Scan the word at ``i``; return (end, value, quoted, expands)."""
    n = len(text)
    quoted = expands = False
    m = _PLAIN.match(text, i)
    if m is None:
        parts: list[str] = []
    else:  # most words are plain, and a blank or an operator ends them
        i = m.end()
        if i == n or text[i] in _ENDS_PLAIN_WORD:
            return i, m.group(), False, False
        parts = [m.group()]
    while i < n:
        m = _PLAIN.match(text, i)
        if m:
            parts.append(m.group())
            i = m.end()
            continue
        c = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if c == "\\":
            if nxt == "\n":  # line continuation: joined, offsets kept
                i += 2
                continue
            parts.append(nxt)
            quoted = True
            i = min(i + 2, n)
            continue
        if c == "'" or (c == "$" and nxt == "'"):
            q = i + (c == "$")
            if c == "$":  # $'...' (ANSI-C): backslash escapes, \' does not close it
                k = ansi_close(text, q)
            else:
                k = close_quote(text, q, "'")
            closed = k > 0
            k = k if closed else line_end(text, q)
            body = text[q + 1 : k]
            parts.append(body.replace("\\'", "'") if c == "$" else body)
            quoted, i = True, k + 1 if closed else k
            continue
        if c == '"' or (c == "$" and nxt == '"'):
            inner: list[str] = []
            i, exp = dquote(text, i + (c == "$"), inner)
            parts.extend(inner)
            quoted, expands = True, expands or exp
            continue
        if c == "$" and nxt and nxt in "({":
            k = balanced(text, i + 1)
            k = k if k > 0 else line_end(text, i)
            parts.append(text[i:k])
            i, expands = k, True
            continue
        if c == "`":
            k = close_quote(text, i, "`")
            k = k + 1 if k > 0 else line_end(text, i)
            parts.append(text[i:k])
            i, expands = k, True
            continue
        if c == "$":
            parts.append("$")
            expands, i = True, i + 1
            continue
        if c in "<>" and nxt == "(":  # process substitution <( ) / >( ), opaque
            k = balanced(text, i + 1)
            k = k if k > 0 else line_end(text, i)
            parts.append(text[i:k])
            i, expands = k, True
            continue
        break
    return i, "".join(parts), quoted, expands


def _skip_heredocs(text: str, i: int, pending: list[tuple[str, bool]]) -> int:
    """Skip the here-document bodies that start at ``i``; return the index after them.

    As bash reads them (and body/index.py, which records them): a body ends at a line
    that is exactly its delimiter, or, for ``<<-``, that line after its leading tabs
    are removed. An indented ``  EOF`` is text, and the document goes on.
    """
    n = len(text)
    for delim, strip_tabs in pending:
        while i < n:
            j = line_end(text, i)
            line = text[i:j]
            i = j + 1
            if (line.lstrip("\t") if strip_tabs else line) == delim:
                break
        else:
            return n
    return min(i, n)


def tokenize(text: str, base: int = 0, posmap: Sequence[int] | None = None) -> list[Token]:
    """Tokenise ``text``; offsets are ``base + i``, or ``posmap[i]`` when a map is given.

    ``posmap`` (one absolute offset per character) is used when ``text`` is the
    decoded content of a quoted string, e.g. the argument of ``bash -c``.
    """
    return [token for batch in token_batches(text, base, posmap) for token in batch]


def iter_tokens(text: str, base: int = 0, posmap: Sequence[int] | None = None) -> Iterator[Token]:
    """The tokens of ``text`` one by one (see ``tokenize``); O(len(text))."""
    for batch in token_batches(text, base, posmap):
        yield from batch


class TokenStream:
    """The tokens of ``token_batches`` read by index, as far ahead as asked; ``forget(i)`` drops what
    comes before ``i``, so grouping a whole body holds the tokens at hand, not all of them.

    ``has(i)`` must be asked before ``self[i]`` (it reads ahead as needed); both are O(1)."""

    __slots__ = ("_batches", "held", "first")

    def __init__(self, batches: Iterator[list[Token]]) -> None:
        self._batches, self.held, self.first = batches, [], 0  # held[0] is token number ``first``

    def has(self, i: int) -> bool:
        while i - self.first >= len(self.held):
            batch = next(self._batches, None)
            if batch is None:
                return False
            self.held.extend(batch)
        return True

    def __getitem__(self, i: int) -> Token:
        return self.held[i - self.first]

    def between(self, start: int, end: int) -> list[Token]:
        self.has(end - 1)
        return self.held[start - self.first:end - self.first]

    def forget(self, i: int) -> None:
        if i - self.first > 1024:  # now and then: each drop shifts what is left (callers check it too)
            del self.held[:i - self.first]
            self.first = i


def token_batches(text: str, base: int = 0, posmap: Sequence[int] | None = None) -> Iterator[list[Token]]:
    """The tokens of ``text`` a few hundred at a time, in order; O(len(text))."""
    local: list[tuple[str, int, int, tuple]] = []
    heredocs: list[tuple[str, bool]] = []
    want_delim: bool | None = None
    i, n = 0, len(text)
    while i < n:
        if len(local) >= 256:  # a batch at a time: the body's tokens are never all held
            yield _made(local, base, posmap)
            local.clear()
        plain = _PLAIN_WORD.match(text, i)
        if plain is not None:
            word = plain.group(1)
            local.append(("word", plain.start(1), plain.end(), (word, word, False, False)))
            if want_delim is not None:
                heredocs.append((word, want_delim))
                want_delim = None
            i = plain.end()
            continue
        c = text[i]
        if c in " \t\r\f\v":
            i = _BLANK.match(text, i).end()
            continue
        if c == "\\" and text.startswith("\\\n", i):
            i += 2
            continue
        if c == "\n":
            local.append(("op", i, i + 1, ("\n", "\n")))
            i += 1
            if heredocs:
                i = _skip_heredocs(text, i, heredocs)
                heredocs = []
            continue
        if c == "#":
            i = line_end(text, i)
            continue
        fd = _FD.match(text, i) if c.isdigit() else None
        m = _OP.match(text, fd.end() if fd else i)
        if m and (not fd or m.group() in _REDIRS):
            op = m.group()
            if c == "(" and text.startswith("((", i):
                k = balanced(text, i)  # (( arithmetic )): one opaque word
                k = k if k > 0 else line_end(text, i)
                local.append(("word", i, k, (text[i:k], text[i:k], False, True)))
                i = k
                continue
            if op in ("<", ">") and m.end() < n and text[m.end()] == "(":
                pass  # process substitution: a word, scanned below
            else:
                kind = "redir" if op in _REDIRS else op
                local.append(("op", i, m.end(), (kind, text[i : m.end()])))
                if op in ("<<", "<<-"):
                    want_delim = op == "<<-"
                i = m.end()
                continue
        end, value, quoted, expands = _scan_word(text, i)
        if end <= i:  # cannot happen for well-formed input; never loop forever
            end, value = i + 1, text[i]
        local.append(("word", i, end, (text[i:end], value, quoted, expands)))
        if want_delim is not None:
            heredocs.append((value, want_delim))
            want_delim = None
        i = end
    yield _made(local, base, posmap)


def _made(local: list[tuple[str, int, int, tuple]], base: int, posmap: Sequence[int] | None) -> list[Token]:
    if posmap is None:  # offsets are base + i: no per-token call (every word of every body comes here)
        return [Op(data[0], data[1], base + s, base + e) if kind == "op"
                else Word(data[0], data[1], base + s, base + e, data[2], data[3])
                for kind, s, e, data in local]
    return [_absolute(kind, s, e, data, base, posmap) for kind, s, e, data in local]


def _absolute(kind: str, s: int, e: int, data: tuple, base: int, posmap: Sequence[int] | None) -> Token:
    if posmap is None:
        start, end = base + s, base + e
    else:
        start = posmap[s] if s < len(posmap) else (posmap[-1] + 1 if posmap else base)
        end = posmap[e - 1] + 1 if 0 < e <= len(posmap) else start
        end = max(end, start)
    if kind == "op":
        return Op(data[0], data[1], start, end)
    return Word(data[0], data[1], start, end, data[2], data[3])
