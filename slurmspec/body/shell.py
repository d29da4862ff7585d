"""The shell lexer: split shell text into words and operators with absolute offsets, tolerantly.

This is not a shell parser. It knows just enough of the POSIX/bash token rules to
find the words of *simple commands*: quotes, backslash escapes, ``\\``-newline
continuations, comments, ``$(...)``/``${...}``/backticks (kept whole and opaque in
the word), operators and redirections, and here-documents (whose bodies are
skipped, never read as commands).  Anything it cannot close (an unterminated quote
or ``$(``) is cut at the end of its line, so one odd line never hides the rest of
the body (prior-art.md §7.1: a parse failure must not abort linting, hadolint
#682/#806).

Given a ``Lexicon``, the same pass also records what the body index needs: every
``$NAME`` reference (inside expansions too, which it lexes as the shell code they
are), the quoted ranges and the here-documents. There is no second reader of the
body to disagree with this one.
"""

from __future__ import annotations

import re
from typing import Iterator, Sequence

from slurmspec.body.lexicon import MAX_NESTING, Lexicon
from slurmspec.body.scan import ansi_close, balanced, close_quote, line_end, skip_heredocs
from slurmspec.body.tokens import Token, made

__all__ = ["tokenize", "iter_tokens", "token_batches"]

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
_DQUOTE_SPECIAL = re.compile(r'["\\$`]').search  # what ends or changes "...": the rest is literal


def _inside(text: str, lo: int, hi: int, base: int, lex: Lexicon | None) -> None:
    """Record what the shell code ``text[lo:hi]`` holds (the inside of ``$( )``, backticks, ``<( )``
    or the word of ``${NAME:-word}``): bash reads it with its own quoting (bash(1), Command
    Substitution), so ``"$(echo '$A')"`` defers ``$A``."""
    if lex is None or hi <= lo or lex.depth >= MAX_NESTING:
        return
    lex.depth += 1
    try:
        for _ in token_batches(text[lo:hi], base + lo, None, lex):
            pass
    finally:
        lex.depth -= 1


def _expansion(text: str, i: int, base: int, lex: Lexicon | None) -> int:
    """The end of the ``$(``/``${``/``$((`` expansion at ``i`` (its line's end when unclosed), recorded."""
    k = balanced(text, i + 1)
    closed = k > 0
    k = k if closed else line_end(text, i)
    if lex is None:
        return k
    inner_end = k - 1 if closed else k
    if text.startswith("$((", i):  # arithmetic: names and $-references, no quoting
        lex.refs_in(text, i + 3, inner_end, base, False)
    elif text[i + 1] == "{":
        _inside(text, max(lex.ref(text, i, base, False), i + 2), inner_end, base, lex)
    else:
        _inside(text, i + 2, inner_end, base, lex)
    return k


def _backticks(text: str, i: int, base: int, lex: Lexicon | None) -> int:
    k = close_quote(text, i, "`")
    if k > 0:
        _inside(text, i + 1, k, base, lex)
        return k + 1
    k = line_end(text, i)
    _inside(text, i + 1, k, base, lex)
    return k


def _dquote(text: str, i: int, out: list[str], base: int, lex: Lexicon | None) -> tuple[int, bool]:
    """Read the "..." starting at ``i`` into ``out``; return (index past it, expands)."""
    n = len(text)
    j = i + 1
    expands = False
    mark = lex.mark() if lex is not None else None
    while j < n:
        special = _DQUOTE_SPECIAL(text, j)
        if special is None:
            break
        if special.start() > j:  # a run of ordinary characters, kept as one piece
            out.append(text[j:special.start()])
            j = special.start()
        c = text[j]
        if c == '"':
            if lex is not None:
                lex.quote(base + i, base + j + 1, '"')
            return j + 1, expands
        if c == "\\" and j + 1 < n:
            nxt = text[j + 1]
            # In double quotes a backslash only escapes $ ` " \ and newline (bash(1) QUOTING).
            if nxt == "\n":
                pass
            elif nxt in '$`"\\':
                out.append(nxt)
                if nxt == "$" and lex is not None:
                    lex.ref(text, j + 1, base, True, escaped=True)
            else:
                out.append("\\" + nxt)
            j += 2
            continue
        if c == "$" and j + 1 < n and text[j + 1] in "({":
            k = _expansion(text, j, base, lex)
            out.append(text[j:k])
            j, expands = k, True
            continue
        if c == "`":
            k = _backticks(text, j, base, lex)
            out.append(text[j:k])
            j, expands = k, True
            continue
        if c == "$":
            expands = True
            if lex is not None:
                lex.ref(text, j, base, False)
        out.append(c)
        j += 1
    # Unterminated: like an unclosed quote anywhere, keep only the rest of this line.
    end = line_end(text, i + 1)
    del out[:]
    out.append(text[i + 1 : end])
    if lex is not None:  # what was recorded past this line is read again, as the lexer goes on
        lex.rollback(mark)
        lex.refs_in(text, i + 1, end, base, False)
        lex.quote(base + i, base + end, '"')
    return end, expands


