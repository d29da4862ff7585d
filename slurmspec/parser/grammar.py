"""The one Lark parser for grammar/sbatch.lark, built on first use and cached."""

from __future__ import annotations

from functools import lru_cache
from typing import Any


@lru_cache(maxsize=1)
def parser() -> Any:
    # Imported here so that `import slurmspec` stays cheap (lark costs tens of ms).
    from lark import Lark

    return Lark.open_from_package(
        "slurmspec.grammar",
        "sbatch.lark",
        parser="lalr",
        lexer="contextual",
        # The tree is flat and we read token positions directly.
        propagate_positions=False,
        maybe_placeholders=False,
        cache=True,
    )


def line_tokens(text: str) -> list[tuple[str, str, int]]:
    """Parse ``text`` and return its tokens as (type, text, start offset).

    The grammar accepts every string, so this never raises for valid ``str``
    input; tokens are returned in source order and cover the text exactly.
    """
    if not text:
        return []
    tree = parser().parse(text)
    tokens = []
    for child in tree.children:  # shebang / line / last_line nodes
        for token in child.children:
            tokens.append((token.type, str(token), token.start_pos))
    return tokens
