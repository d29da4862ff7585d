"""Spec values <-> ``#SBATCH`` option text, shared by the loader, the emitter and convert.

``option_text`` writes a key's value the way sbatch reads it; ``from_option``
is its inverse for convert and answers None when the spec cannot represent a
value (then convert keeps the option as a raw ``[sbatch].options`` word).
"""

from __future__ import annotations

import re
from typing import Any

from slurmspec.spec.fields import BOOL, INT, STR_INT, STR_LIST, Field

_DIGITS = re.compile(r"[1-9][0-9]*|0")
_FEATURE = re.compile(r"[A-Za-z0-9_.-]+")
_GPUS = re.compile(r"(?:([A-Za-z0-9_.-]+):)?([1-9][0-9]*)")
# DEL and the characters Python (and some editors) treat as line breaks.
_BREAKS = frozenset({0x7F, 0x85, 0x2028, 0x2029})


def normalise(field: Field, value: Any) -> Any:
    """The canonical form of a loaded value (so equal requests give equal specs)."""
    if field.type == STR_INT and isinstance(value, str) and _DIGITS.fullmatch(value):
        return int(value)
    if field.type == STR_LIST:
        if field.key == "mail_type":
            items = value.split(",") if isinstance(value, str) else list(value)
            return tuple(items)
        if isinstance(value, str):
            parts = value.split("&")
            if all(_FEATURE.fullmatch(p) for p in parts):
                return tuple(parts)
            return value
        return tuple(value)
    if isinstance(value, list):
        return tuple(value)
    return value


def option_text(field: Field, value: Any, gpu_type: str | None = None) -> str | None:
    """The argument of ``--option`` for this value; None for a bare flag."""
    if field.type == BOOL:
        return None
    if field.key in ("gpus_per_node", "gpus_per_task") and gpu_type:
        return f"{gpu_type}:{value}"
    if isinstance(value, tuple):
        return ("," if field.key == "mail_type" else "&").join(value)
    return str(value)


def from_option(field: Field, text: str | None) -> Any:
    """The spec value of ``--option=text`` or None when it has no typed spelling."""
    if field.type == BOOL:
        return True if text is None else None
    if text is None or not text or not header_safe(text) or shell_syntax(text):
        return None
    if field.type == INT:
        return int(text) if _DIGITS.fullmatch(text) and text != "0" else None
    if field.key in ("gpus_per_node", "gpus_per_task"):
        return None  # handled by gpu_from_option (the type goes to its own key)
    if field.type == STR_LIST and field.key == "mail_type":
        return normalise(field, text)
    if field.type == STR_LIST:
        return normalise(field, text)
    if field.type == STR_INT:
        return normalise(field, text)
    return text


def gpu_from_option(text: str | None) -> tuple[str | None, int] | None:
    """``a100:8`` -> ("a100", 8); ``8`` -> (None, 8); anything else None."""
    match = _GPUS.fullmatch(text or "")
    if not match:
        return None
    return match.group(1), int(match.group(2))


# Shell syntax sbatch does not expand in #SBATCH lines (it reads them without a
# shell): such a value is taken literally, which is never what the user meant
# (rule SB207 reports it in scripts).
_SHELL_SYNTAX = re.compile(r"\$\{[^}]*\}?|\$\([^)]*\)?|\$[A-Za-z_][A-Za-z0-9_]*|\$[0-9]|`[^`]*`?"
                           r"|(?:^|(?<=[=:,]))~[A-Za-z0-9_]*(?=/|$|,|:)")


def shell_syntax(text: str) -> str | None:
    """The first shell expansion in ``text`` (``$HOME``, ``$(...)``, backticks, ``~user``), or None."""
    match = _SHELL_SYNTAX.search(text)
    return match.group() if match else None


def header_safe(text: str) -> bool:
    """Can this text be one argument on an ``#SBATCH`` line? (no line breaks or control characters)."""
    return bool(text) and not any(ord(ch) < 32 and ch != "\t" or ord(ch) in _BREAKS or 0xD800 <= ord(ch) <= 0xDFFF
                                  for ch in text)
