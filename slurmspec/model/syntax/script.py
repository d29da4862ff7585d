"""The parsed script: lines, directive lines, option occurrences and hetjob components."""

from __future__ import annotations

from bisect import bisect_right
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from slurmspec.frozen import as_tuple, frozen, to
from slurmspec.kinds import IssueKind, LineKind, Origin
from slurmspec.span import LineIndex, Span
from slurmspec.version import Version

if TYPE_CHECKING:  # pragma: no cover - typing only
    from slurmspec.body.launch import BodyInfo
    from slurmspec.invocation.layer import InvocationLayer
    from slurmspec.model.catalogue.options import OptionSpec
    from slurmspec.model.job.request import JobRequest
    from slurmspec.model.values._base import Parsed

V = TypeVar("V")


@frozen
class Line:
    """One logical line: its text without the newline, plus the newline itself.

    A ``COMMAND`` line joined by backslash continuations covers several physical
    lines; every other kind is exactly one physical line.
    """

    kind: LineKind
    text: str
    newline: str
    span: Span

    @property
    def number(self) -> int:
        return self.span.line


@frozen
class Word:
    """One argument word of a directive line, after sbatch's tokenising.

    ``value`` is what sbatch passes to getopt (quotes and escapes removed);
    ``offsets[i]`` is the file offset of ``value[i]``, so positions inside a
    value can be mapped back to the source exactly.
    """

    value: str
    raw: str
    span: Span
    # A plain word's offsets are a ``range`` (48 bytes, not an int per character); compared as a tuple.
    offsets: tuple[int, ...] | range = attrs.field(converter=lambda v: v if isinstance(v, range) else tuple(v),
                                                   eq=tuple, repr=False)


@frozen
class DirectiveLine:
    """A ``#SBATCH`` (or legacy ``#SLURM``) line and the words sbatch reads from it."""

    line: Line
    prefix: str
    words: tuple[Word, ...] = attrs.field(converter=as_tuple)
    comment: Span | None
    in_header: bool  # False: after the first command, so sbatch never reads it
    component: int
    separator: bool  # a "hetjob"/"packjob" line that starts the next component

    @property
    def glued_to_name(self) -> bool:
        """The prefix runs straight into a name: ``#SLURM_NTASKS=4``, ``#SBATCH_OPTS=x``. To a reader
        that is a commented-out shell line; sbatch reads the rest as a word, which in the header is
        "Invalid directive found in batch script: _NTASKS=4" (measured on 22.05 and 24.11). A glued
        ``-`` (``#SBATCH--time=5``) is still an option to getopt, so it is not counted here."""
        after = self.line.text[len(self.prefix):len(self.prefix) + 1]
        return bool(after) and (after.isalnum() or after == "_")

    @cached_property
    def word_starts(self) -> list[int]:
        """Each word's start offset, for bisection: one line may hold thousands of options."""
        return [word.span.start for word in self.words]


@frozen(kw_only=True)
class Directive:
    """One option occurrence, as getopt_long split the directive words.

    ``ignored`` is True when sbatch does not act on it: the line comes after the
    first command, or the option is an early-pass one (``--wrap``, ``-v``...).
    """

    option: OptionSpec
    spelling: str  # as written: "--part", "-p", "--time"
    raw: str  # source text of the option and its value
    value: str | None  # argument after quote removal; None when there is none
    span: Span
    name_span: Span
    value_span: Span | None
    component: int
    ignored: bool
    typed: Parsed | None = None

    @property
    def line(self) -> int:
        return self.span.line

    @property
    def name(self) -> str:
        return self.option.long

    def value_as(self, kind: type[V]) -> V | None:
        """This occurrence's parsed value if it is a ``kind``; None when it did not parse or is a placeholder."""
        value = None if self.typed is None else self.typed.value
        return value if isinstance(value, kind) else None


@frozen
class ParseIssue:
    """Something sbatch would stumble on while reading the directives."""

    kind: IssueKind = attrs.field(converter=to(IssueKind))
    message: str
    span: Span
    component: int
    ignored: bool = False  # on a line sbatch never reads
    candidates: tuple[str, ...] = attrs.field(default=(), converter=as_tuple)


