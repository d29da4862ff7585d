"""`slurmspec audit` on sacct output recorded from the real accounting lab (22.05.8, tests/audit/recorded/).

The recording: jobs 5-9 of tests/slurm_accounting.py's cluster -- 5 ran `python3 train.py` on two
GPUs for 2 s, 6 had `--output=missing-logs/%j.out` and FAILED at start (0:53, 0 s), 7 and 8 are
the same clean script submitted twice, 9 holds a forged `Batch Script for 999` header line.
Their WorkDir (/tmp/audit-rec) is replaced by a test folder, so the log-folder rule looks there.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings

from slurmspec.audit.jobs import SEP, parse_rows, parse_tres
from slurmspec.audit.judge import Judge
from slurmspec.audit.pipeline import Shard, run_audit
from slurmspec.audit.report import build_report, report_json
from slurmspec.audit.sacct import one_block, split_blocks, sbatch_variables
from slurmspec.audit.tally import Tally
from slurmspec.audit.writers import report_csv, report_text
from slurmspec.lint.engine import select_rules
from slurmspec.version import parse_version
from tests.examples import examples
from tests.strategies import sacct_rows

RECORDED = Path(__file__).parent / "recorded"
V2205 = parse_version("22.05")


def recorded_rows(work_dir: Path) -> list[str]:
    return (RECORDED / "rows.txt").read_text().replace("/tmp/audit-rec", str(work_dir)).splitlines()


class Recorded:
    """A `Source` answering from the recording: scripts by job id as the real lab stored them."""

    def __init__(self, rows: list[str]) -> None:
        self.rows = rows
        whole = (RECORDED / "batch-script.txt").read_bytes()
        # Cut at the headers of the jobs that are really there (the forged one names job 999).
        self.stored = {}
        ids = [5, 6, 7, 8, 9]
        marks = [whole.index(f"Batch Script for {job}\n".encode()) for job in ids] + [len(whole)]
        for job, start, end in zip(ids, marks, marks[1:]):
            self.stored[str(job)] = one_block(whole[start:end], "--batch-script")
        self.script_calls: list[list[int]] = []

    def jobs(self):
        return parse_rows(self.rows)

    def scripts(self, refs):
        refs = list(refs)
        self.script_calls.append(refs)
        return {job: self.stored[job] for job in refs if job in self.stored}

    def environments(self, ids):
        return {}


def judge() -> Judge:
    return Judge(V2205, select_rules(("ALL",)))


def audit(tmp_path: Path, shard: Shard | None = None, keep_scripts: bool = False) -> tuple[Tally, Judge]:
    (tmp_path / "train.py").write_text("import time\ntime.sleep(2)\n")
    j = judge()
    tally = run_audit(Recorded(recorded_rows(tmp_path)), j, Tally({"since": "t0"}, keep_scripts), shard=shard)
    return tally, j


def test_rows_parse_as_recorded(tmp_path):
    jobs = list(parse_rows(recorded_rows(tmp_path)))
    assert [job.job_id for job in jobs] == [5, 6, 7, 8, 9]
    gpu, nolog = jobs[0], jobs[1]
    assert (gpu.state, gpu.elapsed, gpu.cpus, gpu.gpus, gpu.nodes) == ("COMPLETED", 2, 1, 2, 1)
    assert (nolog.state, nolog.exit_code, nolog.elapsed, nolog.gpus) == ("FAILED", "0:53", 0, 0)
    assert gpu.submit_line == "sbatch --parsable gpu.sh" and gpu.week == "2026-W48"
    assert parse_tres("billing=4,cpu=4,gres/gpu:a100=2,gres/gpu=2,mem=8000M,node=1")["gres/gpu"] == 2


def test_a_row_cut_by_a_newline_in_the_submit_line_is_joined():
    line = SEP.join(["12", "12", "u", "a", "p", "COMPLETED", "0:0", "5", "cpu=2", "1", "", "", "", "/w",
                     "sbatch --wrap 'a"])
    (job,) = parse_rows([line, "b'"])
    assert job.submit_line == "sbatch --wrap 'a\nb'" and job.cpus == 2


def test_a_forged_header_makes_the_batch_be_fetched_job_by_job():
    whole = (RECORDED / "batch-script.txt").read_bytes()
    assert split_blocks(whole, "--batch-script", ["5", "6", "7", "8", "9"]) is None  # "Batch Script for 999" in 9
    alone = one_block((RECORDED / "batch-script-9.txt").read_bytes(), "--batch-script")
    assert alone is not None and b"Batch Script for 999\n" in alone and alone.endswith(b"echo forged\n")
    first_four = whole[: whole.index(b"Batch Script for 9\n")]
    found = split_blocks(first_four, "--batch-script", ["5", "6", "7", "8"])
    assert sorted(found) == ["5", "6", "7", "8"] and found["7"] == found["8"]
    assert found["5"].startswith(b"#!/bin/bash\n") and found["5"].endswith(b"python3 train.py\n")
    forged_twice = first_four + b"Batch Script for 6\n" + b"-" * 80 + b"\necho\n"
    assert split_blocks(forged_twice, "--batch-script", ["5", "6", "7", "8"]) is None


def test_only_sbatch_variables_are_kept_from_an_environment():
    recorded = split_blocks((RECORDED / "env-vars.txt").read_bytes(), "--env-vars", ["5", "6", "7", "8", "9"])
    assert recorded is not None and sbatch_variables(recorded["5"]) == {}
    env = b"HOME=/root\nSBATCH_PARTITION=gpu\nAWS_SECRET=xyz\nSLURM_HINT=nomultithread\n"
    assert sbatch_variables(env) == {"SBATCH_PARTITION": "gpu", "SLURM_HINT": "nomultithread"}


def test_findings_costs_and_losses(tmp_path):
    tally, j = audit(tmp_path)
    report = build_report(tally)
    rules = {rule["code"]: rule for rule in report["rules"]}
    gpu = rules["SB310"]
    assert (gpu["jobs"], gpu["gpu_hours"], gpu["core_hours"]) == (1, round(2 * 2 / 3600, 4), round(2 / 3600, 4))
    assert gpu["lost"] == {"jobs": 1, "core_hours": 0.0, "gpu_hours": round(2 / 3600, 4), "wait_hours": 0.0,
                           "bound": "upper-bound"}
    log = rules["SB230"]
    assert log["jobs"] == 1 and log["lost"]["jobs"] == 1 and log["lost"]["bound"] == "exact"
    assert log["lost"]["wait_hours"] == round(1 / 3600, 4)  # submitted 12:15:12, failed at start 12:15:13
    assert set(rules) == {"SB310", "SB230"}  # the clean script and the forged one carry nothing
    totals = report["totals"]
    assert (totals["jobs"], totals["flagged_jobs"], totals["unique_scripts"], totals["lint_runs"]) == (5, 2, 4, 4)
    assert j.lint_runs == 4  # jobs 7 and 8: one script, one folder, linted once, counted twice
    assert report["users"][0]["jobs"] == 5 and report["weeks"][0]["name"] == "2026-W48"


def test_the_log_folder_rule_follows_the_jobs_submit_folder(tmp_path):
    (tmp_path / "missing-logs").mkdir()
    tally, _ = audit(tmp_path)
    assert "SB230" not in tally.rules  # the folder exists where the job was submitted from


def test_shards_merge_into_the_unsharded_report(tmp_path):
    whole, _ = audit(tmp_path)
    first, _ = audit(tmp_path, Shard(1, 2))
    second, _ = audit(tmp_path, Shard(2, 2))
    assert first.totals.jobs and second.totals.jobs
    merged = Tally.from_partial(json.loads(json.dumps(second.to_partial())))
    merged.merge(Tally.from_partial(json.loads(json.dumps(first.to_partial()))))
    assert report_json(build_report(merged)) == report_json(build_report(whole))


@settings(max_examples=examples(60))
@given(sacct_rows())
def test_any_split_into_shards_merges_exactly(rows):
    from slurmspec.audit.jobs import parse_rows as rows_of

    jobs = list(rows_of(rows))
    whole = Tally()
    parts = [Tally(), Tally(), Tally()]
    for job in jobs:
        if job.finished:
            key = f"{job.submit_line}:ctx" if job.has_script else None
            whole.add(job, key, ())
            parts[job.job_id % 3].add(job, key, ())
    merged = Tally.from_partial(parts[2].to_partial())
    merged.merge(parts[0])
    merged.merge(Tally.from_partial(parts[1].to_partial()))
    assert build_report(merged) == build_report(whole)


def test_reports_hold_no_script_text_unless_asked(tmp_path):
    from slurmspec.audit.html import report_html

    quiet = build_report(audit(tmp_path)[0])
    for text in (report_json(quiet), report_text(quiet), report_csv(quiet), report_html(quiet)):
        assert "train.py" not in text and "echo" not in text and "missing-logs" not in text
    shown = build_report(audit(tmp_path, keep_scripts=True)[0])
    assert "python3 train.py" in report_json(shown) and "python3 train.py" in report_html(shown)
    assert [s["jobs"] for s in shown["scripts"]][0] == 2  # the script submitted twice comes first


def test_the_json_report_follows_its_schema(tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    from importlib.resources import files

    schema = json.loads(files("slurmspec.audit").joinpath("audit-report.schema.json").read_text())
    jsonschema.validate(build_report(audit(tmp_path)[0]), schema)
    jsonschema.validate(build_report(audit(tmp_path, keep_scripts=True)[0]), schema)


def test_csv_tables(tmp_path):
    report = build_report(audit(tmp_path)[0])
    lines = report_csv(report).splitlines()
    assert lines[0].startswith("code,name,severity,outcome,jobs,users,scripts,core_hours,gpu_hours")
    assert lines[1].startswith("SB310,gpus-idle-single-process,error,wrong,1,1,1,")
    assert report_csv(report, "weeks").splitlines()[1].startswith("2026-W48,5,")


def test_shard_argument():
    assert Shard.parse("2/4") == Shard(2, 4) and Shard(2, 4).owns(5) and not Shard(1, 4).owns(5)
    for bad in ("0/4", "5/4", "1", "a/b", "1/0"):
        with pytest.raises(ValueError):
            Shard.parse(bad)


def test_names_and_scripts_from_accounting_cannot_act_on_a_terminal(tmp_path):
    rows = [line.replace("\x1froot\x1f", "\x1fev\x1b[2Jil\x1f", 1) for line in recorded_rows(tmp_path)]
    source = Recorded(rows)
    source.stored["7"] = source.stored["8"] = b"#!/bin/bash\n#SBATCH --time=5\necho \x1b]0;owned\x07\n"
    tally = run_audit(source, judge(), Tally({"since": "x\x1b[1m"}, keep_scripts=True))
    text = report_text(build_report(tally))
    assert "\x1b" not in text and "\x07" not in text and "ev\u241b[2Jil" in text


def test_array_tasks_are_fetched_by_their_job_id():
    """Recorded: array 1 (tasks 1_1..1_3, raw ids 3, 4, 1) and job 2. sacct answers in its own order
    (2, 1_1, 1_2, 1_3), and `-j 1` would name the whole array: scripts go by JobID."""
    jobs = {job.job_id: job for job in parse_rows((RECORDED / "array-rows.txt").read_text().splitlines())}
    assert {raw: job.job_ref for raw, job in jobs.items()} == {2: "2", 3: "1_1", 4: "1_2", 1: "1_3"}
    found = split_blocks((RECORDED / "array-batch-script.txt").read_bytes(), "--batch-script",
                         [job.job_ref for job in jobs.values()])
    assert found is not None and sorted(found) == ["1_1", "1_2", "1_3", "2"]
    assert found["1_1"] == found["1_3"] and b"--array=1-3" in found["1_1"]


def test_what_each_outcome_loses():
    from datetime import datetime

    from slurmspec.audit.cost import Bound, Loss, job_loss, loss
    from slurmspec.audit.jobs import Job
    from slurmspec.audit.judge import Finding
    from slurmspec.kinds import Outcome, Severity

    def job(state, elapsed, gpus=0, nodes=1, start=True):
        t0 = datetime(2026, 2, 2, 9)
        return Job(1, "1", "u", "a", "p", state, "0:0", elapsed, 4 * nodes, gpus, nodes, t0,
                   datetime(2026, 2, 2, 9, 10) if start else None, datetime(2026, 2, 2, 10), "/w", "sbatch x")

    def finding(outcome, idle=0):
        return Finding("SB000", "x", Severity.ERROR, outcome, idle)

    assert loss(job("FAILED", 0, gpus=2), finding(Outcome.FAILS)) == Loss(0, 0, 600, Bound.EXACT)
    assert loss(job("COMPLETED", 60), finding(Outcome.FAILS)) is None  # it did not fail: nothing lost
    assert loss(job("FAILED", 30), finding(Outcome.FAILS)) is None  # failed later, not at start
    assert loss(job("FAILED", 1), finding(Outcome.FAILS)) == Loss(4, 0, 600, Bound.EXACT)  # the next second
    idle = loss(job("COMPLETED", 100, gpus=8, nodes=2), finding(Outcome.WRONG, idle=3))
    assert idle == Loss(0, 100 * 6, 0, Bound.UPPER)  # 3 of 4 GPUs on each of 2 nodes
    assert loss(job("COMPLETED", 100, gpus=2, nodes=2), finding(Outcome.WRONG, idle=3)) is None  # one GPU a node
    assert loss(job("CANCELLED", 0, start=False), finding(Outcome.PENDS)) == Loss(0, 0, 3600, Bound.EXACT)
    both = job_loss([Loss(10, 0, 5, Bound.EXACT), Loss(0, 20, 0, Bound.UPPER)])
    assert both == Loss(10, 20, 5, Bound.UPPER)  # the largest of each figure, never a sum


def test_a_job_without_a_work_dir_is_not_said_to_miss_its_log_folder(tmp_path):
    rows = [line.replace(str(tmp_path), "") for line in recorded_rows(tmp_path)]
    tally = run_audit(Recorded(rows), judge(), Tally())
    assert "SB230" not in tally.rules and "SB310" in tally.rules


def test_database_values_read_as_sacct_prints_them():
    from slurmspec.audit.database import epoch, exit_code

    assert exit_code(4021) == "0:53"  # the missing-log-folder job on the lab: sacct printed 0:53
    assert exit_code(0) == "0:0" and exit_code(1 << 8) == "1:0" and exit_code(9) == "0:9"
    assert epoch("2026-11-01") < epoch("2026-11-01T08:30") < epoch("2026-11-01T08:30:01")
    with pytest.raises(ValueError):
        epoch("now-30days")
