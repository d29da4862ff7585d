"""Each distinct script, in each distinct submission context, linted once through the lint engine.

A job's findings depend on its script and on how it was submitted: sbatch's options on the submit
line and the ``SBATCH_*`` variables of its stored environment (``slurmspec.invocation``), and the
folder it was submitted from, against which relative ``--output`` folders are checked
(``FileSystem(cwd=WorkDir)``). The cache key is the SHA-256 of the script's bytes plus a digest of
that context, so the same script submitted a thousand times from one folder is linted once.

What is kept per key is only the rules a job carries (`Finding`: code, name, severity, outcome,
and how many GPUs per node a finding says stay idle) -- never the text of a script or a value of
its environment.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Mapping

from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import FileSystem

if TYPE_CHECKING:  # pragma: no cover
    from slurmspec.audit.jobs import Job
    from slurmspec.cluster.policy import Policy
    from slurmspec.cluster.profile import Profile
    from slurmspec.check.rule import Rule
    from slurmspec.version import Version

# The phrase the launch rules use for GPUs a step leaves unused (rules/launch/_common.py, idle()):
# "3 GPUs stay idle", "1 GPU stays idle".
_IDLE = re.compile(r"\b(\d+) GPUs? stays? idle\b")


@dataclass(frozen=True, slots=True)
class Finding:
    code: str
    name: str
    severity: Severity
    outcome: Outcome | None
    idle_gpus_per_node: int  # 0 unless the finding says that many GPUs per node stay idle


@dataclass(frozen=True, slots=True)
class Submission:
    """How a job was submitted, as far as accounting says."""

    work_dir: str
    options: tuple[str, ...]  # sbatch's options before the script, from the SubmitLine
    environ: tuple[tuple[str, str], ...]  # the SBATCH_* variables of the stored environment

    def digest(self) -> str:
        text = "\0".join((self.work_dir, "\x1e".join(self.options), "\x1e".join(f"{k}={v}" for k, v in self.environ)))
        return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:16]


def script_hash(script: bytes) -> str:
    return hashlib.sha256(script).hexdigest()


def submission_of(job: "Job", environ: Mapping[str, str], version: "Version") -> Submission:
    """The submission context of ``job``: the options of its submit line, its SBATCH_* variables."""
    from slurmspec.invocation.submission import split_submission

    words = job.submit_line.split()
    options: tuple[str, ...] = ()
    if words and words[0].rsplit("/", 1)[-1] == "sbatch":
        try:
            options = split_submission(words[1:], version)[0]
        except Exception:  # noqa: BLE001 - a submit line the option table cannot read: judge the script alone
            options = ()
    return Submission(job.work_dir, tuple(options), tuple(sorted(environ.items())))


class Judge:
    """Lints with one set of rules, one target release and one cluster profile; remembers every answer."""

    def __init__(self, version: "Version", rules: "Iterable[Rule] | None" = None, *,
                 cluster: "Profile | None" = None, policy: "Policy | None" = None,
                 severity: Mapping[str, str] | None = None) -> None:
        from slurmspec.lint.pipeline import LintSettings, every_rule

        self.version = version
        # Without ``rules``, every rule (``audit`` passes its own selection).
        self.settings = LintSettings(every_rule() if rules is None else rules, severity=dict(severity or {}),
                                     version=version, cluster=cluster, policy=policy)
        self._cache: dict[str, tuple[Finding, ...]] = {}
        self.lint_runs = 0

    def key(self, script: bytes, submission: Submission) -> str:
        return f"{script_hash(script)}:{submission.digest()}"

    def findings(self, key: str, script: bytes, submission: Submission) -> tuple[Finding, ...]:
        """The rules ``script`` carries when submitted so; linted on the first call for ``key`` only."""
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._lint(script, submission)
        return found

    def _lint(self, script: bytes, submission: Submission) -> tuple[Finding, ...]:
        import attrs

        from slurmspec.invocation.command_line import InvocationError
        from slurmspec.invocation.submission import Invocation
        from slurmspec.lint.pipeline import lint_source

        self.lint_runs += 1
        fs = FileSystem(cwd=submission.work_dir) if submission.work_dir else _UnknownFolders()
        settings = attrs.evolve(self.settings, fs=fs)
        try:
            invocation = None
            if submission.options or submission.environ:
                invocation = Invocation(submission.options, dict(submission.environ))
            return summarise(lint_source(script, settings, invocation=invocation).diagnostics)
        except InvocationError:  # judged as the script alone: the recorded submit line was not sbatch's own words
            return summarise(lint_source(script, settings).diagnostics)


class _UnknownFolders(FileSystem):
    """Accounting kept no WorkDir: every folder is taken to exist, so none is reported missing."""

    def __init__(self) -> None:
        super().__init__(cwd="/")

    def isdir(self, path: str) -> bool:
        return True


def summarise(diagnostics) -> tuple[Finding, ...]:
    """One `Finding` per rule code, in code order; the largest idle-GPU count a message of it states."""
    by_code: dict[str, Finding] = {}
    for diagnostic in diagnostics:
        idle = max((int(n) for n in _IDLE.findall(diagnostic.message)), default=0)
        seen = by_code.get(diagnostic.code)
        if seen is None or idle > seen.idle_gpus_per_node:
            by_code[diagnostic.code] = Finding(diagnostic.code, diagnostic.name, Severity(diagnostic.severity),
                                               diagnostic.outcome, max(idle, seen.idle_gpus_per_node if seen else 0))
    return tuple(by_code[code] for code in sorted(by_code))
