"""``slurmspec lint --fix --unsafe-fixes`` over a copy of the real-script corpus (../shared/corpus/real).

The original folder is never touched: the scripts are copied into tmp_path and
fixed there through ``slurmspec.cli.main`` at the default Slurm version. Checked:
no crash, no fix loop failure (exit 2 names the rule; the test fails and
prints it), the written files are what ``fix_text`` gives, and every line that
changed is a line named by a finding whose fix applies, or a line its edits touch.
Run with ``-s`` for the summary (files changed, fixes per code).
"""

from __future__ import annotations

import difflib
import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from slurmspec.cli import main
from slurmspec.lint.engine import lint_script
from slurmspec.parser.script import decode, parse_script
from tests.corpus import CORPUS, corpus_files
from tests.fix.support import fix


# Files whose fix changes lines no original finding named, each a reported bug.
# Strict: an entry that no longer strays fails the test, so it is removed when fixed.
KNOWN_STRAY = {
    # Starts with a pasted prompt line (`$ cat run-R.sbatch`) and has `#!/bin/bash` on line 2.
    # The original lint reports only SB103; its fix adds a second `#!/bin/bash` on top, which makes
    # `$ cat ...` the first command, and the next round's SB201 moves the five header directives,
    # which no original finding named, above it.
    "0298.sbatch": "SB103 adds a second #! above a pasted line instead of offering to drop that line",
}


def _split(text: str) -> list[str]:
    return text.split("\n")


def allowed_lines(text: str) -> tuple[set[int], list[str]]:
    """0-based lines a fix may change (those the findings with an applicable fix name, and those their
    edits touch), and the lines of text those edits insert."""
    script = parse_script(text, "<corpus>")
    allowed: set[int] = set()
    inserted: list[str] = []
    for d in lint_script(script):
        if d.fix is None or not d.fix.applies(True):
            continue
        allowed.update(range(d.span.line - 1, d.span.end_line))
        for edit in d.fix.edits:
            allowed.update(range(edit.span.line - 1, edit.span.end_line))
            inserted.extend(edit.text.split("\n"))
    return allowed, inserted


def stray_changes(before: str, after: str, allowed: set[int], inserted: list[str] = ()) -> list[str]:
    """What changed outside the allowed lines.

    1. The lines outside ``allowed`` must all be in ``after``, whole and in their
       order (a subsequence: a fix may move allowed lines around them, as SB201 does).
    2. Every other line of ``after`` must come from the fixes: an allowed line
       as it was or edited (mostly alike: `difflib` ratio >= 0.6, e.g. `--tasks-per-node`
       -> `--ntasks-per-node`, `-C ib` + `-C v100` -> `-C ib&v100`), or a line an edit inserts.
    """
    old, new = _split(before), _split(after)
    stray, matched, at = [], set(), 0
    for i, line in enumerate(old):
        if i in allowed:
            continue
        while at < len(new) and new[at] != line:
            at += 1
        if at == len(new):
            stray.append(f"line {i + 1} {line!r} is not in the fixed text (in its place)")
            at = max(matched, default=-1) + 1
            continue
        matched.add(at)
        at += 1
    sources = [old[i].rstrip("\r") for i in sorted(allowed) if i < len(old)]
    for j, line in enumerate(new):
        if j in matched or line in inserted or line in sources:
            continue
        if not any(difflib.SequenceMatcher(None, line, src).ratio() >= 0.6 for src in sources):
            stray.append(f"fixed line {j + 1} {line!r} comes from no finding's line or edit")
    return stray


def test_stray_changes_notices_a_line_outside_the_findings() -> None:
    before = "#!/bin/bash\n#SBATCH -t 5\nsrun x\n"
    assert stray_changes(before, "#!/bin/bash\n#SBATCH -t 6\nsrun x\n", {1}) == []
    assert stray_changes(before, "#!/bin/bash\nsrun x\n#SBATCH -t 5\n", {1}) == []  # an allowed line moved
    assert stray_changes(before, "#!/bin/bash\n#SBATCH -t 6\nsrun y\n", {1})  # an untouched line changed
    assert stray_changes(before, "srun x\n#!/bin/bash\n#SBATCH -t 5\n", {1})  # untouched lines reordered
    assert stray_changes(before, "#!/bin/bash\n#SBATCH -t 5\nsrun x\nrm -rf /\n", {1})  # junk added
    assert stray_changes(before, "#!/bin/bash\n#SBATCH -t 5\nsrun x\nrm -rf /\n", {1}, ["rm -rf /"]) == []


def test_fix_the_real_corpus(tmp_path: Path, capsys) -> None:
    corpus_files()
    copy = tmp_path / "real"
    shutil.copytree(CORPUS, copy)
    files = sorted(copy.glob("*.sbatch"))
    for path in files:  # the shared corpus is read-only, and --fix refuses read-only files
        path.chmod(0o644)
    originals = {path.name: path.read_bytes() for path in files}

    # Every rule, as fix_text() below runs them (the CLI's default selection is fewer).
    code = main(["lint", "--no-config", "--select", "ALL", "--fix", "--unsafe-fixes", "--show-fixes", "--format", "json",
                 *map(str, files)])
    captured = capsys.readouterr()
    failures = [line for line in captured.err.splitlines() if "not fixed" in line or "error:" in line]
    assert code != 2 and not failures, "fix loop failures (a rule misbehaved):\n" + "\n".join(failures)
    remaining = json.loads(captured.out)["diagnostics"]
    assert code == (1 if any(d["severity"] in ("warning", "error") for d in remaining) else 0)
    assert "Traceback" not in captured.err

    per_code: Counter[str] = Counter(re.findall(r"^    (SB\d{3}) \(", captured.err, re.M))
    changed, problems = [], []
    for path in files:
        before_bytes, after_bytes = originals[path.name], path.read_bytes()
        before = decode(before_bytes)[0]
        after = after_bytes.decode("utf-8", "surrogateescape")
        expected = fix(before_bytes, unsafe=True)
        if after != expected.text:
            problems.append(f"{path.name}: written file differs from fix_text()'s result")
        if after_bytes == before_bytes:
            continue
        changed.append(path.name)
        strays = stray_changes(before, after, *allowed_lines(before))
        if path.name in KNOWN_STRAY:
            if not strays:
                problems.append(f"{path.name}: no longer strays; remove it from KNOWN_STRAY")
            continue
        problems.extend(f"{path.name}: {stray}" for stray in strays)
    # The original corpus is unchanged.
    assert {p.name: p.read_bytes() for p in sorted(CORPUS.glob("*.sbatch"))} == originals

    with capsys.disabled():
        print(f"\ncorpus --fix --unsafe-fixes: {len(files)} files, {len(changed)} changed, "
              f"{sum(per_code.values())} fixes: {dict(sorted(per_code.items()))}")
    assert not problems, "\n".join(problems)
