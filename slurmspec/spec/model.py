"""The loaded job spec: sections of normalised values plus the typed model objects of option values.

Equality compares the normalised values only (``typed`` holds the parser's
objects for the same text, so it adds no information), which is what
``convert(emit(spec)) == spec`` means.
"""

from __future__ import annotations

from typing import Any, Iterator

import attrs

from slurmspec.frozen import as_tuple, frozen


@frozen
class Section:
    name: str
    values: tuple[tuple[str, Any], ...] = attrs.field(converter=as_tuple)
    # key -> the typed value the script parser would build (slurmspec.model.values)
    typed: dict[str, Any] = attrs.field(factory=dict, eq=False, hash=False, repr=False)

    def get(self, key: str, default: Any = None) -> Any:
        for name, value in self.values:
            if name == key:
                return value
        return default

    def __contains__(self, key: str) -> bool:
        return any(name == key for name, _ in self.values)

    def as_dict(self) -> dict[str, Any]:
        return dict(self.values)


@frozen
class Spec:
    sections: tuple[Section, ...] = attrs.field(converter=as_tuple)

    def section(self, name: str) -> Section | None:
        for section in self.sections:
            if section.name == name:
                return section
        return None

    def get(self, section: str, key: str, default: Any = None) -> Any:
        found = self.section(section)
        return default if found is None else found.get(key, default)

    def all(self, name: str) -> Iterator[Section]:
        return (s for s in self.sections if s.name == name)

    def replace(self, name: str, section: Section | None) -> "Spec":
        """This spec with section ``name`` replaced (or dropped when None)."""
        kept = [s for s in self.sections if s.name != name]
        if section is not None:
            kept.append(section)
        return Spec(sort_sections(kept))

    def to_data(self) -> dict[str, Any]:
        """Plain TOML-shaped data (tables as dicts, tuples as lists)."""
        data: dict[str, Any] = {}
        for section in self.sections:
            table = {key: _plain(value) for key, value in section.values}
            if section.name == "hetjob":
                data.setdefault("hetjob", []).append(table)
            else:
                data[section.name] = table
        return data


def _plain(value: Any) -> Any:
    if isinstance(value, Table):
        return {k: _plain(v) for k, v in value}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


class Table(tuple):
    """A nested table's (key, value) pairs (a tuple, so specs stay hashable and comparable)."""

    def get(self, key: str, default: Any = None) -> Any:
        for name, value in self:
            if name == key:
                return value
        return default


def sort_sections(sections: list[Section]) -> tuple[Section, ...]:
    from slurmspec.spec.fields import SECTIONS

    order = {name: i for i, name in enumerate(SECTIONS)}
    return tuple(sorted(sections, key=lambda s: order[s.name]))  # stable: hetjobs keep their order
