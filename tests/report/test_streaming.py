"""Reports stream: each file's findings are written as they come, and nothing of a file is kept after it.

This is what keeps ``slurmspec lint`` on 100,000 scripts in flat memory
(``benchmarks/bench_lint.py`` measures it); here the properties that make it so.
"""

from __future__ import annotations

import gc
import io
import json
import weakref
from pathlib import Path

import pytest

from slurmspec.lint.engine import lint_script
from slurmspec.parser.script import parse_script
from slurmspec.report import FORMATS, write_report
from slurmspec.report.excerpt import Excerpt
from slurmspec.report.gitlab import issues, write_gitlab
from slurmspec.report.json import report_dict, write_json

FIXTURES = Path(__file__).resolve().parent.parent / "rules" / "fixtures"
SCRIPTS = sorted(FIXTURES.glob("SB0*/*.sbatch"))[:12] + sorted(FIXTURES.glob("SB2*/*.sbatch"))[:12]


def _results() -> list[tuple]:
    results = []
    for path in SCRIPTS:
        script = parse_script(path.read_bytes(), path.name)
        results.append((script, lint_script(script)))
    return results


@pytest.mark.parametrize("results", [[], [(None, [])], "fixtures"], ids=["none", "no-finding", "fixtures"])
def test_json_and_gitlab_streams_are_what_json_dump_writes(results):
    results = _results() if results == "fixtures" else results
    out = io.StringIO()
    write_json(iter(results), out)
    assert out.getvalue() == json.dumps(report_dict(results), indent=2, ensure_ascii=False) + "\n"
    out = io.StringIO()
    write_gitlab(iter(results), out)
    assert out.getvalue() == json.dumps(issues(results), indent=2, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_script_is_released_once_the_next_files_are_reported(fmt):
    # While the next file is linted the writer may still hold the last one in its loop
    # variable; the one before must be gone.
    released: list[bool] = []
    previous: list[weakref.ref] = []

    def results():
        for path in SCRIPTS:
            if len(previous) >= 2:
                gc.collect()
                released.append(previous[-2]() is None)
            script = parse_script(path.read_bytes(), path.name)
            found = lint_script(script)
            previous.append(weakref.ref(script))
            yield script, found
            del script, found

    # SARIF needs every finding before its rule table: it keeps the findings, never the scripts.
    write_report(fmt, results(), io.StringIO(), quiet=False)
    assert released and all(released), f"{fmt} kept a Script after its file"


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_excerpt_reports_as_the_script_does(fmt):
    scripts = _results()
    excerpts = [(Excerpt.of(script, found), found) for script, found in scripts]
    with_scripts, with_excerpts = io.StringIO(), io.StringIO()
    write_report(fmt, scripts, with_scripts)
    write_report(fmt, excerpts, with_excerpts)
    assert with_excerpts.getvalue() == with_scripts.getvalue()


def test_gitlab_fingerprints_stay_unique_when_a_file_is_reported_twice():
    # The report keeps no finding of a file once the next starts, so the second report of the
    # same path is numbered apart rather than continuing the first one's count.
    twice = _results()[:3] * 2
    fingerprints = [issue["fingerprint"] for issue in issues(twice)]
    assert len(fingerprints) == len(set(fingerprints)) > 0
    assert fingerprints[: len(fingerprints) // 2] == [issue["fingerprint"] for issue in issues(twice[:3])]
