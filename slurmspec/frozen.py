"""``@frozen`` and ``@define``: attrs' own, with shared ``__repr__``, ``__eq__`` and ``__hash__``.

attrs writes out and compiles the source of a ``__repr__``, an ``__eq__`` and
(for a frozen class) a ``__hash__`` for each class as it is defined. With a
hundred model classes imported on every run, compiling them was about a fifth
of a cold ``slurmspec lint``. The shared methods do what attrs' would:

- ``__repr__`` prints ``Span(start=0, end=3, ...)``, honouring
  ``field(repr=False)`` and ``field(repr=callable)``;
- ``__eq__`` compares instances of the same class field by field (``NotImplemented``
  for another class), leaving out ``field(eq=False)`` and comparing
  ``key(value)`` for ``field(eq=key)``;
- ``__hash__`` (frozen classes) hashes the fields ``__eq__`` compares, or those
  ``field(hash=...)`` picks; a mutable class stays unhashable, as with attrs.

A class that asks for ``repr=False``/``eq=False``, for ordering, ``unsafe_hash``
or ``cache_hash``, or that writes its own method, gets attrs' behaviour instead.
``as_tuple`` and ``as_frozenset`` are ``converter=tuple``/``frozenset`` as plain functions, and
``to(Kind)`` an enum's ``converter=Kind``: attrs reads every converter's
signature, which for a builtin or a class means parsing its text signature with
``tokenize`` (compiling its long pattern on a cold run, ten times a function's cost).
"""

from __future__ import annotations

from operator import attrgetter
from enum import Enum
from typing import Any, Callable, Iterable, TypeVar

import attrs

from slurmspec import code_cache

code_cache.install()  # before the first class below: attrs compiles their methods through the cache


E = TypeVar("E", bound=Enum)


def as_tuple(items: Iterable[Any]) -> tuple:
    return tuple(items)


def as_frozenset(items: Iterable[Any]) -> frozenset:
    return frozenset(items)


def to(kind: type[E]) -> Callable[[Any], E]:
    """``converter=to(Severity)``: the member of ``kind`` a value names, as ``Severity(value)`` does."""

    def convert(value: Any) -> E:
        return kind(value)

    convert.__qualname__ = f"to({kind.__name__})"
    return convert


def _repr(self) -> str:
    shown = []
    for field in type(self).__attrs_attrs__:
        how = field.repr
        if how is False:
            continue
        value = getattr(self, field.name)
        shown.append(f"{field.name}={how(value) if callable(how) else repr(value)}")
    return f"{type(self).__qualname__.rsplit('>.', 1)[-1]}({', '.join(shown)})"


_EQ_KEYS: dict[type, Callable[[Any], tuple]] = {}
_HASH_KEYS: dict[type, Callable[[Any], tuple]] = {}


def _key_of(fields: list) -> Callable[[Any], tuple]:
    """A function giving the values of ``fields`` (each through its ``eq`` key, if any) as a tuple."""
    if any(field.eq_key is not None for field in fields):
        pairs = [(field.name, field.eq_key) for field in fields]
        return lambda obj: tuple(getattr(obj, name) if key is None else key(getattr(obj, name))
                                 for name, key in pairs)
    if len(fields) > 1:
        return attrgetter(*(field.name for field in fields))  # a tuple, built in C
    if fields:
        one = attrgetter(fields[0].name)
        return lambda obj: (one(obj),)
    return lambda obj: ()


def _eq_key(cls: type) -> Callable[[Any], tuple]:
    key = _EQ_KEYS.get(cls)
    if key is None:
        key = _EQ_KEYS[cls] = _key_of([field for field in cls.__attrs_attrs__ if field.eq])
    return key


def _eq(self, other: object) -> bool:
    if other.__class__ is not self.__class__:
        return NotImplemented
    key = _EQ_KEYS.get(self.__class__) or _eq_key(self.__class__)
    return key(self) == key(other)


def _hash(self) -> int:
    cls = self.__class__
    key = _HASH_KEYS.get(cls)
    if key is None:
        hashed = [field for field in cls.__attrs_attrs__ if (field.eq if field.hash is None else field.hash)]
        key = _HASH_KEYS[cls] = _key_of(hashed)
    return hash((cls.__qualname__, key(self)))


_OWN_HASHING = ("order", "unsafe_hash", "hash", "cache_hash")


def _shares_eq(cls: type, options: dict) -> bool:
    return (options.get("eq", True) is True and not any(options.get(name) for name in _OWN_HASHING)
            and "__eq__" not in cls.__dict__ and "__hash__" not in cls.__dict__)


def _shared_methods(make, name: str, frozen_by_default: bool):
    def decorate(maybe_cls=None, /, **options):
        def wrap(cls):
            asked, shared = dict(options), {}
            if options.get("repr", True) is not False and "__repr__" not in cls.__dict__:
                asked["repr"], shared["__repr__"] = False, _repr
            if _shares_eq(cls, options):
                asked["eq"], shared["__eq__"] = False, _eq
                # attrs: a frozen class with eq hashes by value; a mutable one is unhashable.
                shared["__hash__"] = _hash if options.get("frozen", frozen_by_default) else None
            made = make(cls, **asked)
            for method, function in shared.items():
                setattr(made, method, function)
            return made

        return wrap if maybe_cls is None else wrap(maybe_cls)

    decorate.__name__ = name
    decorate.__doc__ = f"``attrs.{name}`` with the shared ``__repr__``, ``__eq__`` and ``__hash__``."
    return decorate


frozen = _shared_methods(attrs.frozen, "frozen", True)
define = _shared_methods(attrs.define, "define", False)
