"""What a document is linted with: the configuration the CLI would find for it, turned into settings.

Discovery is the CLI's (``slurmspec.lint.config``: the nearest
``slurmspec.toml`` or ``pyproject.toml`` with ``[tool.slurmspec]`` above the
file; for an unsaved buffer, above the working folder), and ``--config`` /
``--no-config`` given to ``slurmspec lsp`` mean what they mean for ``lint``.
Unlike the CLI's ``ConfigCache``, which lives for one run, the server lives
for hours: discovery runs again for every lint (a few ``stat`` calls), and a
file is parsed again only when its modification time or size changed, so
editing, creating or deleting a configuration file takes effect on the next
keystroke.
"""

from __future__ import annotations

import os
from typing import Mapping

import attrs

from slurmspec.frozen import frozen
from slurmspec.lint.config import DEFAULT, Config, ConfigError, find_config, load_config
from slurmspec.lint.context import FileSystem
from slurmspec.version import NEWEST, Version


@frozen(eq=False)
class LintSettings:
    """Everything one lint needs besides the text; ``error`` is a configuration that cannot be used."""

    rules: tuple = ()
    severity: Mapping[str, str] = attrs.field(factory=dict)
    version: Version = NEWEST
    shellcheck: bool = False
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    severity_selectors: Mapping[str, str] = attrs.field(factory=dict)
    fs: FileSystem = attrs.field(factory=FileSystem)
    config_path: str | None = None
    error: str | None = None

    def shellcheck_checker(self, path: str | None):
        """The CLI's ShellCheck bridge for this document (it reads ``.shellcheckrc`` beside the file)."""
        from slurmspec.lint.shellcheck import ShellCheck

        cwd = os.path.dirname(path) if path else self.fs.cwd()
        return ShellCheck(self.select, self.ignore, self.severity_selectors, cwd=cwd)


def _stamp(path: str) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size


class ConfigSource:
    """Finds the configuration of each document, reloading a file only when it changed."""

    def __init__(self, explicit: str | None = None, enabled: bool = True,
                 slurm_version: Version | None = None, root: str | None = None) -> None:
        self.explicit, self.enabled, self.slurm_version = explicit, enabled, slurm_version
        self.root = root  # the workspace folder: the working folder of unsaved buffers and log checks
        self._loaded: dict[str, tuple[tuple[int, int] | None, Config]] = {}

    def config_for(self, path: str | None) -> Config:
        """Raises ``ConfigError`` as ``load_config`` does."""
        if self.explicit is not None:
            return self._load(self.explicit)
        if not self.enabled:
            return DEFAULT
        folder = os.path.dirname(path) if path else (self.root or os.getcwd())
        found = find_config(folder)
        return DEFAULT if found is None else self._load(found)

    def _load(self, path: str) -> Config:
        stamp = _stamp(path)
        cached = self._loaded.get(path)
        if cached is not None and stamp is not None and cached[0] == stamp:
            return cached[1]
        config = load_config(path)
        self._loaded[path] = (stamp, config)
        return config

    def settings_for(self, path: str | None) -> LintSettings:
        """The settings of a document at ``path`` (None: an unsaved buffer); never raises."""
        fs = FileSystem(self.root)
        try:
            config = self.config_for(path)
        except ConfigError as exc:
            return LintSettings(fs=fs, error=str(exc))
        from slurmspec.lint.engine import select_rules

        select = config.select
        ignore = (*config.ignore, *config.ignores_for(path))
        rules = tuple(select_rules(select, ignore, config.extend_select))
        return LintSettings(
            rules=rules,
            severity=config.severities(rule.code for rule in rules),
            version=self.slurm_version or config.slurm_version or NEWEST,
            shellcheck=bool(config.shellcheck),
            select=(*select, *config.extend_select),
            ignore=ignore,
            severity_selectors=dict(config.severity),
            fs=fs,
            config_path=config.path,
        )
