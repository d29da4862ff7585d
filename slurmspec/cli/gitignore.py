"""``.gitignore`` as git reads it, for the common cases, so folder discovery skips what git ignores.

What is understood (``gitignore(5)``):

- one pattern a line; blank lines and ``#`` comments skipped; ``\\#`` and ``\\!``
  start a pattern with a literal ``#`` or ``!``; trailing spaces dropped;
- ``!pattern`` re-includes what an earlier pattern excluded (the last matching
  pattern wins, across every file that applies);
- a trailing ``/`` matches folders only;
- a ``/`` at the start or in the middle anchors the pattern to the folder of
  the ``.gitignore``; without one it matches a name at any depth;
- ``*``, ``?``, ``[...]`` within one path component; ``**/``, ``/**/`` and a
  trailing ``/**`` across folders;
- a ``.gitignore`` applies to its folder's subtree, a deeper one taking
  precedence; ``.git/info/exclude`` of the repository applies everywhere,
  below every ``.gitignore``.

As in git, nothing inside an ignored folder can be re-included: the walk never
enters it. Patterns are turned into regular expressions by the configuration's
glob matcher, which matches in linear time.
"""

from __future__ import annotations

import os
from typing import Iterable, NamedTuple

from slurmspec.settings.config import GlobError, glob_regex

# .gitignore files larger than this are not read: no real one comes near it.
_MAX_BYTES = 1 << 20


class _Pattern(NamedTuple):
    base: str  # absolute folder the pattern is relative to
    regex: object  # compiled pattern
    anchored: bool  # matched against the path below ``base``, else against the name
    folders_only: bool
    negated: bool


def parse(text: str, base: str) -> list[_Pattern]:
    """The patterns of one ignore file whose folder is ``base``."""
    patterns = []
    for raw in text.splitlines():
        line = raw.rstrip("\r")
        stripped = line.rstrip(" ")
        if stripped.endswith("\\") and len(stripped) < len(line):
            stripped += " "  # "foo\ " keeps its escaped space
        line = stripped
        if not line or line.startswith("#"):
            continue
        negated = line.startswith("!")
        if negated:
            line = line[1:]
        elif line.startswith(("\\#", "\\!")):
            line = line[1:]
        folders_only = line.endswith("/")
        line = line.rstrip("/")
        if not line:
            continue
        anchored = "/" in line
        line = line.lstrip("/")
        try:
            regex = glob_regex(line.replace("\\ ", " "))
        except GlobError:
            continue  # a malformed set ("[z-a]") matches nothing, as in git
        patterns.append(_Pattern(base, regex, anchored, folders_only, negated))
    return patterns


def read(path: str, base: str) -> list[_Pattern]:
    """The patterns of the ignore file at ``path`` (none when it is missing or unreadable)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(_MAX_BYTES + 1)
    except OSError:
        return []
    if len(data) > _MAX_BYTES:
        return []
    return parse(data.decode("utf-8", "surrogateescape"), base)


def ignored(patterns: Iterable[_Pattern], path: str, is_folder: bool) -> bool:
    """Whether git ignores ``path`` (absolute): the last pattern that matches it decides."""
    verdict = False
    name = os.path.basename(path)
    for pattern in patterns:
        if pattern.folders_only and not is_folder:
            continue
        relative = os.path.relpath(path, pattern.base)
        if relative.startswith(".."):
            continue
        target = relative.replace(os.sep, "/") if pattern.anchored else name
        if pattern.regex.fullmatch(target):
            verdict = not pattern.negated
    return verdict


def repository_root(folder: str) -> str | None:
    """The top of the git work tree ``folder`` is in (the nearest folder above holding ``.git``), or None."""
    current = os.path.abspath(folder)
    while True:
        if os.path.exists(os.path.join(current, ".git")):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def inherited(folder: str) -> list[_Pattern]:
    """The patterns that apply at ``folder`` before its own ``.gitignore``: the repository's
    ``.git/info/exclude``, then each ``.gitignore`` from the repository's top down to ``folder``'s
    parent. Outside a repository, none (the walk still reads the ``.gitignore`` files it meets)."""
    folder = os.path.abspath(folder)
    top = repository_root(folder)
    if top is None:
        return []
    patterns = read(os.path.join(top, ".git", "info", "exclude"), top)
    chain = []
    current = os.path.dirname(folder)
    while len(current) >= len(top):
        chain.append(current)
        if current == top:
            break
        current = os.path.dirname(current)
    for above in reversed(chain):
        patterns.extend(read(os.path.join(above, ".gitignore"), above))
    return patterns
