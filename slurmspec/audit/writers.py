"""The text (terminal) and CSV forms of an audit report (``slurmspec.audit.report``)."""

from __future__ import annotations

import csv
import io
from typing import Any

from slurmspec.printable import printable

TOP = 10  # rows per table on a terminal
GROUP_COLUMNS = ("name", "jobs", "core_hours", "gpu_hours", "flagged_jobs", "flagged_core_hours", "flagged_gpu_hours",
                 "lost_jobs", "lost_core_hours", "lost_gpu_hours", "lost_wait_hours")
RULE_COLUMNS = ("code", "name", "severity", "outcome", "jobs", "users", "scripts", "core_hours", "gpu_hours",
                "lost_jobs", "lost_core_hours", "lost_gpu_hours", "lost_wait_hours", "lost_bound")
CSV_TABLES = ("rules", "users", "accounts", "partitions", "weeks")


def _h(value: float) -> str:
    return f"{value:,.1f}" if value >= 10 else f"{value:,.2f}"


def _table(rows: list[list[str]], right: set[int]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  " + "  ".join(cell.rjust(w) if i in right else cell.ljust(w) for i, (cell, w) in
                             enumerate(zip(row, widths))).rstrip() for row in rows]


def report_text(report: dict[str, Any]) -> str:
    header, totals = report["header"], report["totals"]
    who = printable(str(header.get("users") or "own jobs"))
    lines = [
        printable(f"slurmspec audit: {totals['jobs']:,} finished jobs, {header.get('since')} to {header.get('until')}"
                  f" ({who}), judged as Slurm {header.get('slurm_version')}"
                  + (f" on cluster profile {header['cluster']}" if header.get("cluster") else "")),
        f"  cost (exact): {_h(totals['core_hours'])} core-hours, {_h(totals['gpu_hours'])} GPU-hours",
        f"  with findings: {totals['flagged_jobs']:,} jobs, {_h(totals['flagged_core_hours'])} core-hours,"
        f" {_h(totals['flagged_gpu_hours'])} GPU-hours (exact cost of the jobs; not all of it lost)",
        f"  lost: {totals['lost_jobs']:,} jobs, {_h(totals['lost_core_hours'])} core-hours,"
        f" {_h(totals['lost_gpu_hours'])} GPU-hours, {_h(totals['lost_wait_hours'])} hours waited"
        " (see 'figures' below: exact or upper bound per rule)",
        f"  scripts: {totals['unique_scripts']:,} distinct, {totals['lint_runs']:,} linted;"
        f" {totals['jobs_without_script']:,} jobs without a stored script;"
        f" {totals['unfinished_jobs']:,} jobs not finished (not counted)",
    ]
    if report["rules"]:
        rows = [["code", "rule", "jobs", "users", "scripts", "core-h", "GPU-h", "lost core-h", "lost GPU-h", "lost is"]]
        for rule in report["rules"][:TOP]:
            lost = rule["lost"]
            rows.append([rule["code"], rule["name"], str(rule["jobs"]), str(rule["users"]), str(rule["scripts"]),
                         _h(rule["core_hours"]), _h(rule["gpu_hours"]), _h(lost["core_hours"]), _h(lost["gpu_hours"]),
                         lost["bound"] if lost["jobs"] else "-"])
        lines += ["", "Top rules by cost", *_table(rows, {2, 3, 4, 5, 6, 7, 8})]
    for key, title in (("users", "Worst users"), ("accounts", "Worst accounts"), ("partitions", "By partition")):
        lines += ["", title, *_group_table(report[key][:TOP])]
    lines += ["", "Trend by week", *_group_table(report["weeks"])]
    lines += ["", "Figures"] + [f"  {name}: {text}" for name, text in report["figures"].items()]
    if "scripts" in report:  # --show-scripts; each line shown as text (an ESC in a script must not act)
        for script in report["scripts"]:
            codes = ", ".join(script["codes"]) or "clean"
            lines += ["", f"--- script {script['key']} ({script['jobs']} jobs; {codes})"]
            lines += [printable(line) for line in (script["text"] or "").splitlines()]
    return "\n".join(lines) + "\n"


def _group_table(rows: list[dict[str, Any]]) -> list[str]:
    if not rows:
        return ["  (none)"]
    table = [["name", "jobs", "flagged", "core-h", "GPU-h", "flagged core-h", "flagged GPU-h", "lost GPU-h"]]
    for row in rows:
        table.append([printable(row["name"] or "-"), str(row["jobs"]), str(row["flagged_jobs"]), _h(row["core_hours"]),
                      _h(row["gpu_hours"]), _h(row["flagged_core_hours"]), _h(row["flagged_gpu_hours"]),
                      _h(row["lost_gpu_hours"])])
    return _table(table, set(range(1, 8)))


def report_csv(report: dict[str, Any], table: str = "rules") -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    if table == "rules":
        writer.writerow(RULE_COLUMNS)
        for rule in report["rules"]:
            lost = rule["lost"]
            writer.writerow([rule["code"], rule["name"], rule["severity"], rule["outcome"] or "", rule["jobs"],
                             rule["users"], rule["scripts"], rule["core_hours"], rule["gpu_hours"], lost["jobs"],
                             lost["core_hours"], lost["gpu_hours"], lost["wait_hours"], lost["bound"]])
    else:
        writer.writerow(GROUP_COLUMNS)
        for row in report[table]:
            writer.writerow([row[column] for column in GROUP_COLUMNS])
    return out.getvalue()
