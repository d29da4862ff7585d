"""TOML job specs: ``load_spec(text) -> Spec`` (typed, validated), ``slurmspec.emit.convert.convert_script(script) -> Spec``.

The format is documented in docs/spec.md; ``slurmspec/spec/schema.json`` is its
JSON Schema (generated from ``fields.SECTIONS``; a test keeps them in sync).
"""

from __future__ import annotations

from slurmspec.spec.load import Problem, SpecError, load_spec, spec_from_data
from slurmspec.spec.model import Section, Spec

__all__ = ["Problem", "Section", "Spec", "SpecError", "load_spec", "spec_from_data"]
