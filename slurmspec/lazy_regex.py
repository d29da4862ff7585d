"""``lazy_compile``: a module-level regular expression that is compiled on its first use.

Compiling a long case-insensitive alternation takes most of a millisecond, and
a cold ``slurmspec lint`` imports every rule; the rules that need these
patterns only for some scripts declare them with ``lazy_compile`` instead of
``re.compile``. Use it only where that was measured to matter: each call goes
through one more Python method.
"""

from __future__ import annotations

import re
from typing import Any


class LazyPattern:
    """The ``re.Pattern`` methods the rules use, compiling the pattern the first time one is called."""

    __slots__ = ("_source", "_flags", "_compiled")

    def __init__(self, source: str, flags: int = 0) -> None:
        self._source, self._flags, self._compiled = source, flags, None

    @property
    def compiled(self) -> re.Pattern:
        if self._compiled is None:
            self._compiled = re.compile(self._source, self._flags)
        return self._compiled

    @property
    def pattern(self) -> str:
        return self._source

    @property
    def flags(self) -> int:
        return self.compiled.flags

    def search(self, *args: Any) -> re.Match | None:
        return self.compiled.search(*args)

    def match(self, *args: Any) -> re.Match | None:
        return self.compiled.match(*args)

    def fullmatch(self, *args: Any) -> re.Match | None:
        return self.compiled.fullmatch(*args)

    def finditer(self, *args: Any):
        return self.compiled.finditer(*args)

    def findall(self, *args: Any) -> list:
        return self.compiled.findall(*args)

    def sub(self, *args: Any) -> str:
        return self.compiled.sub(*args)


def lazy_compile(source: str, flags: int = 0) -> LazyPattern:
    return LazyPattern(source, flags)
