"""Split the text after ``#SBATCH`` into words exactly as sbatch's ``get_argument()`` does.

Facts (src/sbatch/opt.c, 22.05.8 and 24.11.5; slurm-semantics.md §5), checked
against a real sbatch:
- words are separated by C isspace() characters (space, tab, \\v, \\f, \\r);
- ``'...'`` and ``"..."`` group characters and are removed; quotes may start
  mid-word (``a"b c"d`` is ``ab cd``) and cannot span lines;
- a backslash is dropped and the next character copied literally, inside quotes
  too; before 24.05 an escaped space still ends the word (``a\\ b`` is two
  words), from 24.05 it is a literal space;
- an unquoted, unescaped ``#`` ends the word and the rest of the line is a comment;
- a word that yields no characters (``""``, a lone ``\\``, a ``#``) ends the line:
  everything after it on that line is ignored, so empty arguments never exist;
- a word that starts with ``:`` is fatal ("Unexpected `:`");
- an unmatched quote is fatal ("Unmatched `\"`");
- a whole word ``hetjob``/``packjob`` (any case) ends the line; as the first
  word it also starts the next hetjob component.
"""

from __future__ import annotations

import re

import attrs

from slurmspec.frozen import frozen
from slurmspec.kinds import IssueKind
from slurmspec.gates import ESCAPED_SPACE_JOINS
from slurmspec.version import Version

_SPACE = " \t\n\v\f\r"
# Characters that mean nothing special outside quotes: not a blank, escape, quote or comment.
_PLAIN_RUN = re.compile(r"[^ \t\n\v\f\r\\\"'#]+")


@frozen
class RawWord:
    value: str
    start: int  # file offsets of the word's source text
    end: int
    offsets: tuple[int, ...] | range


@frozen
class Tokenised:
    words: tuple[RawWord, ...]
    separator: str | None  # "hetjob" / "packjob" if the line starts a new component
    comment_start: int | None  # offset of a trailing "#" comment
    dropped_start: int | None  # offset from which sbatch ignores the rest of the line
    problem: tuple[IssueKind, str, int, int] | None  # (kind, message, start, end), fatal


def _separator_word(text: str, pos: int) -> str | None:
    for word in ("packjob", "hetjob"):
        end = pos + len(word)
        if text[pos:end].lower() == word and (end == len(text) or text[end] in _SPACE):
            return word
    return None


def _compact(offsets: list[int]) -> tuple[int, ...] | range:
    """A word's character offsets: a ``range`` when they run on (no quote or escape was dropped)."""
    if offsets and offsets[-1] - offsets[0] == len(offsets) - 1:
        return range(offsets[0], offsets[-1] + 1)
    return tuple(offsets)


def tokenise(text: str, base: int, version: Version) -> Tokenised:
    """Tokenise ``text`` (the directive line after its prefix), which starts at file offset ``base``.

    O(len(text)); each word's offsets are a ``range`` unless a quote or escape was dropped."""
    words: list[RawWord] = []
    separator = None
    comment_start = None
    dropped_start = None
    pos, n = 0, len(text)
    escaped_space_joins = version >= ESCAPED_SPACE_JOINS
    while True:
        while pos < n and text[pos] in _SPACE:
            pos += 1
        if pos >= n:
            break
        found = _separator_word(text, pos)
        if found:
            if not words:
                separator = found
            dropped_start = base + pos
            break
        if text[pos] == ":":
            return Tokenised(
                tuple(words), separator, None, None,
                (IssueKind.LEADING_COLON,
                 "a word starting with `:` makes sbatch stop with \"Unexpected `:`\";"
                 " the `:` hetjob separator only works on the command line,"
                 " use a `#SBATCH hetjob` line instead",
                 base + pos, base + pos + 1),
            )
        start = pos
        chars: list[str] = []
        offsets: list[int] = []
        quote = ""
        quote_start = 0
        hit_comment = False
        while pos < n and (quote or text[pos] not in _SPACE):
            if not quote:
                run = _PLAIN_RUN.match(text, pos)  # most words are plain: take them whole
                if run is not None:
                    end = run.end()
                    chars.append(run.group())
                    offsets.extend(range(base + pos, base + end))
                    pos = end
                    continue
            ch = text[pos]
            if ch == "\\":
                pos += 1
                if pos >= n:
                    break
                if text[pos] in _SPACE and not quote:
                    if escaped_space_joins and text[pos] == " ":
                        chars.append(" ")
                        offsets.append(base + pos)
                        pos += 1
                        continue
                    break  # the escaped blank still ends the word (before 24.05)
                chars.append(text[pos])
                offsets.append(base + pos)
                pos += 1
                continue
            if quote:
                if ch == quote:
                    quote = ""
                    pos += 1
                    continue
            elif ch in "\"'":
                quote = ch
                quote_start = pos
                pos += 1
                continue
            elif ch == "#":
                hit_comment = True
                break
            chars.append(ch)
            offsets.append(base + pos)
            pos += 1
        if quote:
            # sbatch dies here; keep what the user evidently meant as the word
            # so the options before it still read sensibly (no knock-on errors).
            if chars:
                words.append(RawWord("".join(chars), base + start, base + pos, _compact(offsets)))
            return Tokenised(
                tuple(words), separator, None, None,
                (IssueKind.UNMATCHED_QUOTE,
                 f"the `{quote}` opened here is never closed; sbatch stops with"
                 f" \"Unmatched `{quote}`\" (quotes cannot span lines)",
                 base + quote_start, base + n),
            )
        if not chars:
            # get_argument() returns NULL: the caller stops reading this line.
            if hit_comment:
                comment_start = base + pos
            else:
                dropped_start = base + start
            break
        words.append(RawWord("".join(chars), base + start, base + pos, _compact(offsets)))
        if hit_comment:
            comment_start = base + pos
            break
    return Tokenised(tuple(words), separator, comment_start, dropped_start, None)
