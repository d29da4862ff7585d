"""``@frozen`` and ``@define``: attrs' own, with one shared ``__repr__`` instead of one compiled per class.

attrs writes out and compiles the source of a ``__repr__`` for each class as it
is defined. With a hundred model classes imported on every run, that was a
tenth of a cold ``slurmspec lint``. The shared method prints exactly what
attrs' would (``Span(start=0, end=3, ...)``, honouring ``field(repr=False)``
and ``field(repr=callable)``); a class that asks for ``repr=False`` or writes
its own ``__repr__`` keeps that. ``as_tuple`` is the ``converter=tuple`` of the
models as a plain function: attrs inspects a converter's signature, which for
the builtin ``tuple`` takes ten times as long.
"""

from __future__ import annotations

from typing import Any, Iterable

import attrs


def as_tuple(items: Iterable[Any]) -> tuple:
    return tuple(items)


def _repr(self) -> str:
    shown = []
    for field in type(self).__attrs_attrs__:
        how = field.repr
        if how is False:
            continue
        value = getattr(self, field.name)
        shown.append(f"{field.name}={how(value) if callable(how) else repr(value)}")
    return f"{type(self).__qualname__.rsplit('>.', 1)[-1]}({', '.join(shown)})"


def _shared_repr(make, name: str):
    def decorate(maybe_cls=None, /, **options):
        def wrap(cls):
            if options.get("repr", True) is False or "__repr__" in cls.__dict__:
                return make(cls, **options)  # no repr, or the class's own (attrs keeps it)
            made = make(cls, **{**options, "repr": False})
            made.__repr__ = _repr
            return made

        return wrap if maybe_cls is None else wrap(maybe_cls)

    decorate.__name__, decorate.__doc__ = name, f"``attrs.{name}`` with the shared ``__repr__``."
    return decorate


frozen = _shared_repr(attrs.frozen, "frozen")
define = _shared_repr(attrs.define, "define")
