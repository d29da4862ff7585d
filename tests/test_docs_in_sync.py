"""``docs/rules.md`` is generated from the rule registry and must not drift from it."""

from __future__ import annotations

import difflib
from pathlib import Path

from slurmspec.lint.engine import registry
from slurmspec.report.rule_docs import REGENERATE, rules_markdown

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def test_docs_rules_md_matches_the_registry():
    expected = rules_markdown(registry().values())
    actual = DOCS.read_text(encoding="utf-8") if DOCS.exists() else ""
    if actual != expected:
        diff = "".join(list(difflib.unified_diff(
            actual.splitlines(True), expected.splitlines(True), "docs/rules.md", "generated", n=1,
        ))[:60])
        raise AssertionError(
            f"docs/rules.md is out of date with the rule registry. Regenerate it from the repository root with:\n\n"
            f"    {REGENERATE}\n\n{diff}"
        )

