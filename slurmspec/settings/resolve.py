"""The one place settings are resolved: a configuration, with what the command line (or the language
server's own arguments) puts over it, becomes the frozen ``LintSettings`` a lint runs with.

``slurmspec lint``, ``slurmspec submit`` and the language server call ``resolve_settings``; they differ
only in how they find the configuration (``ConfigCache`` for one run, ``lsp.settings.ConfigSource``
for a server that lives for hours) and in how they keep cluster profiles (``load_profile``).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Callable

from slurmspec.check.context import LOCAL, FileSystem
from slurmspec.frozen import frozen
from slurmspec.lint.pipeline import LintSettings

if TYPE_CHECKING:  # pragma: no cover
    import argparse

    from slurmspec.settings.config import Config
    from slurmspec.version import Version


@frozen
class Overrides:
    """What is given besides the configuration: ``--select`` replaces its ``select`` (and then its
    ``extend-select`` too), ``--extend-select`` and ``--ignore`` add to it, the rest replace it when given."""

    select: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    cluster: str | None = None  # a profile's path
    slurm_version: "Version | None" = None
    shellcheck: bool | None = None
    fail_on: str | None = None
    suppress: bool = True

    @classmethod
    def of(cls, args: "argparse.Namespace") -> "Overrides":
        """The overrides of a command's parsed arguments (``lint``'s flags; ``submit`` sets none)."""
        return cls(tuple(args.select), tuple(args.extend_select), tuple(args.ignore), args.cluster,
                   args.slurm_version, args.shellcheck, args.fail_on, not getattr(args, "no_suppress", False))


def load_cluster(path: str | None, cache: dict):
    """The profile at ``path`` (once per path), or None; raises ``ProfileError``."""
    if path is None:
        return None
    key = os.path.abspath(path)
    if key not in cache:
        from slurmspec.cluster.store import load_profile

        cache[key] = load_profile(path)
    return cache[key]


def resolve_settings(
    config: "Config", overrides: Overrides, path: str | None, load_profile: Callable[[str | None], Any],
    fs: FileSystem = LOCAL,
) -> LintSettings:
    """The settings for the file at ``path`` (its per-file ignores count). ``load_profile`` reads
    a cluster profile (None for no path; it checks the profile's own policy); raises ``ConfigError``
    and ``ProfileError`` as the configuration and the profile do."""
    from slurmspec.lint.engine import select_rules
    from slurmspec.settings.release import target_version

    select = overrides.select or config.select
    extend = overrides.extend_select if overrides.select else (*config.extend_select, *overrides.extend_select)
    ignore = (*config.ignore, *overrides.ignore, *config.ignores_for(path))
    rules = tuple(select_rules(select, ignore, extend))
    cluster = load_profile(overrides.cluster or config.cluster)
    if cluster is not None and config.policy is not None:  # the profile's own is checked as it loads
        from slurmspec.cluster.policy import check_policy

        check_policy(config.policy, cluster)
    version, version_from = target_version(overrides.slurm_version, config.slurm_version, cluster)
    return LintSettings(
        rules,
        severity=config.severities(rule.code for rule in rules),
        version=version,
        version_from=version_from,
        suppress=overrides.suppress,
        fail_on=overrides.fail_on or config.fail_on or "warning",
        shellcheck=bool(config.shellcheck if overrides.shellcheck is None else overrides.shellcheck),
        select=(*select, *extend),
        ignore=ignore,
        severity_selectors=dict(config.severity),
        fs=fs,
        cluster=cluster,
        policy=config.policy,  # the configuration's [policy]; the profile's is cluster.policy
        config_path=config.path,
    )
