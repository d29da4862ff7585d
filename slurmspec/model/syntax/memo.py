"""``per_script``: a fact computed once per parsed ``Script`` object, kept for as long as it lives.

Rules get ``ctx.shared`` for that; this is for the model's and the fixes' own helpers,
which are handed a script, not a context. Keyed by identity with a weak reference
that drops the entry when the script goes (a ``Script`` hashes by value: hashing a
100,000-line script on every question would itself cost O(n)).
"""

from __future__ import annotations

import weakref
from typing import Callable, TypeVar

T = TypeVar("T")


def per_script(build: Callable[[object], T]) -> Callable[[object], T]:
    cache: dict[int, tuple[weakref.ref, T]] = {}

    def of(script) -> T:
        key = id(script)
        hit = cache.get(key)
        if hit is not None and hit[0]() is script:
            return hit[1]
        value = build(script)
        cache[key] = (weakref.ref(script, lambda _ref, key=key: cache.pop(key, None)), value)
        return value

    of.__doc__ = build.__doc__
    return of
