"""The suppression comments behind "ignore on this line / in this file", checked with the engine itself.

For every finding of the real corpus and the samples, the edit is applied and
the text linted again: exactly the findings of that code on that logical line
(or in the file) must be gone, nothing else may change, and no unused,
unknown or malformed suppression may appear.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from slurmspec.fix.apply import apply_edits
from slurmspec.diagnostic import Diagnostic
from slurmspec.lint.engine import lint_script
from slurmspec.lsp.ignore_comments import file_ignore, line_ignore
from slurmspec.parser.script import parse_script
from tests.corpus import corpus_files

SAMPLES = sorted((Path(__file__).resolve().parents[2] / "samples").glob("*.sbatch"))


def lint(text: str):
    script = parse_script(text)
    return script, lint_script(script)


def logical_lines(script, number: int) -> set[int]:
    for line in script.lines:
        if line.span.line <= number <= line.span.end_line:
            return set(range(line.span.line, line.span.end_line + 1))
    return {number}


def check_file(path: Path) -> int:
    text = path.read_bytes().decode("utf-8", "surrogateescape")
    script, found = lint(text)
    checked = 0
    for diagnostic in found:
        if diagnostic.code == "SB900":
            continue
        for where, edit in (("line", line_ignore(script, diagnostic)), ("file", file_ignore(script, diagnostic.code))):
            if edit is None:
                assert where == "line", f"{path.name}: no file-ignore for {diagnostic.code}"
                continue
            _, after = lint(apply_edits(text, [edit]))
            covered = logical_lines(script, diagnostic.span.line) if where == "line" else None
            gone = [d for d in found if d.code == diagnostic.code and (covered is None or d.span.line in covered)]
            expected = Counter(d.code for d in found) - Counter(d.code for d in gone)
            assert Counter(d.code for d in after) == expected, (path.name, where, diagnostic.code, diagnostic.span.line)
            checked += 1
    return checked


def test_every_finding_of_the_samples_can_be_ignored():
    assert sum(check_file(path) for path in SAMPLES) > 5


def test_every_finding_of_the_real_corpus_can_be_ignored():
    assert sum(check_file(path) for path in corpus_files()) > 300


def finding_on(script, line: int, code: str = "SB219") -> Diagnostic:
    start = script.index.line_start(line)
    return Diagnostic(code=code, name="x", family="traps", severity="info", message="m", span=script.span(start, start + 1))


@pytest.mark.parametrize("body, line", [
    ("cat > run.sh <<EOF\nsrun hostname\nEOF\n", 4),          # a here-document's body
    ("cat > run.sh <<'EOF'\nsrun hostname\nEOF\n", 5),        # its delimiter line
    ('python -c "\nimport os\nprint(os.getcwd())"\n', 4),    # inside a string that spans lines
])
def test_no_line_comment_where_it_would_become_data(body, line):
    script = parse_script("#!/bin/bash\n#SBATCH --time=5\n" + body)
    assert line_ignore(script, finding_on(script, line)) is None


def test_a_continued_command_gets_the_comment_above_its_first_line_indented_like_it():
    text = "#!/bin/bash\n#SBATCH --time=5\nif true; then\n    srun \\\n      hostname\nfi\n"
    script = parse_script(text)
    edit = line_ignore(script, finding_on(script, 5))
    assert apply_edits(text, [edit]).splitlines()[3:5] == ["    # slurmspec: ignore[SB219]", "    srun \\"]


def test_existing_suppressions_gain_the_code():
    text = "#!/bin/bash\n# slurmspec: file-ignore[SB341]\n#SBATCH --time=5  # slurmspec: ignore[SB205] why\n"
    script = parse_script(text)
    fixed = apply_edits(text, [line_ignore(script, finding_on(script, 3))])
    assert fixed.splitlines()[2] == "#SBATCH --time=5  # slurmspec: ignore[SB205, SB219] why"
    fixed = apply_edits(text, [file_ignore(script, "SB219")])
    assert fixed.splitlines()[1] == "# slurmspec: file-ignore[SB341, SB219]"
    assert file_ignore(script, "SB341") is None  # already there


def test_the_file_comment_keeps_the_shebang_first():
    assert apply_edits("#!/bin/bash", [file_ignore(parse_script("#!/bin/bash"), "SB341")]) == \
        "#!/bin/bash\n# slurmspec: file-ignore[SB341]"
    bom = "\ufeff#SBATCH --time=5\n"
    assert apply_edits(bom, [file_ignore(parse_script(bom), "SB101")]).startswith("\ufeff# slurmspec: file-ignore[SB101]\n")
