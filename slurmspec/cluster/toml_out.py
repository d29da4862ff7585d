"""A small TOML writer for profiles: tables, arrays of tables, and scalar or string-list values.

``None`` values are left out (a missing key means unset or unlimited), so a
profile shows only what the cluster sets.
"""

from __future__ import annotations

from typing import Any, Iterable


class _Document:
    def __init__(self, comment: str) -> None:
        self._lines = [f"# {comment}", ""]

    def pair(self, key: str, value: Any) -> None:
        if value is not None:
            self._lines.append(f"{key} = {_value(value)}")

    def pairs(self, items: Iterable[tuple[str, Any]]) -> None:
        for key, value in items:
            self.pair(key, value)

    def table(self, name: str) -> None:
        self._lines.extend(("", f"[{name}]"))

    def array_table(self, name: str) -> None:
        self._lines.extend(("", f"[[{name}]]"))

    def text(self) -> str:
        return "\n".join(self._lines) + "\n"


def document(comment: str) -> _Document:
    return _Document(comment)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def _string(text: str) -> str:
    """A TOML basic string: quote, backslash and control characters escaped."""
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif ord(char) < 32 or ord(char) == 127:
            out.append(f"\\u{ord(char):04X}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'
