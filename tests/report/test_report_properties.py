"""Invariants of every output format on arbitrary scripts and file names (strategies in tests/strategies.py)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import example, given, settings

from slurmspec.lint import lint_text
from slurmspec.parser.script import parse_script
from slurmspec.report import FORMATS, write_report
from slurmspec.version import NEWEST
from tests.strategies import RAW_CONTROLS, report_paths, script_bytes
from tests.examples import examples

jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is in the test extra")
SARIF = jsonschema.Draft4Validator(json.loads(
    (Path(__file__).resolve().parent / "sarif-schema-2.1.0.json").read_text(encoding="utf-8")))


def render(fmt: str, results) -> str:
    out = io.StringIO()
    write_report(fmt, results, out, color=False, quiet=True)
    text = out.getvalue()
    text.encode("utf-8")  # writable to a strict UTF-8 stream, and valid UTF-8 in a file
    # Nothing from the script or its name acts on a terminal or reorders a line (slurmspec.printable).
    assert not RAW_CONTROLS.search(text), (fmt, RAW_CONTROLS.search(text))
    return text


@settings(max_examples=examples(60))
@given(data=script_bytes, path=report_paths)
@example(data=b"#!bash \x0b", path="a.sbatch")  # a vertical tab in a message split a concise line
@example(data=b"#!/bin/bash\n#SBATCH --time=\x1b[2J\x07\xff\n", path="\x1b]0;x\x07\udcff\u202e.sbatch")
def test_every_format_renders_every_finding(data, path):
    script = parse_script(data, path, NEWEST)
    found = lint_text(data, path=path, version=NEWEST)
    results = [(script, found)]
    outputs = {fmt: render(fmt, results) for fmt in FORMATS}
    # One line per finding where the format is line-based (messages never split a line).
    assert len(outputs["concise"].splitlines()) == len(found)
    github = outputs["github"].splitlines()
    assert len(github) == len(found)
    assert all(line.startswith(("::error ", "::warning ", "::notice ")) for line in github)
    assert [d["code"] for d in json.loads(outputs["json"])["diagnostics"]] == [d.code for d in found]
    gitlab = json.loads(outputs["gitlab"])
    assert len({issue["fingerprint"] for issue in gitlab}) == len(found)
    sarif = json.loads(outputs["sarif"])
    SARIF.validate(sarif)
    assert len(sarif["runs"][0]["results"]) == len(found)
