"""The synthetic sources an invocation adds beside a script: ``<environment>`` and ``<command line>``.

Every position in slurmspec is a ``Span`` of character offsets into one text.
An invoked script has three texts, so they share one offset space, the way
clang's SourceManager gives each buffer (its ``<command line>`` and
``<built-in>`` ones too) its own range of a single offset space: the script
keeps ``0 .. len(script)``, then, one offset apart, the environment text, then
the command line. A span therefore says by its offsets alone which text it is
in, ``Script.span()`` can make a span anywhere, and the order of offsets is the
order sbatch applies the three (script, environment, command line; see
``slurmspec.invocation.merge``). Line and column numbers are those of the
synthetic text itself, so ``<command line>:1:11`` points into the command line.

While the rules run, a span in a synthetic text carries a placeholder line
number no script reaches (``PLACEHOLDER_LINES``), the same for the whole text:
rules phrase other occurrences as "line N" (``repeats line 3``), and
``slurmspec.lint.invocation_findings`` turns "line <placeholder>" into "the command
line" or "the environment" and gives the finding its real line and column.

The texts are readable renderings, not inputs: the environment is one
``NAME=value`` line per variable sbatch reads, in the order it reads them; the
command line is ``sbatch`` and the words, quoted for a POSIX shell only where
a word needs it.
"""

from __future__ import annotations

import re

import attrs

from slurmspec.frozen import frozen
from slurmspec.kinds import Origin
from slurmspec.model.syntax.script import Word
from slurmspec.span import LineIndex, Span

# The name a finding in each synthetic text is reported under (gcc says "<command-line>").
SOURCE_NAMES = {Origin.ENVIRONMENT: "<environment>", Origin.COMMAND_LINE: "<command line>"}
# Line numbers of synthetic spans while rules run: past any script slurmctld accepts (4 MiB of "\n").
PLACEHOLDER_LINES = {Origin.ENVIRONMENT: 2_000_000_001, Origin.COMMAND_LINE: 2_000_000_002}

_PLAIN_WORD = re.compile(r"[A-Za-z0-9_@%+=:,./-]+")


@frozen
class SyntheticSource:
    """One synthetic text placed at ``base`` in the script's offset space."""

    origin: Origin
    text: str
    base: int
    index: LineIndex = attrs.field(eq=False, repr=False)

    @classmethod
    def place(cls, origin: Origin, text: str, base: int) -> "SyntheticSource":
        return cls(origin, text, base, LineIndex(text))

    @property
    def name(self) -> str:
        return SOURCE_NAMES[self.origin]

    @property
    def end(self) -> int:
        return self.base + len(self.text)

    def span(self, start: int, end: int) -> Span:
        """The span of global offsets ``start``..``end`` as rules see it (placeholder line, real columns)."""
        line = PLACEHOLDER_LINES[self.origin]
        column, end_column = self.index.line_col(start - self.base)[1], self.index.line_col(end - self.base)[1]
        return Span(start, end, line, column, line, end_column)

    def reported_span(self, span: Span) -> Span:
        """``span`` with this text's own line and column numbers, as a report shows it."""
        line, column = self.index.line_col(span.start - self.base)
        end_line, end_column = self.index.line_col(span.end - self.base)
        return Span(span.start, span.end, line, column, end_line, end_column)

    def local_span(self, start: int, end: int) -> Span:
        """``span()`` for offsets counted from the start of this text."""
        return self.span(self.base + start, self.base + end)

    def physical_line(self, number: int) -> str:
        start = self.index.line_start(number)
        stop = self.text.find("\n", start)
        return self.text[start:] if stop == -1 else self.text[start:stop]


def shell_word(word: str) -> tuple[str, tuple[int, ...]]:
    """``word`` as a POSIX shell would need it written, and where each of its characters lands.

    Plain words stay as they are; others are single-quoted, an embedded ``'``
    written ``'\\''``. ``offsets[i]`` is the index of ``word[i]`` in the result,
    so a problem inside a value still points at its exact character.
    """
    if word and _PLAIN_WORD.fullmatch(word):
        return word, tuple(range(len(word)))
    pieces, offsets, at = ["'"], [], 1
    for char in word:
        if char == "'":
            pieces.append("'\\''")
            offsets.append(at + 2)
            at += 4
        else:
            pieces.append(char)
            offsets.append(at)
            at += 1
    pieces.append("'")
    return "".join(pieces), tuple(offsets)


def command_line_text(argv: tuple[str, ...], script_word: str | None) -> tuple[str, list[tuple[int, int, tuple[int, ...]]]]:
    """``sbatch ARGV [SCRIPT]`` and, per word of ``argv``, (start, end, character offsets) in it."""
    text = "sbatch"
    placed = []
    for word in argv:
        written, offsets = shell_word(word)
        start = len(text) + 1
        text += " " + written
        placed.append((start, start + len(written), tuple(start + o for o in offsets)))
    if script_word is not None:
        text += " " + shell_word(script_word)[0]
    return text, placed


def command_line_words(source: SyntheticSource, argv: tuple[str, ...], placed) -> list[Word]:
    """The words of ``argv`` with *local* spans (offsets into ``source.text``), as getopt reads them."""
    words = []
    for word, (start, end, offsets) in zip(argv, placed):
        words.append(Word(word, source.text[start:end], source.index.span(start, end), offsets))
    return words
