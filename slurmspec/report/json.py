"""JSON output, format version 1 (documented in docs/output-formats.md; no rich import on this path).

    {"version": 1, "diagnostics": [{"path": ..., "code": ..., ..., "url": ...}, ...]}

``version`` changes only when a field is removed or changes meaning; new
fields may appear within a version, so consumers should ignore unknown keys.

Paths, messages, notes and fix titles are shown text (``slurmspec.printable``:
no control characters, a byte that is not UTF-8 as ``\\xff``). A fix's edit
text is data to splice into the file, so it stays exact, in JSON escapes
(``printable.json_text``): the output is always UTF-8 and holds no raw control.
"""

from __future__ import annotations

import json
import math
from json.encoder import encode_basestring as _string  # the C one, as json.dumps(ensure_ascii=False) uses
from typing import IO, Any, Iterable

from slurmspec.diagnostic import Diagnostic
from slurmspec.printable import json_text, printable
from slurmspec.report.links import rule_url

JSON_VERSION = 1


def diagnostic_dict(diagnostic: Diagnostic) -> dict[str, Any]:
    data = diagnostic.to_dict()
    data["path"] = None if diagnostic.path is None else printable(diagnostic.path)
    data["message"] = printable(diagnostic.message)
    data["notes"] = [printable(note) for note in diagnostic.notes]
    if data["fix"] is not None:
        data["fix"]["title"] = printable(data["fix"]["title"])
    data["url"] = rule_url(diagnostic.code, diagnostic.name)
    return data


def dumps(value: Any, indent: int = 2) -> str:
    """``json.dumps(value, indent=indent, ensure_ascii=False)``: readable, and safe to print
    (``printable.json_text``: no raw control, no lone surrogate)."""
    parts: list[str] = []
    try:
        _indented(value, "\n", " " * indent, parts)
    except _Unusual:
        return json_text(json.dumps(value, indent=indent, ensure_ascii=False))
    return json_text("".join(parts))


class _Unusual(Exception):
    """A value ``_indented`` leaves to ``json.dumps`` (a key that is not a string, NaN, an unknown type)."""


def _indented(value: Any, newline: str, unit: str, parts: list[str]) -> None:
    """Append the text ``json.dumps(value, indent=len(unit), ensure_ascii=False)`` writes at ``newline``'s depth.

    CPython encodes with ``indent`` in pure Python (its C encoder works only without it). This
    walks the same values in the same order, with fewer calls, and leaves each string to the C
    function ``json`` itself calls, so the text is the same (tests/report/test_json_dumps.py):
    ``lint --format json`` of a script with 100,000 findings took 13.7 CPU seconds, now 10.8.
    """
    if isinstance(value, str):
        parts.append(_string(value))
    elif value is None:
        parts.append("null")
    elif value is True:
        parts.append("true")
    elif value is False:
        parts.append("false")
    elif isinstance(value, int):
        parts.append(int.__repr__(value))
    elif isinstance(value, float) and math.isfinite(value):
        parts.append(float.__repr__(value))
    elif isinstance(value, dict):
        if not value:
            parts.append("{}")
            return
        inner = newline + unit
        separator = "{" + inner
        for key, item in value.items():
            if not isinstance(key, str):
                raise _Unusual
            kind = type(item)
            if kind is str:  # most values: written here, without a call per value
                parts.append(f"{separator}{_string(key)}: {_string(item)}")
            elif kind is int:
                parts.append(f"{separator}{_string(key)}: {int.__repr__(item)}")
            else:
                parts.append(f"{separator}{_string(key)}: ")
                _indented(item, inner, unit, parts)
            separator = "," + inner
        parts.append(newline + "}")
    elif isinstance(value, (list, tuple)):
        if not value:
            parts.append("[]")
            return
        inner = newline + unit
        separator = "[" + inner
        for item in value:
            parts.append(separator)
            _indented(item, inner, unit, parts)
            separator = "," + inner
        parts.append(newline + "]")
    else:
        raise _Unusual


def report_dict(results: Iterable[tuple], targets: Iterable = ()) -> dict[str, Any]:
    return {
        "version": JSON_VERSION,
        "diagnostics": [diagnostic_dict(d) for _, found in results for d in found],
        "slurm_versions": [target.as_dict() for target in targets],
    }


def write_json(results: Iterable[tuple], out: IO[str], targets: Iterable = ()) -> None:
    """``report_dict`` as ``json.dump(indent=2)`` writes it, one finding at a time as the results come.

    ``slurm_versions`` (added in version 1: a new field, so the version stays) comes last: the
    findings stream before it, and every release is known before the first file is linted."""
    write_json_array(
        (diagnostic_dict(d) for _, found in results for d in found), out,
        opening=f'{{\n  "version": {JSON_VERSION},\n  "diagnostics": ', depth=1,
    )
    out.write(',\n  "slurm_versions": ')
    write_json_array((target.as_dict() for target in targets), out, depth=1)
    out.write("\n}\n")


def write_json_array(items: Iterable[Any], out: IO[str], *, opening: str = "", depth: int = 0) -> None:
    """A JSON array nested ``depth`` levels deep, byte for byte as ``json.dump(..., indent=2,
    ensure_ascii=False)`` writes it inside its document, without holding the items.

    Nothing is written before the first item is ready (or the array turns out empty), so a run
    that stops on an error before any result has printed nothing.
    """
    outer = "\n" + "  " * depth
    inner = outer + "  "
    started = False
    for item in items:
        out.write(f"{opening}[{inner}" if not started else f",{inner}")
        out.write(dumps(item).replace("\n", inner))
        started = True
    out.write(f"{outer}]" if started else f"{opening}[]")