def _scan_word(text: str, i: int, base: int, lex: Lexicon | None) -> tuple[int, str, bool, bool]:
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
            if nxt == "$" and lex is not None:
                lex.ref(text, i + 1, base, True, escaped=True)
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
            if lex is not None:  # nothing in single quotes is expanded: every reference is deferred
                lex.refs_in(text, q + 1, k, base, True, backslash=False)
                lex.quote(base + q, base + k + closed, "'")
            quoted, i = True, k + 1 if closed else k
            continue
        if c == '"' or (c == "$" and nxt == '"'):
            inner: list[str] = []
            i, exp = _dquote(text, i + (c == "$"), inner, base, lex)
            parts.extend(inner)
            quoted, expands = True, expands or exp
            continue
        if c == "$" and nxt and nxt in "({":
            k = _expansion(text, i, base, lex)
            parts.append(text[i:k])
            i, expands = k, True
            continue
        if c == "`":
            k = _backticks(text, i, base, lex)
            parts.append(text[i:k])
            i, expands = k, True
            continue
        if c == "$":
            if lex is not None:
                lex.ref(text, i, base, False)
            parts.append("$")
            expands, i = True, i + 1
            continue
        if c in "<>" and nxt == "(":  # process substitution <( ) / >( ), opaque
            k = balanced(text, i + 1)
            k = k if k > 0 else line_end(text, i)
            _inside(text, i + 2, k - 1 if text[k - 1:k] == ")" else k, base, lex)
            parts.append(text[i:k])
            i, expands = k, True
            continue
        break
    return i, "".join(parts), quoted, expands


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


def token_batches(text: str, base: int = 0, posmap: Sequence[int] | None = None,
                  lexicon: Lexicon | None = None) -> Iterator[list[Token]]:
    """The tokens of ``text`` a few hundred at a time, in order; O(len(text)). With a ``lexicon``
    (offsets ``base + i``, so no ``posmap``), its references, quotes and here-documents go there."""
    local: list[tuple[str, int, int, tuple]] = []
    heredocs: list[tuple[str, bool, bool]] = []  # (delimiter, strip tabs, quoted) to read at the line's end
    want_delim: bool | None = None
    i, n = 0, len(text)
    while i < n:
        if len(local) >= 256:  # a batch at a time: the body's tokens are never all held
            yield made(local, base, posmap)
            local.clear()
        plain = _PLAIN_WORD.match(text, i)
        if plain is not None:
            word = plain.group(1)
            local.append(("word", plain.start(1), plain.end(), (word, word, False, False)))
            if want_delim is not None:
                heredocs.append((word, want_delim, False))
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
                i = skip_heredocs(text, i, heredocs, base, lexicon)
                heredocs = []
            continue
        if c == "#":
            k = line_end(text, i)
            if lexicon is not None:
                lexicon.comments.append((base + i, base + k))
            i = k
            continue
        fd = _FD.match(text, i) if c.isdigit() else None
        m = _OP.match(text, fd.end() if fd else i)
        if m and (not fd or m.group() in _REDIRS):
            op = m.group()
            if c == "(" and text.startswith("((", i):
                k = balanced(text, i)  # (( arithmetic )): one opaque word
                k = k if k > 0 else line_end(text, i)
                if lexicon is not None:
                    lexicon.refs_in(text, i + 2, k, base, False)
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
        end, value, quoted, expands = _scan_word(text, i, base, lexicon)
        if end <= i:  # cannot happen for well-formed input; never loop forever
            end, value = i + 1, text[i]
        local.append(("word", i, end, (text[i:end], value, quoted, expands)))
        if want_delim is not None:
            # bash: any quoting in the delimiter word (<<'EOF', <<"EOF", <<\EOF) leaves the body unexpanded
            heredocs.append((value, want_delim, text[i:end] != value))
            want_delim = None
        i = end
    yield made(local, base, posmap)
