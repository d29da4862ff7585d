"""Plain-data (JSON-ready) views of the model, for `slurmspec parse --format json`."""

from __future__ import annotations

from typing import Any

import attrs

from slurmspec.version import format_version


def _plain(value: Any) -> Any:
    """Typed values and body objects as JSON-ready data (Spans become dicts)."""
    if attrs.has(type(value)):
        return {
            field.name: _plain(getattr(value, field.name))
            for field in attrs.fields(type(value))
            if field.repr is not False
        }
    if isinstance(value, (list, tuple, frozenset, set)):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


def directive_to_dict(directive) -> dict[str, Any]:
    typed = directive.typed
    return {
        "option": directive.option.long,
        "spelling": directive.spelling,
        "raw": directive.raw,
        "value": directive.value,
        "span": directive.span.to_dict(),
        "value_span": None if directive.value_span is None else directive.value_span.to_dict(),
        "component": directive.component,
        "ignored": directive.ignored,
        "typed": None if typed is None else _plain(typed.value),
        "problems": [] if typed is None else [_plain(p) for p in typed.problems],
    }


def request_to_dict(request) -> dict[str, Any]:
    return {
        setting.name: {
            "value": _plain(setting.value),
            "raw": setting.raw,
            "line": setting.directive.span.line,
            "inherited": setting.inherited,
            "overrides_lines": [d.span.line for d in setting.overridden],
        }
        for setting in request.settings
    }


def script_to_dict(script) -> dict[str, Any]:
    shebang = script.shebang
    body = script.body
    return {
        "path": script.path,
        "slurm_version": format_version(script.version),
        "shebang": None if shebang is None else shebang.text,
        "line_count": script.index.line_count,
        "header_end": script.span(script.header_end, script.header_end).to_dict(),
        "directive_lines": [
            {
                "line": d.line.number,
                "prefix": d.prefix,
                "words": [w.value for w in d.words],
                "in_header": d.in_header,
                "component": d.component,
                "separator": d.separator,
            }
            for d in script.directive_lines
        ],
        "directives": [directive_to_dict(d) for d in script.directives],
        "components": [
            {"index": c.index, "request": request_to_dict(c.request)} for c in script.components
        ],
        "issues": [
            {"kind": i.kind, "message": i.message, "span": i.span.to_dict(), "ignored": i.ignored}
            for i in script.issues
        ],
        "launches": [] if body is None else [_plain(launch) for launch in body.launches],
    }
