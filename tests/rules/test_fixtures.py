"""Per-rule fixture scripts with expectations in sidecar files.

Layout: ``tests/rules/fixtures/<CODE>/<case>.sbatch`` plus ``<case>.expected``.
The sidecar lists, one per line, the diagnostics of that rule the script must
produce, as ``LINE:COLUMN`` (blank lines and ``#`` comments are ignored); an
empty sidecar (or none) means the rule must stay silent on that script. An
optional ``# slurm-version: X.Y`` line in the sidecar sets the target version.
Only the fixture's own code is compared, so rules can be developed side by side.

Run ``python -m pytest tests/rules --update-fixtures`` to rewrite the sidecars
from the current behaviour (then review the diff).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from slurmspec.lint import lint_text
from slurmspec.lint.engine import registry
from slurmspec.version import NEWEST, parse_version

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CASES = sorted(FIXTURES.glob("*/*.sbatch"))


def read_expected(path: Path) -> tuple[tuple, list[str]]:
    version = NEWEST
    positions: list[str] = []
    if path.exists():
        for line in path.read_text().splitlines():
            line = line.strip()
            match = re.fullmatch(r"#\s*slurm-version:\s*(\S+)", line)
            if match:
                version = parse_version(match.group(1))
            elif line and not line.startswith("#"):
                positions.append(line)
    return version, positions


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_fixture(case: Path, request: pytest.FixtureRequest):
    code = case.parent.name
    assert code in registry(), f"fixture folder {code} names no rule"
    sidecar = case.with_suffix(".expected")
    version, expected = read_expected(sidecar)
    found = [
        f"{d.span.line}:{d.span.column}"
        # The full path: rules that resolve relative paths (SB230-SB232) look next to the script.
        for d in lint_text(case.read_bytes(), path=str(case), version=version)
        if d.code == code
    ]
    if request.config.getoption("--update-fixtures"):
        header = [l for l in (sidecar.read_text().splitlines() if sidecar.exists() else []) if l.startswith("#")]
        lines = [*header, *found]
        sidecar.write_text("\n".join(lines) + "\n" if lines else "")
        return
    assert found == expected, f"{case}: {code} reported at {found}, expected {expected}"


def test_every_rule_has_a_triggering_and_a_silent_fixture():
    by_code: dict[str, list[bool]] = {}
    for case in CASES:
        _, expected = read_expected(case.with_suffix(".expected"))
        by_code.setdefault(case.parent.name, []).append(bool(expected))
    missing = [
        code for code in registry()
        if not (True in by_code.get(code, []) and False in by_code.get(code, []))
    ]
    assert missing == []
