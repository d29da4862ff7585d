"""The stack of compound constructs (``if``, ``for``, ``{``...) the command grouper is inside.

Every operation is O(1) amortised, however deep the nesting, so grouping stays
linear in the tokens (``if a; then`` repeated 380,000 times is 380,000 levels):

- closing a construct finds the innermost open one of its kinds through a list of
  positions per kind, not by walking the stack (a stray ``fi`` under thousands of
  open ``while`` loops would otherwise walk them all);
- ``context()`` — the kinds a command sits in, outermost first, which every command
  carries — names at most ``MAX_CONTEXT`` frames one by one, then each kind open
  deeper than that once. Membership (``"function" in context``, a loop among them)
  stays exact; only the order of frames past the first ``MAX_CONTEXT`` is lost.
  Without the cap each command would copy the whole stack: O(depth) time and
  memory per command, O(n²) for the script.
"""

from __future__ import annotations

MAX_CONTEXT = 64  # no real script nests this deep; past it, only which kinds are open is kept


class Nesting:
    __slots__ = ("frames", "_at", "_named", "_deep", "_context")

    def __init__(self) -> None:
        self.frames: list[list] = []  # [kind, in_case_arm]
        self._at: dict[str, list[int]] = {}  # kind -> stack positions of its open frames, ascending
        self._named: list[tuple[str, ...]] = []  # [i]: the kinds of frames 0..i, for i < MAX_CONTEXT (shared)
        self._deep: dict[str, int] = {}  # kind -> how many of its frames sit past MAX_CONTEXT
        self._context: tuple[str, ...] | None = ()

    def __bool__(self) -> bool:
        return bool(self.frames)

    @property
    def top(self) -> list | None:
        return self.frames[-1] if self.frames else None

    def push(self, kind: str) -> None:
        position = len(self.frames)
        self.frames.append([kind, False])
        self._at.setdefault(kind, []).append(position)
        if position < MAX_CONTEXT:
            self._named.append((self._named[-1] if self._named else ()) + (kind,))
        else:
            self._deep[kind] = self._deep.get(kind, 0) + 1
        self._context = None

    def close(self, kinds: tuple[str, ...]) -> None:
        """Close the innermost construct of one of ``kinds`` and all inside it; ignore a stray closer."""
        found = max((self._at[kind][-1] for kind in kinds if self._at.get(kind)), default=-1)
        if found < 0:
            return
        for frame in self.frames[found:]:
            kind = frame[0]
            self._at[kind].pop()  # frames above ``found`` are each kind's last positions
        for frame in self.frames[max(found, MAX_CONTEXT):]:
            self._deep[frame[0]] -= 1
        del self.frames[found:]
        del self._named[found:]
        self._context = None

    def context(self) -> tuple[str, ...]:
        """The kinds of the open constructs, outermost first (capped as the module says)."""
        if self._context is None:
            named = self._named[-1] if self._named else ()
            deep = tuple(kind for kind, count in self._deep.items() if count)
            self._context = named + deep if deep else named
        return self._context
