"""What a rule sees: the script, the target release, the machine, and ``report()``.

Rules never call ``os`` themselves: the folders a relative ``--output`` would
land in are asked of ``ctx.fs``, so a library user (or a test) can lint as if
on another machine, and a language server can answer without touching the
disk. Facts that several rules need (the body index, the job's geometry) are
computed once per script through ``ctx.shared``.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from slurmspec.kinds import Outcome, Severity
from slurmspec.diagnostic import Diagnostic
from slurmspec.model.job.model import JobModel, job_model_of
from slurmspec.span import Span

if TYPE_CHECKING:  # pragma: no cover
    from slurmspec.cluster.policy import Policy
    from slurmspec.cluster.profile import Profile
    from slurmspec.fix.edit import Fix
    from slurmspec.check.rule import Rule
    from slurmspec.model.syntax.script import Script

T = TypeVar("T")


class FileSystem:
    """The machine as rules may see it: which folders exist, and the folder the linter runs in.

    ``cwd=None`` means "the process's working folder"; tests and library users
    pass another. Every question answers False (never raises) on an unreadable
    or malformed path.
    """

    def __init__(self, cwd: str | None = None) -> None:
        self._cwd = cwd

    def cwd(self) -> str | None:
        if self._cwd is not None:
            return self._cwd
        try:
            return os.getcwd()
        except OSError:  # the working folder was removed under us
            return None

    def isdir(self, path: str) -> bool:
        try:
            return os.path.isdir(self._resolve(path))
        except (OSError, ValueError):
            return False

    def isfile(self, path: str) -> bool:
        try:
            return os.path.isfile(self._resolve(path))
        except (OSError, ValueError):
            return False

    def _resolve(self, path: str) -> str:
        if self._cwd is None or os.path.isabs(path):
            return path
        return os.path.join(self._cwd, path)


LOCAL = FileSystem()


class Context:
    """One script's lint run: rules read ``script``/``version``/``fs``/``cluster`` and call ``report``.

    ``cluster`` is the cluster profile the script is checked against
    (``lint --cluster``), or None; cluster rules do nothing without one.
    """

    def __init__(
        self, script: "Script", rules_by_code: dict[str, "Rule"], fs: FileSystem = LOCAL,
        cluster: "Profile | None" = None, policy: "Policy | None" = None,
    ) -> None:
        self.script = script
        self.version = script.version
        self.fs = fs
        self.cluster = cluster
        self.policy = policy  # a site policy from the configuration (the profile's is ``cluster.policy``)
        self.rules_by_code = rules_by_code  # every rule, selected or not (a code is known even when ignored)
        self._shared: dict[Callable, Any] = {}
        self.found: list[Diagnostic] = []
        # True in the context `refusals_in` makes to try another text: only its findings count, so
        # a rule builds no fix there (a fix tried by reading the text again would recurse).
        self.trying = False

    def refusals_in(self, script: "Script") -> list[Diagnostic]:
        """What the client-side refusing rules (parse, reject) find in ``script``, another text of this
        one (what an advice or a fix would leave): for a rule whose advice must not bring a refusal."""
        from slurmspec.check.rule import REFUSING_FAMILIES

        other = Context(script, self.rules_by_code, self.fs, self.cluster, self.policy)
        other.trying = True
        for rule in self.rules_by_code.values():
            if rule.family in REFUSING_FAMILIES:
                try:
                    rule.check(other)
                except Exception:  # noqa: BLE001 - the engine reports a broken rule on the script itself
                    continue
        return [d for d in other.found if d.severity is Severity.ERROR and d.family in REFUSING_FAMILIES]

    def report(
        self, code: str, span: Span, message: str, *,
        severity: Severity | None = None, outcome: Outcome | None = None,
        notes: tuple[str, ...] = (), fix: "Fix | None" = None,
    ) -> None:
        """Add a finding of rule ``code``; ``severity``/``outcome`` override the rule's for this one."""
        rule = self.rules_by_code[code]
        self.found.append(
            Diagnostic(
                code=rule.code,
                name=rule.name,
                family=rule.family,
                severity=severity or rule.severity,
                outcome=outcome or rule.outcome,
                message=message,
                span=span,
                path=self.script.path,
                notes=notes,
                fix=fix,
            )
        )

    @property
    def job(self) -> JobModel:
        """The job model (``slurmspec/model/job/model.py``): components, steps, tasks; built once per script."""
        return self.shared(job_model_of)

    def shared(self, compute: Callable[["Context"], T]) -> T:
        """``compute(self)``, run once per script: a fact several rules use, or a group's checker.

        A group checker reports findings of several codes; the engine keeps those
        of the selected rules, so running it from any one of them is enough.
        If it raised, every rule that asks for it raises the same exception.
        """
        try:
            result = self._shared[compute]
        except KeyError:
            try:
                result = compute(self)
            except Exception as exc:  # noqa: BLE001 - kept, re-raised to each rule that asks
                self._shared[compute] = _Raised(exc)
                raise
            self._shared[compute] = result
            return result
        if isinstance(result, _Raised):
            raise result.exc
        return result


class _Raised:
    __slots__ = ("exc",)

    def __init__(self, exc: Exception) -> None:
        self.exc = exc