@frozen
class Component:
    """One hetjob component (a plain job has exactly one)."""

    index: int
    directives: tuple[Directive, ...] = attrs.field(converter=as_tuple)
    request: JobRequest


@frozen(kw_only=True)
class Script:
    """A parsed batch script. ``to_text()`` gives back the exact input text."""

    path: str | None
    version: Version
    lines: tuple[Line, ...] = attrs.field(converter=as_tuple)
    directive_lines: tuple[DirectiveLine, ...] = attrs.field(converter=as_tuple)
    directives: tuple[Directive, ...] = attrs.field(converter=as_tuple)
    components: tuple[Component, ...] = attrs.field(converter=as_tuple)
    issues: tuple[ParseIssue, ...] = attrs.field(converter=as_tuple)
    header_end: int  # offset of the first command line, or len(text) if none
    index: LineIndex = attrs.field(eq=False, repr=False)
    source: str = attrs.field(eq=False, repr=False)  # the decoded input, for snippets
    # True when the input was bytes that were not valid UTF-8; they survive as
    # lone surrogates (surrogateescape) and come back out in to_bytes().
    had_undecodable_bytes: bool = False
    # The sbatch command line and environment merged into ``components`` (slurmspec.invocation),
    # or None. Their occurrences have spans past the end of ``source`` (one offset space).
    invocation: InvocationLayer | None = attrs.field(default=None, eq=False, repr=False)
    # Placeholders and control lines when the script is a job template (slurmspec/parser/templates.py), or None.
    template: Any = attrs.field(default=None, eq=False, repr=False)

    @cached_property
    def body(self) -> BodyInfo:
        """Launch commands and variable assignments of the script body.

        Computed on first use: most header rules never need it, and the shell
        reader is the costliest part of a parse.
        """
        from slurmspec.body.launch import analyse_body

        return analyse_body(self.source[self.header_end:], self.header_end, self.index)

    @cached_property
    def _directive_line_starts(self) -> list[int]:
        return [dline.line.span.start for dline in self.directive_lines]

    def directive_line_at(self, offset: int) -> DirectiveLine | None:
        """The directive line holding ``offset``, or None; O(log n), as fixes ask once per option."""
        found = bisect_right(self._directive_line_starts, offset) - 1
        if found < 0:
            return None
        dline = self.directive_lines[found]
        return dline if offset < dline.line.span.end else None

    @property
    def shebang(self) -> Line | None:
        first = self.lines[0] if self.lines else None
        return first if first is not None and first.kind == LineKind.SHEBANG else None

    def to_text(self) -> str:
        return "".join(line.text + line.newline for line in self.lines)

    def to_bytes(self) -> bytes:
        return self.to_text().encode("utf-8", "surrogateescape")

    def physical_line(self, number: int) -> str:
        """The text of 1-based physical line ``number``, without its newline."""
        start = self.index.line_start(number)
        end = self.source.find("\n", start)
        return self.source[start:] if end == -1 else self.source[start:end]

    def span(self, start: int, end: int) -> Span:
        if self.invocation is not None and start > len(self.source):
            return self.invocation.span(start, end)  # in the environment or command line
        return self.index.span(start, end)

    def origin_of(self, span: Span) -> Origin:
        """Where ``span`` is: the script itself, or the environment or command line of its invocation."""
        return Origin.SCRIPT if self.invocation is None else self.invocation.origin_of(span.start)

    def span_in_value(self, directive: "Directive", start: int, end: int) -> Span:
        """The file span of characters ``start:end`` of ``directive``'s value text.

        Exact when the value was written without quotes or escapes (source length
        equals value length); otherwise the whole value is the best honest answer.
        """
        value_span = directive.value_span
        if value_span is None:
            return directive.span
        value = directive.value or ""
        if value_span.end - value_span.start == len(value) and 0 <= start <= end <= len(value):
            return self.span(value_span.start + start, value_span.start + max(end, start))
        return value_span

    @property
    def request(self) -> JobRequest:
        """The request of the first (or only) component."""
        return self.components[0].request

    def to_dict(self) -> dict[str, Any]:
        from slurmspec.model.syntax.serialize import script_to_dict

        return script_to_dict(self)
