"""The audit report as data (the JSON document, ``slurmspec schema audit-report``), built from a `Tally`.

Every writer (JSON, text, CSV, HTML) reads this one document, so they never disagree. Hours are
the tally's whole seconds divided by 3600 and rounded to 4 places; rows are sorted by cost, ties by
name, so two runs over the same jobs -- or N merged shards -- give byte-identical JSON.
"""

from __future__ import annotations

import json
from typing import Any

from slurmspec.audit.tally import Sums, Tally

REPORT_KIND = "slurmspec-audit-report"

# Which figures are measurements and which are bounds (printed in every format).
FIGURES = {
    "jobs, core_hours, gpu_hours": "exact: accounting's ElapsedRaw x AllocTRES (cpu, gres/gpu) of the jobs counted",
    "lost (failed at start)": "exact: the whole cost and queue wait of jobs that FAILED within 5 s of starting and"
                              " carry a finding whose outcome is 'fails'; the cause is inferred from the finding",
    "lost (idle GPUs)": "upper bound: the GPUs per node a finding says stay idle, for the whole run; the program"
                        " may use more GPUs than the script shows",
    "lost (pending)": "exact: the time a job that never started pended, for a finding whose outcome is 'pends'",
}


def hours(seconds: int) -> float:
    return round(seconds / 3600, 4)


def _sums(sums: Sums) -> dict[str, Any]:
    return {
        "jobs": sums.jobs, "core_hours": hours(sums.core_seconds), "gpu_hours": hours(sums.gpu_seconds),
        "flagged_jobs": sums.flagged_jobs, "flagged_core_hours": hours(sums.flagged_core_seconds),
        "flagged_gpu_hours": hours(sums.flagged_gpu_seconds), "lost_jobs": sums.lost_jobs,
        "lost_core_hours": hours(sums.lost_core_seconds), "lost_gpu_hours": hours(sums.lost_gpu_seconds),
        "lost_wait_hours": hours(sums.lost_wait_seconds),
    }


def _cost_order(item: tuple[str, Sums]) -> tuple:
    name, s = item
    return (-s.lost_gpu_seconds, -s.lost_core_seconds, -s.flagged_gpu_seconds, -s.flagged_core_seconds,
            -s.flagged_jobs, -s.jobs, name)


def build_report(tally: Tally) -> dict[str, Any]:
    totals = {
        **_sums(tally.totals), "unfinished_jobs": tally.unfinished, "jobs_without_script": tally.without_script,
        "unique_scripts": len(tally.scripts), "lint_runs": len(tally.contexts),
    }
    rules = []
    ordered = sorted(tally.rules.items(), key=lambda item: (
        -item[1].lost_gpu_seconds, -item[1].lost_core_seconds, -item[1].gpu_seconds, -item[1].core_seconds,
        -item[1].jobs, item[0]))
    for code, row in ordered:
        rules.append({
            "code": code, "name": row.name, "severity": row.severity, "outcome": row.outcome,
            "jobs": row.jobs, "users": len(row.users), "scripts": len(row.scripts),
            "core_hours": hours(row.core_seconds), "gpu_hours": hours(row.gpu_seconds),
            "lost": {"jobs": row.lost_jobs, "core_hours": hours(row.lost_core_seconds),
                     "gpu_hours": hours(row.lost_gpu_seconds), "wait_hours": hours(row.lost_wait_seconds),
                     "bound": "upper-bound" if row.upper_bound else "exact"},
        })
    report: dict[str, Any] = {"kind": REPORT_KIND, "version": 1, "header": tally.header, "figures": FIGURES,
                              "totals": totals, "rules": rules}
    for kind, key in (("user", "users"), ("account", "accounts"), ("partition", "partitions")):
        ordered_rows = sorted(tally.groups[kind].items(), key=_cost_order)
        report[key] = [{"name": name, **_sums(sums)} for name, sums in ordered_rows]
    report["weeks"] = [{"name": name, **_sums(sums)} for name, sums in sorted(tally.groups["week"].items())]
    if tally.keep_scripts:
        report["scripts"] = [{"key": key, "jobs": row["jobs"], "codes": row["codes"], "text": row["text"]}
                             for key, row in sorted(tally.script_rows.items(), key=lambda kv: (-kv[1]["jobs"], kv[0]))]
    return report


def report_json(report: dict[str, Any]) -> str:
    return json.dumps(report, indent=2, ensure_ascii=False) + "\n"
