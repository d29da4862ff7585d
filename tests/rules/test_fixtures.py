"""Per-rule fixture scripts with expectations in sidecar files.

Layout: ``tests/rules/fixtures/<CODE>/<case>.sbatch`` plus ``<case>.expected``.
The sidecar lists, one per line, the diagnostics of that rule (the folder's
code) the script must produce, in order, as ``LINE:COLUMN SEVERITY FRAGMENT``:
position, severity, and a piece of the message that must appear in it
(blank lines and ``#`` comments are ignored). An empty sidecar (or none) means
the rule must stay silent on that script. An optional ``# slurm-version: X.Y``
line in the sidecar sets the target version; ``# cluster: NAME`` lints with a
cluster profile and ``# policy: NAME`` with a site policy from the
configuration (``tests/cluster/rule_profiles.py``: ``lab``, ``lab+gpu-memory``;
``docs/policies/NAME.toml``). Only the fixture's own code is
compared, so rules can be developed side by side.

Fixes: ``<case>.fixed`` holds the script as the rule's own fixes (safe and
unsafe, applied in rounds) leave it. A case without one must come out of the
rule's fixes unchanged, and every fixable rule has at least one ``.fixed``.

Run ``python -m pytest tests/rules --update-fixtures`` to rewrite the sidecars
(and ``.fixed`` files) from the current behaviour (then review the diff).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from slurmspec.lint import lint_text
from slurmspec.kinds import Role
from slurmspec.lint.engine import code_of, registry
from slurmspec.version import NEWEST, parse_version

INTERNAL_ERROR = code_of(Role.INTERNAL_ERROR)
TOO_LARGE = code_of(Role.FILE_TOO_LARGE)
TOO_LONG = code_of(Role.SCRIPT_TOO_LONG)

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CASES = sorted(FIXTURES.glob("*/*.sbatch"))


_EXPECTED = re.compile(r"(\d+:\d+) (info|warning|error) (.+)")
_FRAGMENT = 48  # characters of the message --update-fixtures writes


def read_expected(path: Path, strict: bool = True) -> tuple[tuple, list[tuple[str, str, str]]]:
    """(target version, [(LINE:COL, severity, message fragment)]) from a sidecar.

    ``strict=False`` (when the sidecars are being rewritten) skips lines of another shape.
    """
    version = NEWEST
    expected: list[tuple[str, str, str]] = []
    if path.exists():
        for line in path.read_text().splitlines():
            line = line.strip()
            match = re.fullmatch(r"#\s*slurm-version:\s*(\S+)", line)
            if match:
                version = parse_version(match.group(1))
            elif line and not line.startswith("#"):
                entry = _EXPECTED.fullmatch(line)
                if entry:
                    expected.append(entry.groups())
                else:
                    assert not strict, f"{path}: {line!r} is not `LINE:COL SEVERITY message fragment`"
    return version, expected


def cluster_of(path: Path) -> dict:
    """``cluster``/``policy`` keywords for ``lint_text`` from a sidecar's ``# cluster:``/``# policy:`` lines."""
    found: dict = {}
    if path.exists():
        from tests.cluster.rule_profiles import policy_named, profile_named

        for line in path.read_text().splitlines():
            match = re.fullmatch(r"#\s*(cluster|policy):\s*(\S+)", line.strip())
            if match:
                load = profile_named if match.group(1) == "cluster" else policy_named
                found[match.group(1)] = load(match.group(2))
    return found


def _fragment(message: str) -> str:
    cut = message[:_FRAGMENT]
    return cut.rsplit(" ", 1)[0] if len(message) > _FRAGMENT and " " in cut else cut


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_fixture(case: Path, request: pytest.FixtureRequest):
    code = case.parent.name
    assert code in registry(), f"fixture folder {code} names no rule"
    sidecar = case.with_suffix(".expected")
    version, expected = read_expected(sidecar, strict=not request.config.getoption("--update-fixtures"))
    found = [
        # The full path: rules that resolve relative paths (SB230-SB232) look next to the script.
        d for d in lint_text(case.read_bytes(), path=str(case), version=version, **cluster_of(sidecar))
        if d.code == code
    ]
    if request.config.getoption("--update-fixtures"):
        header = [l for l in (sidecar.read_text().splitlines() if sidecar.exists() else []) if l.startswith("#")]
        lines = [*header, *(f"{d.span.line}:{d.span.column} {d.severity} {_fragment(d.message)}" for d in found)]
        sidecar.write_text("\n".join(lines) + "\n" if lines else "")
        return
    got = [(f"{d.span.line}:{d.span.column}", str(d.severity), d.message) for d in found]
    assert [g[:2] for g in got] == [e[:2] for e in expected], f"{case}: {code} reported {got}, expected {expected}"
    for (_, _, message), (where, _, fragment) in zip(got, expected):
        assert fragment in message, f"{case}: {code} at {where} says {message!r}, expected it to contain {fragment!r}"


def test_every_rule_has_a_triggering_and_a_silent_fixture():
    by_code: dict[str, list[bool]] = {}
    for case in CASES:
        _, expected = read_expected(case.with_suffix(".expected"), strict=False)
        by_code.setdefault(case.parent.name, []).append(bool(expected))
    missing = [
        code for code in registry()
        # Reported outside the rules: SB900 when a rule raises (tests/test_engine.py), SB106 for a
        # script over 4 MiB, too large for a fixture (tests/test_inputs.py), SB905 for one of more
        # than 200,000 lines or 100,000 options (tests/test_linear_work.py, tests/test_inputs.py).
        if code not in (INTERNAL_ERROR, TOO_LARGE, TOO_LONG)
        and not (True in by_code.get(code, []) and False in by_code.get(code, []))
    ]
    assert missing == []


def fix_with(code: str, data: bytes, path: str, version) -> tuple[str, str]:
    """(original text, text after the rule's safe+unsafe fixes); fails on a refused fix."""
    from slurmspec.fix.loop import fix_text
    from slurmspec.lint.engine import lint_script
    from slurmspec.parser.script import decode, parse_script

    rule = registry()[code]

    def lint(text):
        script = parse_script(text, path, version)
        return script.to_text(), lint_script(script, [rule])

    original = decode(data)[0]
    outcome = fix_text(original, lint, unsafe=True)
    assert outcome.failure is None, f"{path}: {outcome.failure}"
    return original, outcome.text


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_fixture_fix(case: Path, request: pytest.FixtureRequest):
    code = case.parent.name
    version, _ = read_expected(case.with_suffix(".expected"), strict=False)
    original, fixed = fix_with(code, case.read_bytes(), str(case), version)
    expected_file = case.with_suffix(".fixed")
    if request.config.getoption("--update-fixtures"):
        if fixed != original:
            expected_file.write_bytes(fixed.encode("utf-8", "surrogateescape"))
        elif expected_file.exists():
            expected_file.unlink()
        return
    if expected_file.exists():
        assert fixed == expected_file.read_bytes().decode("utf-8", "surrogateescape"), f"{case}: fixed text differs"
        assert fixed != original, f"{expected_file} equals the script: delete it"
    else:
        assert fixed == original, f"{case}: the {code} fix changed the script but there is no {expected_file.name}"


def test_every_fixable_rule_has_a_fixed_fixture():
    with_fixed = {case.parent.name for case in CASES if case.with_suffix(".fixed").exists()}
    missing = sorted(code for code, rule in registry().items() if rule.fixable and code not in with_fixed)
    assert missing == []
