"""The shipped JSON Schema is the one generated from the field table, and it agrees with the loader."""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path

from slurmspec.spec.fields import SECTIONS
from slurmspec.spec.schema import build_schema, schema_text

SAMPLES = sorted((Path(__file__).resolve().parents[2] / "samples").glob("*.toml"))


def test_shipped_schema_is_generated():
    shipped = files("slurmspec.spec").joinpath("schema.json").read_text(encoding="utf-8")
    assert shipped == schema_text(), "regenerate: python -m slurmspec.spec.schema > slurmspec/spec/schema.json"


def test_schema_names_every_key():
    schema = build_schema()
    assert set(schema["properties"]) == set(SECTIONS)
    for name, fields in SECTIONS.items():
        section = schema["properties"][name]
        section = section.get("items", section)
        if name != "env":
            assert set(section["properties"]) == {f.key for f in fields}


def _check(value, schema) -> list[str]:
    """A small validator for the keywords build_schema uses (no jsonschema dependency)."""
    if "oneOf" in schema:
        return [] if any(not _check(value, s) for s in schema["oneOf"]) else [f"{value!r}: no alternative"]
    kind = schema.get("type")
    python = {"string": str, "integer": int, "boolean": bool, "array": list, "object": dict}[kind]
    if not isinstance(value, python) or (kind == "integer" and isinstance(value, bool)):
        return [f"{value!r} is not {kind}"]
    errors = []
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{value!r} not in enum")
    if kind == "integer" and not schema["minimum"] <= value <= schema["maximum"]:
        errors.append(f"{value} out of range")
    if kind == "array":
        for item in value:
            errors += _check(item, schema["items"])
    if kind == "object":
        for key, item in value.items():
            sub = schema.get("properties", {}).get(key, schema.get("additionalProperties"))
            if sub is False or sub is None:
                errors.append(f"unknown key {key}")
            else:
                errors += _check(item, sub)
        errors += [f"missing {k}" for k in schema.get("required", []) if k not in value]
    return errors


def test_samples_validate_against_the_schema():
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib

    schema = json.loads(schema_text())
    for sample in SAMPLES:
        assert _check(tomllib.loads(sample.read_text()), schema) == [], sample


def test_schema_refuses_what_the_loader_refuses():
    schema = build_schema()
    assert _check({"job": {"nmae": "x"}}, schema)
    assert _check({"resources": {"nodes": 0}}, schema)
    assert _check({"launch": {"kind": "torchrn", "program": "x"}}, schema)


def test_docs_key_reference_is_generated():
    from slurmspec.spec.schema import markdown_reference

    docs = (Path(__file__).resolve().parents[2] / "docs" / "spec.md").read_text()
    start = docs.index("-->\n", docs.index("<!-- keys:")) + len("-->\n")
    assert docs[start:docs.index("<!-- /keys -->")] == markdown_reference()
