"""``slurmspec audit`` and ``audit merge`` as a user runs them, against a sacct that replays the recording.

The replaying sacct (written per test) answers exactly what the real 22.05.8 lab answered
(tests/audit/recorded/): the rows for the listing, and for ``-j IDS --batch-script`` /
``--env-vars`` the recorded block of each requested job, so the one-job-per-call fallback after
the forged header is exercised as on the real cluster. Errors: a failing sacct, shards of
different audits, a missing shard, relative times with --shard.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from slurmspec.cli import main

RECORDED = Path(__file__).parent / "recorded"

REPLAY = r'''#!PYTHON
import re, sys
recorded, work = sys.argv[0].rsplit("/", 1)[0] + "/recorded", "WORK"
args = sys.argv[1:]
if "FAIL" in open(recorded + "/mode").read():
    sys.stderr.write("sacct: error: Problem talking to the database: Connection refused\n")
    sys.exit(1)
def blocks(name, head):
    text = open(f"{recorded}/{name}", "rb").read()
    marks = [(job, text.index(head % job)) for job in (5, 6, 7, 8, 9)]
    return {job: text[start:(marks[i + 1][1] if i + 1 < len(marks) else len(text))]
            for i, (job, start) in enumerate(marks)}
if "--batch-script" in args or "--env-vars" in args:
    ids = [int(x) for x in args[args.index("-j") + 1].split(",")]
    found = blocks("batch-script.txt", b"Batch Script for %d\n") if "--batch-script" in args else \
        blocks("env-vars.txt", b"Environment used for %d ")
    sys.stdout.buffer.write(b"".join(found[job] for job in ids if job in found))
else:
    sys.stdout.write(open(recorded + "/rows.txt").read().replace("/tmp/audit-rec", work))
'''


@pytest.fixture
def sacct(tmp_path):
    folder = tmp_path / "bin"
    (folder / "recorded").mkdir(parents=True)
    for item in RECORDED.iterdir():
        (folder / "recorded" / item.name).write_bytes(item.read_bytes())
    (folder / "recorded" / "mode").write_text("ok")
    work = tmp_path / "work"
    work.mkdir()
    (work / "train.py").write_text("import time\n")
    program = folder / "sacct"
    program.write_text(REPLAY.replace("PYTHON", sys.executable, 1).replace("WORK", str(work)))
    program.chmod(0o755)
    return program


def audit(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``slurmspec audit ARGV`` run in this process: what the audit reads, judges and writes is tested
    here, not the process around it (the terminal test below starts the real program), and a new
    interpreter for each of this module's twenty runs cost more CPU than the audits themselves."""
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(["audit", *argv])
            except SystemExit as stop:  # argparse: a usage error
                code = stop.code
    finally:
        os.chdir(here)
    return subprocess.CompletedProcess(["slurmspec", "audit", *argv], code, out.getvalue(), err.getvalue())


def window(sacct: Path) -> list[str]:
    return ["--sacct", str(sacct), "--since", "2026-11-26T00:00", "--until", "2026-11-27T00:00", "--no-config",
            "--select", "ALL", "--slurm-version", "22.05"]


def test_json_text_csv_and_html(sacct, tmp_path):
    done = audit(*window(sacct), "--format", "json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [rule["code"] for rule in report["rules"]] == ["SB310", "SB230"]
    assert report["totals"]["lint_runs"] == 4 and report["totals"]["jobs"] == 5
    text = audit(*window(sacct)).stdout
    assert "Top rules by cost" in text and "SB310  gpus-idle-single-process" in text and "2026-W48" in text
    csv = audit(*window(sacct), "--format", "csv", "--csv-table", "users").stdout
    assert csv.splitlines()[1].startswith("root,5,")
    out = tmp_path / "report.html"
    assert audit(*window(sacct), "--format", "html", "-o", str(out)).returncode == 0
    assert out.read_text().startswith("<!DOCTYPE html>") and "<svg" in out.read_text()


def test_shards_and_merge(sacct, tmp_path):
    whole = audit(*window(sacct), "--format", "json").stdout
    for k in (1, 2, 3):
        done = audit(*window(sacct), "--shard", f"{k}/3", "-o", str(tmp_path / f"{k}.json"))
        assert done.returncode == 0, done.stderr
    merged = audit("merge", *(str(tmp_path / f"{k}.json") for k in (3, 1, 2)), "--format", "json")
    assert merged.returncode == 0 and merged.stdout == whole
    missing = audit("merge", str(tmp_path / "1.json"), str(tmp_path / "2.json"))
    assert missing.returncode == 2 and "missing 3/3" in missing.stderr
    twice = audit("merge", str(tmp_path / "1.json"), str(tmp_path / "1.json"))
    assert twice.returncode == 2 and "both shard 1/3" in twice.stderr
    other = audit(*window(sacct), "--ignore", "SB230", "--shard", "2/3", "-o", str(tmp_path / "other.json"))
    assert other.returncode == 0
    mixed = audit("merge", str(tmp_path / "1.json"), str(tmp_path / "other.json"), str(tmp_path / "3.json"))
    assert mixed.returncode == 2 and "shards of one audit must share them" in mixed.stderr
    (tmp_path / "lint.json").write_text('{"diagnostics": []}')
    wrong = audit("merge", str(tmp_path / "lint.json"))
    assert wrong.returncode == 2 and "not a readable audit shard" in wrong.stderr


def test_relative_times_are_refused_with_shards(sacct):
    done = audit("--sacct", str(sacct), "--shard", "1/2", "--no-config")  # --since now-30days by default
    assert done.returncode == 2 and "absolute --since and --until" in done.stderr


def test_a_failing_sacct_is_an_error_with_its_message(sacct):
    (sacct.parent / "recorded" / "mode").write_text("FAIL")
    done = audit(*window(sacct))
    assert done.returncode == 2 and "Problem talking to the database" in done.stderr and not done.stdout


def test_the_schema_is_published(sacct):
    jsonschema = pytest.importorskip("jsonschema")
    schema = subprocess.run([sys.executable, "-m", "slurmspec", "schema", "audit-report"], capture_output=True,
                            text=True, timeout=60)
    assert schema.returncode == 0
    report = json.loads(audit(*window(sacct), "--format", "json", "--show-scripts").stdout)
    jsonschema.validate(report, json.loads(schema.stdout))
    assert {"code", "jobs", "core_hours", "gpu_hours"} <= set(json.loads(schema.stdout)["properties"]["rules"]
                                                             ["items"]["required"])


def test_progress_shows_on_a_terminal_and_is_cleared(sacct):
    import pty

    leader, side = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "CI"}  # CI logs get no progress frames
    done = subprocess.run([sys.executable, "-m", "slurmspec", "audit", *window(sacct), "--format", "json"],
                          stdout=subprocess.PIPE, stderr=side, env={**env, "TERM": "xterm"}, timeout=120)
    os.close(side)
    shown = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(leader)
    assert done.returncode == 0 and json.loads(done.stdout)["totals"]["jobs"] == 5
    assert b"slurmspec audit: 5 jobs read, 4 scripts linted" in shown and shown.endswith(b"\r\x1b[K")


def test_without_select_the_audit_runs_every_rule_that_harms_the_job(sacct):
    """SB230 and SB310 are opt-in for `lint` (rules/selection.py); the audit judges them by default."""
    argv = [a for a in window(sacct) if a not in ("--select", "ALL")]
    report = json.loads(audit(*argv, "--format", "json").stdout)
    assert {"SB230", "SB310"} <= {rule["code"] for rule in report["rules"]}
