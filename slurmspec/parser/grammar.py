"""The one Lark parser for grammar/sbatch.lark, built on first use and cached.

Lark's ``cache=True`` keeps the built parser as a pickle under a predictable name
in the shared temporary folder, and unpickles whatever it finds there: on a login
node another user could plant that file. The cache lives in the user's own cache
folder instead (``$XDG_CACHE_HOME/slurmspec`` or ``~/.cache/slurmspec``), used only
when the folder and the file belong to the user and nobody else can write them;
otherwise the parser is built without a cache (slower to start, never unsafe).
"""

from __future__ import annotations

import os
import stat
from functools import lru_cache
from typing import Any


def _private(path: str) -> bool:
    """``path`` belongs to this user and no one else may write it."""
    info = os.lstat(path)
    return info.st_uid == os.getuid() and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH) \
        and not stat.S_ISLNK(info.st_mode)


def cache_file(version: str) -> str | None:
    """Where to keep the built parser for lark ``version``, or None when no safe place exists."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "slurmspec")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        if not _private(folder):
            return None
        path = os.path.join(folder, f"grammar-lark-{version}.pickle")
        if os.path.lexists(path) and not _private(path):
            return None
    except (OSError, ValueError):
        return None
    return path


@lru_cache(maxsize=1)
def parser() -> Any:
    # Imported here so that `import slurmspec` stays cheap (lark costs tens of ms).
    import lark

    return lark.Lark.open_from_package(
        "slurmspec.grammar",
        "sbatch.lark",
        parser="lalr",
        lexer="contextual",
        # The tree is flat and we read token positions directly.
        propagate_positions=False,
        maybe_placeholders=False,
        # Lark checks the grammar's hash inside the file and rebuilds it when the grammar changed.
        cache=cache_file(lark.__version__) or False,
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
