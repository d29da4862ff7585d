"""What the shell lexer sees besides tokens: variable references, quoted ranges, here-documents.

The lexer (``slurmspec.body.shell``) fills a ``Lexicon`` as it splits a body into
words, so the launch analysis and the body index (``slurmspec.body.index``) read
one account of the body: a here-document ends, a quote closes and a comment starts
at the same place for both. A reference records whether the *batch shell* expands
it: one in single quotes, written ``\\$NAME``, or in a here-document with a quoted
delimiter (``<<'EOF'``) is *deferred* -- expanded later, if at all, typically by a
``bash -c`` inside ``srun`` (bash(1), QUOTING and "Here Documents").
"""

from __future__ import annotations

import re

from slurmspec.frozen import frozen

__all__ = ["VarRef", "Quoted", "RawHereDoc", "Lexicon", "MAX_NESTING"]

# How deep the lexer follows $( ), backticks and ${ } for references: each level rescans its own
# text, so a hostile `$($($(...)))` stays linear; nothing real nests this deep.
MAX_NESTING = 8

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_BRACED = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(:?[-=+?])?")


@frozen(slots=True)
class VarRef:
    """One ``$NAME`` or ``${NAME...}``; offsets are absolute (``start`` is the ``$``)."""

    name: str
    start: int
    end: int  # after the name, or after the closing `}` of a braced reference
    deferred: bool  # not expanded by the batch shell: single-quoted, escaped, or in a quoted here-document
    default: bool  # ${NAME:-x}, ${NAME-x}, ${NAME:=x}, ${NAME:+x}, ${NAME:?x}...
    escaped: bool = False  # written `\$NAME` (also deferred)


@frozen(slots=True)
class Quoted:
    """A quoted range, quotes included (an unclosed quote ends where the lexer cuts it: its line's end)."""

    start: int
    end: int
    quote: str  # "'" or '"'


@frozen(slots=True)
class RawHereDoc:
    """A here-document body as the lexer reads it; ``slurmspec.body.index.HereDoc`` adds its lines."""

    delimiter: str
    quoted: bool  # <<'EOF', <<"EOF" or <<\EOF: the body is not expanded by the batch shell
    strip_tabs: bool  # <<-EOF
    start: int  # first line of the body
    end: int  # start of the delimiter line (end of the text when it is missing)
    closed: bool  # False: no delimiter line before the end of the text


class Lexicon:
    """The records of one lexed body, in the order the lexer met them (``sorted()`` orders them)."""

    __slots__ = ("refs", "quoted", "heredocs", "comments", "depth")

    def __init__(self) -> None:
        self.refs: list[VarRef] = []
        self.quoted: list[Quoted] = []
        self.heredocs: list[RawHereDoc] = []
        # (start, end) of each comment: an unquoted `#` that begins a word, to its line's end (bash(1),
        # COMMENTS); a `#` inside a word, in quotes or in a here-document is text.
        self.comments: list[tuple[int, int]] = []
        self.depth = 0  # how many $( ), backticks or ${ } the lexer is inside

    def ref(self, text: str, i: int, base: int, deferred: bool, escaped: bool = False) -> int:
        """Record the reference at ``text[i] == "$"`` (if a name follows); return the offset after its name."""
        m = _BRACED.match(text, i)
        if m:
            close = text.find("}", m.end())
            end = m.end() if close == -1 else close + 1
            self.refs.append(VarRef(m.group(1), base + i, base + end, deferred or escaped, bool(m.group(2)), escaped))
            return m.end()
        m = _NAME.match(text, i + 1)
        if m:
            self.refs.append(VarRef(m.group(0), base + i, base + m.end(), deferred or escaped, False, escaped))
            return m.end()
        return i + 1

    def refs_in(self, text: str, lo: int, hi: int, base: int, deferred: bool, backslash: bool = True) -> None:
        """Record every ``$`` reference in ``text[lo:hi]``, where quotes mean nothing: a single-quoted
        string (where a backslash is a character too: ``backslash=False``), an arithmetic expression,
        a line of a here-document."""
        j = text.find("$", lo, hi)
        while j != -1:
            k = self.ref(text, j, base, deferred, escaped=backslash and j > lo and text[j - 1] == "\\")
            j = text.find("$", k, hi) if k < hi else -1

    def mark(self) -> tuple[int, int, int, int]:
        """Where the records end now, for ``rollback``."""
        return len(self.refs), len(self.quoted), len(self.heredocs), len(self.comments)

    def rollback(self, mark: tuple[int, int, int, int]) -> None:
        """Forget what was recorded since ``mark`` (a quote the lexer then cuts at its line's end)."""
        del self.refs[mark[0]:], self.quoted[mark[1]:], self.heredocs[mark[2]:], self.comments[mark[3]:]

    def quote(self, start: int, end: int, quote: str) -> None:
        self.quoted.append(Quoted(start, end, quote))

    def sorted(self) -> tuple[tuple[VarRef, ...], tuple[Quoted, ...], tuple[RawHereDoc, ...]]:
        """References, quoted ranges and here-documents, each in file order."""
        by_start = lambda record: record.start  # noqa: E731 - a key, named for the three sorts
        return (tuple(sorted(self.refs, key=by_start)), tuple(sorted(self.quoted, key=by_start)),
                tuple(sorted(self.heredocs, key=by_start)))
