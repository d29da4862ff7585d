"""Write a spec as TOML text (the standard library reads TOML but does not write it).

Only the shapes a spec has are needed: tables of strings, integers, booleans,
string lists, one level of inline table, and the ``[[hetjob]]`` array.
A multi-line string becomes a literal ``'''`` block when it can (readable
bodies); anything with control characters or ``'''`` is an escaped basic string.
"""

from __future__ import annotations

import re
from typing import Any

from slurmspec.spec.model import Spec, Table

_BARE = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES = {"\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r", '"': '\\"', "\\": "\\\\"}


def to_toml(spec: Spec) -> str:
    out: list[str] = []
    for section in spec.sections:
        out.append(f"[[{section.name}]]" if section.name == "hetjob" else f"[{section.name}]")
        for key, value in section.values:
            out.append(f"{_key(key)} = {_value(value, multiline=True)}")
        out.append("")
    return "\n".join(out)


def _key(key: str) -> str:
    return key if _BARE.fullmatch(key) else _basic(key)


def _value(value: Any, multiline: bool = False) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _string(value, multiline)
    if isinstance(value, Table):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value) + " }"
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def _string(text: str, multiline: bool) -> str:
    literal_ok = "'''" not in text and not text.endswith("'") and not any(
        (ord(c) < 32 and c not in "\n\t") or ord(c) == 127 for c in text)
    if multiline and "\n" in text and literal_ok:
        # A newline right after ''' is trimmed by TOML, so one is added to keep a leading one.
        return "'''\n" + text + "'''"
    return _basic(text)


def _basic(text: str) -> str:
    out = []
    for ch in text:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 32 or ord(ch) == 127:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'
