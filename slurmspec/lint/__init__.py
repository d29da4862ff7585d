"""Linting: rules, the engine that runs them, and the diagnostics they produce."""

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
    from slurmspec.lint.engine import lint_script, too_large_finding
    from slurmspec.limits import beyond_limits, head_of
    from slurmspec.parser.script import parse_script
    from slurmspec.version import NEWEST

    if version is None and cluster is not None:
        version = cluster.version
    data = source.encode("utf-8", "surrogateescape") if isinstance(source, str) else source
    if (beyond := beyond_limits(data)) is not None:
        return too_large_finding(parse_script(head_of(data), path, version or NEWEST), None, beyond)
    checker = None
    if shellcheck:
        import os

        from slurmspec.lint.shellcheck import ShellCheck

        checker = ShellCheck(cwd=os.path.dirname(os.path.abspath(path)) if path else None)
    script = parse_script(source, path, version or NEWEST)
    if argv is not None or environ is not None:
        from slurmspec.invocation.submission import Invocation

        script = Invocation(argv or (), environ or {}).apply(script)
    return lint_script(script, shellcheck=checker, cluster=cluster, policy=policy)


def refuses(diagnostics: list["Diagnostic"]) -> bool:
    """True when the findings say sbatch (or slurmctld at submission) refuses the script."""
    from slurmspec.kinds import Severity
    from slurmspec.check.rule import REFUSING_FAMILIES

    return any(d.severity is Severity.ERROR and d.family in REFUSING_FAMILIES for d in diagnostics)
