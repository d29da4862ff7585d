"""Linting: the engine that runs the rules, and the one pipeline every caller lints a text with."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from typing import Mapping, Sequence

    from slurmspec.cluster.policy import Policy
    from slurmspec.cluster.profile import Profile
    from slurmspec.diagnostic import Diagnostic
    from slurmspec.version import Version


def lint_text(
    source: str | bytes, path: str | None = None, version: "Version | None" = None, *, shellcheck: bool = False,
    cluster: "Profile | None" = None, policy: "Policy | None" = None,
    argv: "Sequence[str] | None" = None, environ: "Mapping[str, str] | None" = None,
) -> list["Diagnostic"]:
    """Parse and lint one script with every rule (and ShellCheck on the body, if asked).

    Never raises on content: a rule that fails becomes an SB900 finding. With
    ``shellcheck=True`` it raises ``ShellCheckError`` when ShellCheck cannot run.
    ``cluster`` is a profile (``slurmspec.cluster.load_profile``) for the cluster
    rules; without ``version`` the profile's Slurm release is targeted, else the newest.
    ``policy`` is a site policy (``slurmspec.cluster.policy.parse_policy``) checked
    besides the profile's own (rules SB460-SB465).
    ``argv`` (sbatch's arguments before the script) and ``environ`` (its environment; only
    the ``SBATCH_*`` variables it reads count) lint the request as sbatch will see it
    (``slurmspec.invocation``); a stray argument raises ``InvocationError``.
    """
    from slurmspec.lint.pipeline import LintSettings, every_rule, lint_source
    from slurmspec.version import NEWEST

    if version is None and cluster is not None:
        version = cluster.version
    settings = LintSettings(every_rule(), version=version or NEWEST, shellcheck=shellcheck, cluster=cluster,
                            policy=policy)
    invocation = None
    if argv is not None or environ is not None:
        from slurmspec.invocation.submission import Invocation

        invocation = Invocation(argv or (), environ or {})
    shellcheck_run = settings.shellcheck_for(path)
    return lint_source(source, settings, path, invocation=invocation, shellcheck=shellcheck_run).diagnostics


def refuses(diagnostics: list["Diagnostic"]) -> bool:
    """True when the findings say sbatch (or slurmctld at submission) refuses the script."""
    from slurmspec.check.rule import REFUSING_FAMILIES
    from slurmspec.kinds import Severity

    return any(d.severity is Severity.ERROR and d.family in REFUSING_FAMILIES for d in diagnostics)
