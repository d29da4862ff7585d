"""An index of a batch script's body: variable references, here-documents, quoted ranges, commands.

Built once per script (rules call ``ctx.shared(body_index)``) from what the shell lexer
(``slurmspec.body.shell``) records in the launch analysis's pass over the body
(``slurmspec.body.lexicon``), so a here-document, a quote or a comment is where the
launch analysis sees it too. What it holds:

- every ``$NAME``/``${NAME...}`` reference, with whether the *batch shell*
  expands it (``VarRef.deferred``) and whether it carries a default (``${NAME:-x}``…);
- here-documents: where their lines are, and whether the delimiter was quoted;
- single- and double-quoted ranges;
- where each simple command is and its name (``CommandHeads``), so that a rule can
  ask which command an offset belongs to.
"""

from __future__ import annotations

import os
from bisect import bisect_right
from functools import cached_property
from typing import TYPE_CHECKING

import attrs

from slurmspec.body.lexicon import Lexicon, Quoted, RawHereDoc, VarRef
from slurmspec.frozen import frozen

if TYPE_CHECKING:  # pragma: no cover
    from slurmspec.body.commands import CommandHeads
    from slurmspec.check.context import Context

__all__ = ["BodyIndex", "CommandHead", "HereDoc", "Quoted", "VarRef", "body_index", "first_word", "variable_refs"]


@frozen(slots=True)
class HereDoc(RawHereDoc):
    """A here-document body as the lexer read it, with its lines."""

    first_line: int  # 1-based line of the first body line
    last_line: int  # 1-based line of the delimiter (the last line when it is missing)


def _with_lines(source: str, docs: tuple[RawHereDoc, ...]) -> tuple[HereDoc, ...]:
    """The here-documents with their line numbers, counted in one pass (``docs`` are in file order)."""
    out: list[HereDoc] = []
    at, line = 0, 1
    for doc in docs:
        line += source.count("\n", at, doc.start)
        last = line + source.count("\n", doc.start, doc.end)
        if not doc.closed and doc.end > doc.start and source.endswith("\n"):
            last -= 1  # the text's final newline starts no line
        out.append(HereDoc(doc.delimiter, doc.quoted, doc.strip_tabs, doc.start, doc.end, doc.closed, line, last))
        at = doc.start
    return tuple(out)


def variable_refs(source: str, start: int = 0) -> list[VarRef]:
    """Every ``$NAME``/``${NAME...}`` in ``source[start:]``, skipping comments."""
    return list(BodyIndex.build(source, start).refs)


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
    def build(cls, source: str, start: int, heads: "CommandHeads | None" = None,
              lexicon: Lexicon | None = None) -> "BodyIndex":
        """Index ``source[start:]`` (the body: ``start`` is the script's ``header_end``); ``heads`` and
        ``lexicon`` are what the launch analysis's pass recorded, when it has run. O(len(body))."""
        from slurmspec.body.commands import CommandHeads, iter_commands

        start = min(start, len(source))
        if heads is None or lexicon is None:
            lexicon = Lexicon()
            try:
                heads = CommandHeads.of(iter_commands(source[start:], start, None, lexicon))
            except Exception:  # pragma: no cover - the lexer is total, this is a last defence
                heads, lexicon = CommandHeads(), Lexicon()
        refs, quoted, heredocs = lexicon.sorted()
        return cls(refs, _with_lines(source, heredocs), quoted, heads)

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
        """The innermost quoted range that holds ``offset``, or None; O(log n). Ranges nest when a
        quote holds a ``$( )`` with quotes of its own: look back a little for the enclosing one."""
        i = bisect_right(self._quote_starts, offset) - 1
        for k in range(i, max(0, i - 8) - 1, -1):
            if offset < self.quoted[k].end:
                return self.quoted[k]
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
    return BodyIndex.build(script.source, script.header_end, script.body.heads, script.body.lexicon)
