"""Tokenise script text with grammar/sbatch.lark's LALR(1) tables: no lark, no pickle at run time.

``slurmspec/parser/tables.py`` is generated from the grammar by
``tools/generate_parser.py`` (lark builds the tables there, never here). This
module is the driver lark would run with them: a contextual lexer (in each
parser state, only the terminals that state accepts, first matching group
wins) feeding a shift/reduce loop. Importing lark cost tens of milliseconds on
every cold start, and its parser cache was a pickle read back from disk: a
file someone else could plant is code they run as you.
"""

from __future__ import annotations

import re
from typing import Callable, Iterator, Optional

from slurmspec.parser import tables

_END = "$END"
_matchers: Optional[list] = None


def _state_matchers() -> list[Optional[Callable]]:
    """``pattern.match`` for each parser state (None where only the end of input fits), compiled once."""
    global _matchers
    if _matchers is None:
        compiled = [re.compile(pattern).match for pattern in tables.PATTERNS]
        _matchers = [None if index is None else compiled[index] for index in tables.STATE_PATTERN]
    return _matchers


class GrammarError(ValueError):
    """The text does not fit the grammar. The grammar accepts every string, so this is a bug."""


def _feed(stack: list[int], symbol: str) -> None:
    """One LALR step for ``symbol``: reduce while the table says so, then shift (or accept at the end)."""
    actions, rules = tables.ACTIONS, tables.RULES
    while True:
        action = actions[stack[-1]].get(symbol)
        if action is None:
            raise GrammarError(f"grammar/sbatch.lark does not expect {symbol} in state {stack[-1]}")
        if action >= 0:
            stack.append(action)
            return
        origin, size = rules[-1 - action]
        if size:
            del stack[-size:]
        stack.append(actions[stack[-1]][origin])
        if symbol == _END and stack[-1] == tables.END_STATE:
            return


# (stack, symbol) -> stack after the step: what _feed does depends on nothing else, and this
# grammar's stack stays a few states deep, so after the first lines every step is one lookup.
_steps: dict[tuple[tuple[int, ...], str], tuple[int, ...]] = {}
_MAX_STEPS = 4096  # a bound, should a grammar ever grow deep stacks


def _step(stack: tuple[int, ...], symbol: str) -> tuple[int, ...]:
    known = _steps.get((stack, symbol))
    if known is None:
        grown = list(stack)
        _feed(grown, symbol)
        known = tuple(grown)
        if len(_steps) < _MAX_STEPS:
            _steps[stack, symbol] = known
    return known


def iter_tokens(text: str) -> Iterator[tuple[str, str, int]]:
    """The tokens of ``text`` as (type, text, start offset), in order, covering the text exactly.

    The grammar accepts every string, so this never raises for valid ``str`` input.
    """
    if not text:
        return
    matchers = _state_matchers()
    stack: tuple[int, ...] = (tables.START_STATE,)
    position, end = 0, len(text)
    while position < end:
        match = matchers[stack[-1]]
        found = match(text, position) if match is not None else None
        if found is None:
            raise GrammarError(f"grammar/sbatch.lark matches nothing at offset {position} (state {stack[-1]})")
        kind = found.lastgroup
        stack = _step(stack, kind)
        token = found.group()
        yield kind, token, position
        position += len(token)
    _step(stack, _END)


def line_tokens(text: str) -> list[tuple[str, str, int]]:
    """``iter_tokens`` as a list."""
    return list(iter_tokens(text))
