"""Integer sums by rule, user, account, partition and week; a shard's tally merges with others exactly.

Everything counted is a whole number of jobs or seconds, and every "how many distinct" is a set
(of users, of script hashes), so adding shards in any order gives the very tally one run over all
jobs gives: `merge` is what ``slurmspec audit merge`` does. Memory grows with the distinct users,
accounts, partitions, weeks, rules and scripts -- never with the number of jobs.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from slurmspec.audit.cost import Bound, core_seconds, gpu_seconds, job_loss, loss

if TYPE_CHECKING:  # pragma: no cover
    from slurmspec.audit.jobs import Job
    from slurmspec.audit.judge import Finding

GROUPS = ("user", "account", "partition", "week")
PARTIAL_KIND = "slurmspec-audit-partial"


@dataclass(slots=True)
class Sums:
    jobs: int = 0
    core_seconds: int = 0
    gpu_seconds: int = 0
    flagged_jobs: int = 0
    flagged_core_seconds: int = 0
    flagged_gpu_seconds: int = 0
    lost_jobs: int = 0
    lost_core_seconds: int = 0
    lost_gpu_seconds: int = 0
    lost_wait_seconds: int = 0

    def add(self, other: "Sums") -> None:
        for name in _SUM_FIELDS:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def to_dict(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in _SUM_FIELDS}


_SUM_FIELDS = tuple(f.name for f in fields(Sums))


@dataclass(slots=True)
class RuleRow:
    name: str
    severity: str
    outcome: str | None
    jobs: int = 0
    core_seconds: int = 0
    gpu_seconds: int = 0
    lost_jobs: int = 0
    lost_core_seconds: int = 0
    lost_gpu_seconds: int = 0
    lost_wait_seconds: int = 0
    upper_bound: bool = False  # some loss counted here is an upper bound (see cost.py)
    users: set[str] = field(default_factory=set)
    scripts: set[str] = field(default_factory=set)


_RULE_INTS = ("jobs", "core_seconds", "gpu_seconds", "lost_jobs", "lost_core_seconds", "lost_gpu_seconds",
              "lost_wait_seconds")


class Tally:
    """The audit's running sums; `add` one job at a time, `merge` another shard's."""

    def __init__(self, header: dict[str, Any] | None = None, keep_scripts: bool = False) -> None:
        self.header = dict(header or {})
        self.keep_scripts = keep_scripts
        self.totals = Sums()
        self.unfinished = 0  # jobs of the window still pending or running: no final cost yet
        self.without_script = 0  # allocations (salloc/srun) or jobs accounting kept no script for
        self.scripts: set[str] = set()  # distinct script contents (SHA-256)
        self.contexts: set[str] = set()  # distinct (script, submission) pairs: the lint runs needed
        self.groups: dict[str, dict[str, Sums]] = {kind: {} for kind in GROUPS}
        self.rules: dict[str, RuleRow] = {}
        self.script_rows: dict[str, dict[str, Any]] = {}  # --show-scripts only: key -> jobs, codes, text

    def add(self, job: "Job", key: str | None, findings: "tuple[Finding, ...]", text: str | None = None) -> None:
        """Count one finished job; ``key`` is its (script, submission) key, None when it has no script."""
        sums = Sums(jobs=1, core_seconds=core_seconds(job), gpu_seconds=gpu_seconds(job))
        if key is None:
            self.without_script += 1
        else:
            self.scripts.add(key.split(":", 1)[0])
            self.contexts.add(key)
        losses = []
        for finding in findings:
            row = self.rules.get(finding.code)
            if row is None:
                row = self.rules[finding.code] = RuleRow(finding.name, str(finding.severity),
                                                         None if finding.outcome is None else str(finding.outcome))
            row.jobs += 1
            row.core_seconds += sums.core_seconds
            row.gpu_seconds += sums.gpu_seconds
            row.users.add(job.user)
            if key is not None:
                row.scripts.add(key.split(":", 1)[0])
            lost = loss(job, finding)
            if lost is not None:
                losses.append(lost)
                row.lost_jobs += 1
                row.lost_core_seconds += lost.core_seconds
                row.lost_gpu_seconds += lost.gpu_seconds
                row.lost_wait_seconds += lost.wait_seconds
                row.upper_bound |= lost.bound is Bound.UPPER
        if findings:
            sums.flagged_jobs = 1
            sums.flagged_core_seconds, sums.flagged_gpu_seconds = sums.core_seconds, sums.gpu_seconds
        lost = job_loss(losses)
        if lost is not None:
            sums.lost_jobs, sums.lost_core_seconds = 1, lost.core_seconds
            sums.lost_gpu_seconds, sums.lost_wait_seconds = lost.gpu_seconds, lost.wait_seconds
        self.totals.add(sums)
        for kind, name in zip(GROUPS, (job.user, job.account, job.partition, job.week)):
            self.groups[kind].setdefault(name, Sums()).add(sums)
        if self.keep_scripts and key is not None:
            row = self.script_rows.setdefault(key, {"jobs": 0, "codes": [f.code for f in findings], "text": text})
            row["jobs"] += 1

    # ------------------------------------------------------------------ shards
    def merge(self, other: "Tally") -> None:
        self.totals.add(other.totals)
        self.unfinished += other.unfinished
        self.without_script += other.without_script
        self.scripts |= other.scripts
        self.contexts |= other.contexts
        for kind in GROUPS:
            mine = self.groups[kind]
            for name, sums in other.groups[kind].items():
                mine.setdefault(name, Sums()).add(sums)
        for code, theirs in other.rules.items():
            row = self.rules.setdefault(code, RuleRow(theirs.name, theirs.severity, theirs.outcome))
            for name in _RULE_INTS:
                setattr(row, name, getattr(row, name) + getattr(theirs, name))
            row.upper_bound |= theirs.upper_bound
            row.users |= theirs.users
            row.scripts |= theirs.scripts
        self.keep_scripts |= other.keep_scripts
        for key, theirs in other.script_rows.items():
            row = self.script_rows.setdefault(key, {**theirs, "jobs": 0})
            row["jobs"] += theirs["jobs"]

    def to_partial(self) -> dict[str, Any]:
        """Everything `merge` needs, as JSON data (script hashes and user names; texts only if kept)."""
        return {
            "kind": PARTIAL_KIND, "version": 1, "header": self.header, "keep_scripts": self.keep_scripts,
            "totals": self.totals.to_dict(), "unfinished": self.unfinished, "without_script": self.without_script,
            "scripts": sorted(self.scripts), "contexts": sorted(self.contexts),
            "groups": {kind: {name: sums.to_dict() for name, sums in sorted(rows.items())}
                       for kind, rows in self.groups.items()},
            "rules": {code: {**{name: getattr(row, name) for name in _RULE_INTS}, "name": row.name,
                             "severity": row.severity, "outcome": row.outcome, "upper_bound": row.upper_bound,
                             "users": sorted(row.users), "scripts": sorted(row.scripts)}
                      for code, row in sorted(self.rules.items())},
            "script_rows": dict(sorted(self.script_rows.items())),
        }

    @classmethod
    def from_partial(cls, data: dict[str, Any]) -> "Tally":
        if data.get("kind") != PARTIAL_KIND or data.get("version") != 1:
            raise ValueError("not a shard of `slurmspec audit --shard` (version 1)")
        tally = cls(data["header"], data["keep_scripts"])
        tally.totals = Sums(**data["totals"])
        tally.unfinished, tally.without_script = data["unfinished"], data["without_script"]
        tally.scripts, tally.contexts = set(data["scripts"]), set(data["contexts"])
        tally.groups = {kind: {name: Sums(**sums) for name, sums in data["groups"][kind].items()} for kind in GROUPS}
        for code, row in data["rules"].items():
            tally.rules[code] = RuleRow(row["name"], row["severity"], row["outcome"],
                                        **{name: row[name] for name in _RULE_INTS}, upper_bound=row["upper_bound"],
                                        users=set(row["users"]), scripts=set(row["scripts"]))
        tally.script_rows = {key: dict(row) for key, row in data["script_rows"].items()}
        return tally
