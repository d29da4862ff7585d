"""An index of a batch script's body: variable references, here-documents, quoted ranges, commands.

Built once per script (rules call ``ctx.shared(body_index)``) by one linear,
shell-aware pass over the body, and never raises. What it records:

- every ``$NAME``/``${NAME...}`` reference, with whether the *batch shell*
  expands it: a reference in single quotes, written as ``\\$NAME`` or inside a
  here-document with a quoted delimiter (``<<'EOF'``) is *deferred*, i.e.
  expanded later, typically by a ``bash -c`` inside ``srun``; and whether it
  carries a default (``${NAME:-x}``, ``${NAME-x}``, ``${NAME:=x}``, ``${NAME:+x}``…);
- here-documents: where their lines are, and whether the delimiter was quoted;
- single- and double-quoted ranges;
- where each simple command is and its name (``CommandHeads``, read by the launch
  analysis in the same pass), so that a rule can ask which command an offset belongs to.

The reference scanner is separate from ``slurmspec.body.shell.tokenize``: the
tokenizer keeps expansions opaque inside words (``"$(x $A)"`` is one word) and
forgets whether a here-document delimiter was quoted, while this pass must see
every ``$`` and whether the batch shell expands it. Comments are skipped
(``#`` at the start of a word); ``$'...'`` is read as ``$`` then a quote.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from functools import cached_property
from typing import TYPE_CHECKING

import attrs

from slurmspec.frozen import frozen

if TYPE_CHECKING:  # pragma: no cover
    from slurmspec.body.commands import CommandHeads
    from slurmspec.check.context import Context

__all__ = ["BodyIndex", "CommandHead", "HereDoc", "Quoted", "VarRef", "body_index", "first_word", "variable_refs"]


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
class HereDoc:
    """A here-document body: ``start``..``end`` are the offsets of its lines (``end``: the delimiter line)."""

    delimiter: str
    quoted: bool  # <<'EOF' or <<"EOF": the body is not expanded by the batch shell
    strip_tabs: bool  # <<-EOF
    start: int  # first line of the body
    end: int  # start of the delimiter line (end of the text when it is missing)
    first_line: int  # 1-based line of the first body line
    last_line: int  # 1-based line of the delimiter (the last line when it is missing)
    closed: bool = True  # False: no delimiter line before the end of the text


@frozen(slots=True)
class Quoted:
    """A quoted range, quotes included (``end`` is the end of the text when it is never closed)."""

    start: int
    end: int
    quote: str  # "'" or '"'


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_BRACED = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(:?[-=+?])?")
_HEREDOC = re.compile(r"<<(-?)[ \t]*(['\"]?)([A-Za-z_.\-][A-Za-z0-9_.\-]*)\2")
_WORD_START = " \t\n;&|()<>"
# The characters each quoting state reacts to; the scan jumps over the others.
_NEXT_UNQUOTED = re.compile(r"[\\$\"'#<\n]").search
_NEXT_IN_DQUOTE = re.compile(r'[\\$"]').search
_NEXT_IN_SQUOTE = re.compile(r"['$]").search


class _Scan:
    """The one pass over the body; fills ``refs``, ``heredocs`` and ``quoted``."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.refs: list[VarRef] = []
        self.heredocs: list[HereDoc] = []
        self.quoted: list[Quoted] = []

    def run(self, start: int) -> None:
        source = self.source
        i, n = start, len(source)
        squote = dquote = False
        opened = start  # where the open quote started
        pending: list[tuple[bool, bool, str]] = []  # here-documents to read: (strip tabs, quoted, delimiter)
        while i < n:
            found = (_NEXT_IN_SQUOTE if squote else _NEXT_IN_DQUOTE if dquote else _NEXT_UNQUOTED)(source, i)
            if found is None:
                break
            i = found.start()
            c = source[i]
            if squote:
                if c == "'":
                    squote = False
                    self.quoted.append(Quoted(opened, i + 1, "'"))
                elif c == "$":
                    i = self.read_ref(i, True)
                    continue
                i += 1
                continue
            if c == "\\":
                if i + 1 < n and source[i + 1] == "$":
                    i = self.read_ref(i + 1, True, escaped=True)
                    continue
                i += 2
                continue
            if c == "$":
                i = self.read_ref(i, False)
                continue
            if c == '"':
                if dquote:
                    self.quoted.append(Quoted(opened, i + 1, '"'))
                else:
                    opened = i
                dquote = not dquote
            elif dquote:
                pass
            elif c == "'":
                squote, opened = True, i
            elif c == "#" and (i == start or source[i - 1] in _WORD_START):
                end = source.find("\n", i)
                i = n if end == -1 else end
                continue
            elif c == "<" and source.startswith("<<", i) and not source.startswith("<<<", i):
                m = _HEREDOC.match(source, i)
                if m:
                    pending.append((bool(m.group(1)), bool(m.group(2)), m.group(3)))
                    i = m.end()
                    continue
            elif c == "\n" and pending:
                i = self.skip_heredocs(i + 1, pending)
                pending = []
                continue
            i += 1
        if squote or dquote:
            self.quoted.append(Quoted(opened, n, "'" if squote else '"'))

    def skip_heredocs(self, i: int, pending: list[tuple[bool, bool, str]]) -> int:
        """Read the bodies of the here-documents that start at ``i``; return the offset after them."""
        source = self.source
        n = len(source)
        for strip, quoted, delimiter in pending:
            begin, closed = min(i, n), False
            while i < n:
                end = source.find("\n", i)
                end = n if end == -1 else end
                line = source[i:end]
                if (line.lstrip("\t") if strip else line) == delimiter:
                    self.heredoc(delimiter, quoted, strip, begin, i, True)
                    i = end + 1
                    closed = True
                    break
                j = line.find("$")
                while j != -1:
                    k = self.read_ref(i + j, quoted, escaped=j > 0 and line[j - 1] == "\\")
                    j = line.find("$", k - i) if k - i < len(line) else -1
                i = end + 1
            if not closed:
                self.heredoc(delimiter, quoted, strip, begin, n, False)
        return min(i, n)

    def heredoc(self, delimiter: str, quoted: bool, strip: bool, start: int, end: int, closed: bool) -> None:
        source = self.source
        first = source.count("\n", 0, start) + 1
        last = first + source.count("\n", start, end)
        if not closed and end > start and source.endswith("\n"):
            last -= 1  # the text's final newline starts no line
        self.heredocs.append(HereDoc(delimiter, quoted, strip, start, end, first, last, closed))

    def read_ref(self, i: int, deferred: bool, escaped: bool = False) -> int:
        """Read a reference at ``source[i] == "$"``; return the offset after it."""
        source = self.source
        m = _BRACED.match(source, i)
        if m:
            close = source.find("}", m.end())
            end = m.end() if close == -1 else close + 1
            self.refs.append(VarRef(m.group(1), i, end, deferred or escaped, bool(m.group(2)), escaped))
            return m.end()
        m = _NAME.match(source, i + 1)
        if m:
            self.refs.append(VarRef(m.group(0), i, m.end(), deferred or escaped, False, escaped))
            return m.end()
        return i + 1


