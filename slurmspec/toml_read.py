"""``loads_toml``: the one TOML reader for settings files (configuration, cluster profile, site policy, job spec).

tomllib (tomli before Python 3.11) parses arrays and inline tables by
recursion, so ``x = [[[[...`` a few hundred levels deep raises
``RecursionError``, which no caller expects: a traceback and exit 1 -- for
``emit``, "written, with an error" -- instead of exit 2 naming the file.
Table headers nest without recursion (``[a.a.a.a...]``), and the checkers that
walk the document would then recurse instead. No settings file needs more than
a handful of levels, so a document nested deeper than ``MAX_DEPTH``, either
way, is refused as invalid TOML (``TooDeep`` is a ``ValueError``, as
``TOMLDecodeError`` is: every caller already turns those into its own error).
"""

from __future__ import annotations

from typing import Any

# Deeper than any settings file slurmspec reads (a [policy] table is 3 levels), far below the
# interpreter's recursion limit for the readers that walk the document.
MAX_DEPTH = 32


class TooDeep(ValueError):
    """A TOML document nested deeper than ``MAX_DEPTH``."""


def toml_module():
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    return tomllib


def loads_toml(text: str) -> dict[str, Any]:
    """``tomllib.loads(text)``; raises ``ValueError`` (``TOMLDecodeError``, ``TooDeep``) for what is not a settings file."""
    try:
        document = toml_module().loads(text)
    except RecursionError:
        raise TooDeep(f"arrays or tables nested more than {MAX_DEPTH} levels deep") from None
    if _deeper_than(document, MAX_DEPTH):
        raise TooDeep(f"arrays or tables nested more than {MAX_DEPTH} levels deep")
    return document


def _deeper_than(document: dict[str, Any], limit: int) -> bool:
    # Iterative, so the check cannot itself run out of stack.
    pending: list[tuple[Any, int]] = [(document, 1)]
    while pending:
        value, depth = pending.pop()
        if depth > limit:
            return True
        children = value.values() if isinstance(value, dict) else value
        pending.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False
