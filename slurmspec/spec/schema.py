"""The JSON Schema of the job spec, generated from ``fields.SECTIONS``.

The shipped file ``slurmspec/spec/schema.json`` is this output; a test
compares them, so the schema editors see cannot drift from what the loader
accepts. Regenerate with ``python -m slurmspec.spec.schema > slurmspec/spec/schema.json``.
Cross-key rules (launch geometry, typed-vs-raw options) are beyond JSON Schema:
the loader checks them.
"""

from __future__ import annotations

import json
from typing import Any

from slurmspec.spec.fields import (BOOL, INT, LIST, SECTION_DOCS, SECTIONS, STR, STR_INT, STR_LIST,
                                   TABLE, Field)

_STRING_LIST = {"type": "array", "items": {"type": "string"}}


def _type(field: Field) -> dict[str, Any]:
    integer = {"type": "integer", "minimum": field.minimum, "maximum": 2**31 - 1}
    if field.type == STR:
        out: dict[str, Any] = {"type": "string"}
        if field.choices:
            out["enum"] = list(field.choices)
        return out
    if field.type == INT:
        return integer
    if field.type == BOOL:
        return {"type": "boolean"}
    if field.type == LIST:
        return dict(_STRING_LIST)
    if field.type == STR_INT:
        return {"oneOf": [{"type": "string"}, integer]}
    if field.type == STR_LIST:
        return {"oneOf": [{"type": "string"}, {**_STRING_LIST, "minItems": 1}]}
    assert field.type == TABLE
    return _object(field.children)


def _object(fields: tuple[Field, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {f.key: {"description": f.doc, **_type(f)} for f in fields},
    }
    required = [f.key for f in fields if f.required]
    if required:
        out["required"] = required
    return out


def build_schema() -> dict[str, Any]:
    properties: dict[str, Any] = {}
    for name, fields in SECTIONS.items():
        if name == "env":
            section: dict[str, Any] = {"type": "object", "propertyNames": {"pattern": "^[A-Za-z_][A-Za-z0-9_]*$"},
                                       "additionalProperties": {"type": "string"}}
        else:
            section = _object(fields)
        section["description"] = SECTION_DOCS[name]
        if name == "hetjob":
            section = {"type": "array", "items": section, "description": SECTION_DOCS[name]}
        properties[name] = section
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://slurmspec.invalid/job-spec.schema.json",
        "title": "slurmspec job spec",
        "description": "A Slurm batch job described declaratively; `slurmspec emit` writes its script.",
        "type": "object",
        "additionalProperties": False,
        "properties": properties,
    }


def schema_text() -> str:
    return json.dumps(build_schema(), indent=2) + "\n"


def _doc(field: Field) -> str:
    text = field.doc + (" (required)" if field.required else "")
    if field.choices:
        text += "; one of " + ", ".join(f"`{c}`" for c in field.choices)
    return text.replace("|", "\\|")


def markdown_reference() -> str:
    """The key tables of docs/spec.md (between its `<!-- keys -->` markers; a test keeps them in sync)."""
    out: list[str] = []
    for name, fields in SECTIONS.items():
        head = f"[[{name}]]" if name == "hetjob" else f"[{name}]"
        out.append(f"### `{head}`: {SECTION_DOCS[name]}\n")
        if not fields:
            out.append("Any `NAME = \"value\"` pairs; NAME is a shell variable name.\n")
            continue
        out.append("| key | type | sbatch option | meaning |\n|---|---|---|---|")
        for f in fields:
            option = f"`--{f.option}`" if f.option else ""
            out.append(f"| `{f.key}` | {f.type.replace('|', ' or ')} | {option} | {_doc(f)} |")
            for child in f.children:
                out.append(f"| `{f.key}.{child.key}` | {child.type} | | {_doc(child)} |")
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":  # pragma: no cover
    import sys

    sys.stdout.write(schema_text())