def variable_refs(source: str, start: int = 0) -> list[VarRef]:
    """Every ``$NAME``/``${NAME...}`` in ``source[start:]``, skipping comments."""
    scan = _Scan(source)
    scan.run(start)
    return scan.refs


@frozen(slots=True)
class CommandHead:
    """Where one simple command is, and its name (the first word's value, "" when it only assigns)."""

    start: int
    end: int
    name: str


def first_word(command: "CommandHead | None") -> str:
    """The command's name without its folder (``/usr/bin/srun`` → ``srun``); ``""`` for none."""
    if command is None or not command.name:
        return ""
    return os.path.basename(command.name)


@frozen
class BodyIndex:
    """What rules ask of a script body, computed once; every offset is absolute in the script."""

    refs: tuple[VarRef, ...] = ()
    heredocs: tuple[HereDoc, ...] = ()
    quoted: tuple[Quoted, ...] = ()
    heads: "CommandHeads | None" = attrs.field(default=None, eq=False, repr=False)  # the simple commands

    @classmethod
    def build(cls, source: str, start: int, heads: "CommandHeads | None" = None) -> "BodyIndex":
        """Index ``source[start:]`` (the body: ``start`` is the script's ``header_end``); ``heads`` are its
        commands when the launch analysis has read them already. O(len(body))."""
        from slurmspec.body.commands import CommandHeads, iter_commands

        start = min(start, len(source))
        scan = _Scan(source)
        try:
            scan.run(start)
        except Exception:  # pragma: no cover - the scanner is total, this is a last defence
            scan = _Scan(source)
        if heads is None:
            try:
                heads = CommandHeads.of(iter_commands(source[start:], start))
            except Exception:  # pragma: no cover
                heads = CommandHeads()
        return cls(tuple(scan.refs), tuple(scan.heredocs), tuple(scan.quoted), heads)

    def command_at(self, offset: int) -> CommandHead | None:
        """The innermost-starting command whose range holds ``offset`` (commands come in file order)."""
        heads = self.heads
        if heads is None:
            return None
        i = bisect_right(heads.starts, offset) - 1
        # Commands may nest (a loop body inside its header's range): look back a little.
        for k in range(i, max(0, i - 8) - 1, -1):
            if heads.starts[k] <= offset < heads.ends[k]:
                return CommandHead(heads.starts[k], heads.ends[k], heads.names[k])
        return None

    def first_word_at(self, offset: int) -> str:
        """The name of the command at ``offset`` (``first_word``), or ``""``."""
        return first_word(self.command_at(offset))

    @cached_property
    def _quote_starts(self) -> list[int]:
        return [q.start for q in self.quoted]

    @cached_property
    def _heredoc_starts(self) -> list[int]:
        return [doc.start for doc in self.heredocs]

    def quote_at(self, offset: int) -> Quoted | None:
        """The quoted range that holds ``offset``, or None; O(log n)."""
        i = bisect_right(self._quote_starts, offset) - 1
        if i >= 0 and offset < self.quoted[i].end:
            return self.quoted[i]
        return None

    def heredoc_at(self, offset: int) -> HereDoc | None:
        """The here-document whose body holds ``offset``, or None; O(log n) (bodies come in order)."""
        i = bisect_right(self._heredoc_starts, offset) - 1
        if i >= 0 and offset < self.heredocs[i].end:
            return self.heredocs[i]
        return None


def body_index(ctx: "Context") -> BodyIndex:
    """The index of ``ctx.script``'s body: ask for it with ``ctx.shared(body_index)``."""
    script = ctx.script
    return BodyIndex.build(script.source, script.header_end, script.body.heads)
