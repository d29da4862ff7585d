"""The audit report as one self-contained HTML file: inline CSS and SVG charts, no script, nothing fetched.

A centre can mail it around: it opens offline in any browser. Charts (``slurmspec.audit.svg``):
cost of the jobs carrying each rule, cost by week, cost by partition. Script texts appear only when
the report was made with ``--show-scripts``.
"""

from __future__ import annotations

from html import escape
from typing import Any

from slurmspec.audit.svg import Series, horizontal_bars, vertical_bars

# Each chart's colours are its own: the screenshot test finds the charts by them.
RULE_COLOURS = ("#c0392b", "#e67e22")
WEEK_COLOURS = ("#2471a3", "#85c1e9")
PARTITION_COLOURS = ("#1e8449", "#82e0aa")
TOP_RULES = 15

_STYLE = """
body{font-family:sans-serif;margin:24px;color:#222;max-width:980px}
h1{font-size:22px}h2{font-size:17px;margin-top:28px}
table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:3px 7px;text-align:right}
td:first-child,th:first-child,td.t{text-align:left}.note{color:#555;font-size:12px}
.totals td{text-align:left}pre{background:#f6f6f6;padding:8px;overflow:auto;font-size:12px}
"""


def _h(value: float) -> str:
    return f"{value:,.1f}" if value >= 10 else f"{value:,.3g}"


def _table(head: list[str], rows: list[list[str]]) -> str:
    cells = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{cells}</tr>{body}</table>"


def _groups(rows: list[dict[str, Any]]) -> str:
    return _table(["name", "jobs", "with findings", "core-h", "GPU-h", "flagged core-h", "flagged GPU-h",
                   "lost core-h", "lost GPU-h"],
                  [[r["name"] or "-", str(r["jobs"]), str(r["flagged_jobs"]), _h(r["core_hours"]), _h(r["gpu_hours"]),
                    _h(r["flagged_core_hours"]), _h(r["flagged_gpu_hours"]), _h(r["lost_core_hours"]),
                    _h(r["lost_gpu_hours"])] for r in rows[:25]])


def report_html(report: dict[str, Any]) -> str:
    header, totals, rules = report["header"], report["totals"], report["rules"][:TOP_RULES]
    title = f"slurmspec audit, {header.get('since')} to {header.get('until')}"
    rule_chart = horizontal_bars(
        "Cost of the jobs carrying each rule", [f"{r['code']} {r['name']}" for r in rules],
        [Series("GPU-hours", RULE_COLOURS[0], tuple(r["gpu_hours"] for r in rules)),
         Series("core-hours", RULE_COLOURS[1], tuple(r["core_hours"] for r in rules))], chart_id="chart-rules")
    weeks = report["weeks"]
    week_chart = vertical_bars(
        "Cost by week (all jobs, and the jobs with findings)", [w["name"] for w in weeks],
        [Series("core-hours", WEEK_COLOURS[0], tuple(w["core_hours"] for w in weeks)),
         Series("core-hours with findings", WEEK_COLOURS[1], tuple(w["flagged_core_hours"] for w in weeks))],
        chart_id="chart-weeks")
    parts_rows = report["partitions"][:20]
    partition_chart = horizontal_bars(
        "Cost by partition", [p["name"] or "-" for p in parts_rows],
        [Series("core-hours", PARTITION_COLOURS[0], tuple(p["core_hours"] for p in parts_rows)),
         Series("core-hours with findings", PARTITION_COLOURS[1], tuple(p["flagged_core_hours"] for p in parts_rows))],
        chart_id="chart-partitions")
    summary = [
        ("Jobs (finished)", f"{totals['jobs']:,}"),
        ("Cost (exact)", f"{_h(totals['core_hours'])} core-hours, {_h(totals['gpu_hours'])} GPU-hours"),
        ("Jobs with findings (exact cost, not all lost)",
         f"{totals['flagged_jobs']:,} jobs, {_h(totals['flagged_core_hours'])} core-hours, "
         f"{_h(totals['flagged_gpu_hours'])} GPU-hours"),
        ("Lost (see figures)", f"{totals['lost_jobs']:,} jobs, {_h(totals['lost_core_hours'])} core-hours, "
                               f"{_h(totals['lost_gpu_hours'])} GPU-hours, "
                               f"{_h(totals['lost_wait_hours'])} hours waited"),
        ("Scripts", f"{totals['unique_scripts']:,} distinct, {totals['lint_runs']:,} linted; "
                    f"{totals['jobs_without_script']:,} jobs without a stored script"),
        ("Judged as", f"Slurm {header.get('slurm_version')}"
                      + (f", cluster profile {header['cluster']}" if header.get("cluster") else "")),
        ("Users", str(header.get("users"))),
    ]
    rule_rows = [[r["code"], r["name"], r["severity"], str(r["jobs"]), str(r["users"]), str(r["scripts"]),
                  _h(r["core_hours"]), _h(r["gpu_hours"]), _h(r["lost"]["core_hours"]), _h(r["lost"]["gpu_hours"]),
                  r["lost"]["bound"] if r["lost"]["jobs"] else "-"] for r in report["rules"]]
    body = [
        f"<h1>{escape(title)}</h1>",
        "<table class='totals'>" + "".join(f"<tr><th>{escape(k)}</th><td>{escape(v)}</td></tr>" for k, v in summary)
        + "</table>",
        f"<h2>By rule</h2>{rule_chart}",
        _table(["code", "rule", "severity", "jobs", "users", "scripts", "core-h", "GPU-h", "lost core-h",
                "lost GPU-h", "lost is"], rule_rows),
        f"<h2>By week</h2>{week_chart}", _groups(weeks),
        f"<h2>By partition</h2>{partition_chart}", _groups(report["partitions"]),
        "<h2>Worst users</h2>", _groups(report["users"]),
        "<h2>Worst accounts</h2>", _groups(report["accounts"]),
        "<h2>Figures: exact or upper bound</h2><ul class='note'>"
        + "".join(f"<li><b>{escape(k)}</b>: {escape(v)}</li>" for k, v in report["figures"].items()) + "</ul>",
    ]
    for script in report.get("scripts", []):
        body.append(f"<h2>Script {escape(script['key'][:16])} ({script['jobs']} jobs; "
                    f"{escape(', '.join(script['codes']) or 'clean')})</h2><pre>{escape(script['text'] or '')}</pre>")
    return (f"<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>{escape(title)}</title>"
            f"<style>{_STYLE}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")
