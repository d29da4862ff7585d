"""Path globs (``per-file-ignores``, ``exclude``, ``.gitignore``), matched in linear time.

The language, as git's ``.gitignore`` and ruff's globs have it:

- ``/`` separates folders; ``*`` matches any run of characters and ``?`` one
  character, within one folder; ``[abc]``, ``[a-z]``, ``[!a]`` match one
  character of a set, within one folder;
- ``**`` as a whole component spans folders: ``**/x`` and ``a/**/x`` any number
  of them (none too), a trailing ``a/**`` everything below ``a``; ``**`` inside a
  component (``**.sh``) is a plain ``*``, as in git.

Why not one regular expression: Python's ``re`` backtracks, so ``*a*a*a*b`` tries
every way of cutting a name, O(n^k) for k stars, and ``**/**/**/...`` doubled in
time with each ``**`` (26 of them took 1.4 s per file). Here a glob is compiled
once into whole-component parts, and matching commits to the leftmost place for
each part, which is enough for stars that match anything within their reach:

- within a component, ``c0*c1*...*ck`` is ``c0 (?>.*?c1) ... (?>.*?c(k-1)) .*ck``:
  each middle chunk at its leftmost occurrence (an atomic group: never tried
  again), only the last one aligned with the end -- O(length x pattern);
- across components, the groups between ``**`` take the leftmost run of
  components they match, the first anchored at the start, the last at the end --
  O(components x pattern components) component matches.

A malformed glob (a set such as ``[z-a]``, a glob longer than any path) raises
``GlobError``, which the configuration reports with the key it came from.
"""

from __future__ import annotations

import re
from functools import lru_cache

# No path is longer (Linux PATH_MAX); a longer glob could match nothing, and its parts would cost.
MAX_GLOB = 4096
_ANY_DEPTH = "**"


class GlobError(ValueError):
    """A glob that cannot be read (a malformed ``[...]`` set, or one longer than any path)."""


class Glob:
    """A compiled glob: ``fullmatch(path)`` says whether the ``/``-separated ``path`` matches it."""

    __slots__ = ("pattern", "_whole", "_head", "_middle", "_tail")

    def __init__(self, pattern: str) -> None:
        if len(pattern) > MAX_GLOB:
            raise GlobError(f"glob longer than {MAX_GLOB} characters (longer than any path)")
        self.pattern = pattern
        parts = pattern.split("/")
        chunked = [None if part == _ANY_DEPTH else _chunks(part, pattern) for part in parts]
        self._whole = None
        if all(chunks is not None and len(chunks) <= 2 for chunks in chunked):
            # At most one star per component and none spanning folders: each star is held
            # between two '/', so one regular expression cannot backtrack more than O(n).
            self._whole = re.compile("/".join("[^/]*".join(chunks) for chunks in chunked), re.DOTALL)
            return
        groups: list[list[re.Pattern[str]]] = [[]]
        for chunks in chunked:
            if chunks is None:
                if groups[-1] or len(groups) == 1:  # "**/**" is one "**"
                    groups.append([])
            else:
                groups[-1].append(_component(chunks))
        self._head, self._middle = groups[0], groups[1:-1]
        self._tail = groups[-1] if len(groups) > 1 else []
        if len(parts) > 1 and parts[-1] == _ANY_DEPTH and not self._tail:
            # "a/**": at least one component below "a" (as the old `a/.*`, which never matched "a" itself).
            self._tail = [_ANYTHING]
        if len(groups) == 1:  # no "**": the components one for one
            self._middle, self._tail = None, None

    def fullmatch(self, path: str) -> bool:
        if self._whole is not None:
            return self._whole.fullmatch(path) is not None
        names = path.split("/")
        head, tail = self._head, self._tail
        if tail is None:
            return len(names) == len(head) and _all_match(head, names, 0)
        if len(names) < len(head) + len(tail) or not _all_match(head, names, 0):
            return False
        end = len(names) - len(tail)
        if not _all_match(tail, names, end):
            return False
        at = len(head)
        for group in self._middle:  # each at its leftmost place: a later one leaves less room
            found = _leftmost(group, names, at, end)
            if found < 0:
                return False
            at = found + len(group)
        return True

    def __repr__(self) -> str:
        return f"Glob({self.pattern!r})"


_ANYTHING = re.compile(r".*", re.DOTALL)


def _all_match(group: list[re.Pattern[str]], names: list[str], start: int) -> bool:
    return all(part.fullmatch(names[start + i]) for i, part in enumerate(group))


def _leftmost(group: list[re.Pattern[str]], names: list[str], start: int, end: int) -> int:
    """The first index from ``start`` where ``group`` matches whole components ending by ``end``; -1 if none."""
    for at in range(start, end - len(group) + 1):
        if _all_match(group, names, at):
            return at
    return -1


def _component(chunks: list[str]) -> re.Pattern[str]:
    """One component's expression: its chunks between stars, each middle one committed to leftmost."""
    if len(chunks) == 1:
        return re.compile(chunks[0], re.DOTALL)
    middle = "".join(f"(?>[^/]*?{chunk})" for chunk in chunks[1:-1] if chunk)
    return re.compile(f"{chunks[0]}{middle}[^/]*{chunks[-1]}", re.DOTALL)


def _chunks(part: str, pattern: str) -> list[str]:
    """The expressions of one component's runs between stars (``["a", "b"]`` for ``a*b``)."""
    chunks: list[str] = [""]
    i = 0
    while i < len(part):
        ch = part[i]
        if ch == "*":
            while i < len(part) and part[i] == "*":  # "**" inside a component is one "*"
                i += 1
            chunks.append("")
            continue
        if ch == "?":
            chunks[-1] += "[^/]"
        elif ch == "[":
            # A "]" right after "[" (or "[!") is a member, as in fnmatch: "[]a]", "[!]a]".
            close = part.find("]", (i + 3) if part.startswith(("[!", "[^"), i) else i + 2)
            if close == -1:
                chunks[-1] += re.escape(ch)  # an unclosed "[" is itself
            else:
                chunks[-1] += _char_set(part[i + 1:close], pattern)
                i = close + 1
                continue
        else:
            chunks[-1] += re.escape(ch)
        i += 1
    return chunks


def _char_set(body: str, pattern: str) -> str:
    negated = body.startswith(("!", "^"))
    if negated:
        body = body[1:]
    if not body:
        raise GlobError(f"empty `[]` set in glob {pattern!r}")
    escaped = body.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    source = f"[^/{escaped}]" if negated else f"[{escaped}]"  # a set stays within one folder
    try:
        re.compile(source)
    except re.error as exc:
        raise GlobError(f"bad `[{body}]` set in glob {pattern!r}: {exc.msg}") from None
    return source


@lru_cache(maxsize=1024)
def compile_glob(pattern: str) -> Glob:
    """The compiled glob (each distinct one is compiled once); ``GlobError`` when it is malformed."""
    return Glob(pattern)
