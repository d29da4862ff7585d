"""One lint of one text, the same for every caller: ``slurmspec lint``, its fix rounds, ``submit``, ``audit``,
the language server and ``lint_text``.

The steps (``lint_source``): the size limits (a text past one is parsed only up to it, and gets SB106
or SB905 alone), parsing for the target release, the sbatch invocation when there is one, then the
engine (``slurmspec.lint.engine.lint_script``: the selected rules, ShellCheck when given, the codes
asked for, suppression comments, severity overrides). What differs between callers is a value of
``LintSettings``, resolved once per configuration (``slurmspec.settings.resolve``): ``lint_text`` runs
every rule (``every_rule``), the CLI and the language server the selection the configuration and
flags make (the default selection without ``select``).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Mapping, NamedTuple

import attrs

from slurmspec.check.context import LOCAL, FileSystem
from slurmspec.frozen import as_tuple, frozen
from slurmspec.version import NEWEST, Version

if TYPE_CHECKING:  # pragma: no cover
    from slurmspec.check.rule import Rule
    from slurmspec.diagnostic import Diagnostic
    from slurmspec.invocation.submission import Invocation
    from slurmspec.lint.shellcheck import ShellCheck
    from slurmspec.model.syntax.script import Script


@frozen(eq=False)
class LintSettings:
    """Everything one lint needs besides the text; ``error`` is a configuration that cannot be used
    (the language server shows it where the CLI exits 2)."""

    rules: tuple["Rule", ...] = attrs.field(default=(), converter=as_tuple)  # the selected rules, in registry order
    severity: Mapping[str, str] = attrs.field(factory=dict)  # code -> severity the configuration sets
    version: Version = NEWEST
    version_from: str = "newest supported release"  # why this release (``target_version``)
    suppress: bool = True  # False: ``--no-suppress``, suppression comments count for nothing
    fail_on: str = "warning"  # the lowest severity that makes ``lint`` exit 1
    shellcheck: bool = False  # run ShellCheck on the body (the caller makes the checker: ``shellcheck_for``)
    select: tuple[str, ...] = ()  # the selectors, for ShellCheck's SCxxxx codes
    ignore: tuple[str, ...] = ()
    severity_selectors: Mapping[str, str] = attrs.field(factory=dict)
    fs: FileSystem = LOCAL  # the machine the rules may look at
    cluster: Any = None  # slurmspec.cluster.profile.Profile, or None
    policy: Any = None  # the configuration's [policy] (the profile's is cluster.policy)
    config_path: str | None = None
    error: str | None = None

    def shellcheck_for(self, path: str | None) -> "ShellCheck | None":
        """ShellCheck as a checker for the file at ``path`` (it reads ``.shellcheckrc`` beside it), or
        None when ShellCheck is not asked for."""
        if not self.shellcheck:
            return None
        from slurmspec.lint.shellcheck import ShellCheck

        cwd = os.path.dirname(os.path.abspath(path)) if path else self.fs.cwd()
        return ShellCheck(self.select, self.ignore, self.severity_selectors, cwd=cwd)


def every_rule() -> tuple["Rule", ...]:
    """Every registered rule, default and opt-in: what ``lint_text`` and ``emit`` run."""
    from slurmspec.lint.engine import registry

    return tuple(registry().values())


class Linted(NamedTuple):
    script: "Script"  # of a text past a limit, its head only
    diagnostics: list["Diagnostic"]


def lint_source(
    source: str | bytes, settings: LintSettings, path: str | None = None, *,
    invocation: "Invocation | None" = None, shellcheck: "ShellCheck | None" = None,
) -> Linted:
    """The findings in ``source`` (shown as ``path``) under ``settings``; never raises on content.

    ``invocation`` is sbatch's command line and environment (``slurmspec.invocation``): its
    ``apply`` raises ``InvocationError``. ``shellcheck`` is the checker to run on the body
    (``settings.shellcheck_for``; the language server hands in comments it gathered itself).
    """
    from slurmspec.limits import beyond_limits, head_of
    from slurmspec.lint.engine import too_large_finding
    from slurmspec.parser.script import parse_script

    if (beyond := beyond_limits(source)) is not None:  # over 4 MiB, or more than slurmspec analyses
        data = source if isinstance(source, bytes) else source.encode("utf-8", "surrogatepass")
        head = parse_script(head_of(data), path, settings.version)
        return Linted(head, too_large_finding(head, settings.rules, beyond))
    return lint_script_with(parse_script(source, path, settings.version), settings, invocation=invocation,
                            shellcheck=shellcheck)


def lint_script_with(
    script: "Script", settings: LintSettings, *, invocation: "Invocation | None" = None,
    shellcheck: "ShellCheck | None" = None,
) -> Linted:
    """``lint_source`` from its parsed script on (no size limit: the text was checked or is a fix round's)."""
    from slurmspec.lint.engine import lint_script

    if invocation is not None:
        script = invocation.apply(script)
    found = lint_script(script, settings.rules, severity=settings.severity, suppress=settings.suppress,
                        fs=settings.fs, shellcheck=shellcheck, cluster=settings.cluster, policy=settings.policy)
    return Linted(script, found)


def fix_round_linter(settings: LintSettings, path: str | None):
    """The lint one fix round runs (``slurmspec.fix.loop.fix_text``): the text as parsed, and its findings.

    Without ShellCheck (its findings have no fixes: the caller lints the final text with it once),
    without the invocation (only the script is a file slurmspec edits) and without the size limits
    (the input was checked before its first round; a round must never see only a head of the text)."""
    from slurmspec.parser.script import parse_script

    def lint(text: str | bytes):
        script, found = lint_script_with(parse_script(text, path, settings.version), settings)
        return script.to_text(), found

    return lint
