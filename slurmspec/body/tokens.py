"""The records the shell lexer (``slurmspec.body.shell``) produces: words, operators, and a stream of them.

Offsets are absolute in the script; ``TokenStream`` lets the command grouper read
ahead and forget, so a whole body is never held as one list of tokens.
"""

from __future__ import annotations

from typing import Iterator, Sequence, Union

from slurmspec.frozen import frozen

__all__ = ["Word", "Op", "Token", "TokenStream", "made"]


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


def made(local: list[tuple[str, int, int, tuple]], base: int, posmap: Sequence[int] | None) -> list[Token]:
    """The tokens of one batch of the lexer's raw tuples (kind, start, end, data), offsets made absolute."""
    if posmap is None:  # offsets are base + i: no per-token call (every word of every body comes here)
        return [Op(data[0], data[1], base + s, base + e) if kind == "op"
                else Word(data[0], data[1], base + s, base + e, data[2], data[3])
                for kind, s, e, data in local]
    return [_absolute(kind, s, e, data, base, posmap) for kind, s, e, data in local]


def _absolute(kind: str, s: int, e: int, data: tuple, base: int, posmap: Sequence[int]) -> Token:
    start = posmap[s] if s < len(posmap) else (posmap[-1] + 1 if posmap else base)
    end = posmap[e - 1] + 1 if 0 < e <= len(posmap) else start
    end = max(end, start)
    if kind == "op":
        return Op(data[0], data[1], start, end)
    return Word(data[0], data[1], start, end, data[2], data[3])
