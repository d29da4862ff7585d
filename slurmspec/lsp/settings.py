"""What a document is linted with: the configuration the CLI would find for it, turned into settings.

Discovery is the CLI's (``slurmspec.settings.config``: the nearest
``slurmspec.toml`` or ``pyproject.toml`` with ``[tool.slurmspec]`` above the
file; for an unsaved buffer, above the workspace folder), and so are the
cluster profile (the configuration's ``cluster``), its policy check and the
choice of target release (``slurmspec.settings.release.target_version``): both
resolve through ``slurmspec.settings.resolve``;
``--config``, ``--no-config``, ``--cluster`` and ``--slurm-version`` given to
``slurmspec lsp`` mean what they mean for ``lint``. Unlike the CLI's
``ConfigCache``, which lives for one run, the server lives for hours:
discovery runs again for every lint (a few ``stat`` calls), and a file
(configuration or profile) is parsed again only when its modification time or
size changed (for a configuration, also those of the policy file its
``policy`` names), so editing, creating or deleting one takes effect on the
next keystroke. A file that cannot be used becomes ``LintSettings.error``, shown in
the editor, where the CLI would exit 2.
"""

from __future__ import annotations

import os
from typing import Any, Callable

from slurmspec.check.context import FileSystem
from slurmspec.lint.pipeline import LintSettings
from slurmspec.settings.config import DEFAULT, Config, ConfigError, find_config, load_config
from slurmspec.version import Version


def _stamp(path: str) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size


class _Stamped:
    """Files read again only when their modification time or size, or that of a file they name, changed."""

    def __init__(self, load: Callable[[str], Any], names: Callable[[Any], tuple[str, ...]] = lambda value: ()) -> None:
        self._load, self._names = load, names
        self._loaded: dict[str, tuple[tuple, Any]] = {}

    def get(self, path: str) -> Any:
        stamp = _stamp(path)  # before reading: a change made while it is read is seen next time
        cached = self._loaded.get(path)
        if cached is not None:
            stamps, value = cached
            if None not in stamps and stamps == (stamp, *self._named_stamps(value)):
                return value
        value = self._load(path)
        self._loaded[path] = ((stamp, *self._named_stamps(value)), value)
        return value

    def _named_stamps(self, value: Any) -> tuple:
        return tuple(_stamp(name) for name in self._names(value))


def _policy_file(config: Config) -> tuple[str, ...]:
    """The file ``policy = "site-policy.toml"`` names, when the policy is not in the configuration itself."""
    policy = config.policy
    if policy is None or policy.source == config.path:
        return ()
    return (policy.source,)


def _load_profile(path: str):
    from slurmspec.cluster.store import load_profile

    return load_profile(path)


class ConfigSource:
    """Finds the configuration (and cluster profile) of each document."""

    def __init__(self, explicit: str | None = None, enabled: bool = True, slurm_version: Version | None = None,
                 cluster: str | None = None, root: str | None = None) -> None:
        self.explicit, self.enabled, self.slurm_version, self.cluster = explicit, enabled, slurm_version, cluster
        self.root = root  # the workspace folder: the working folder of unsaved buffers and log checks
        self._configs = _Stamped(load_config, _policy_file)
        self._profiles = _Stamped(_load_profile)

    def config_for(self, path: str | None) -> Config:
        """Raises ``ConfigError`` as ``load_config`` does."""
        if self.explicit is not None:
            return self._configs.get(self.explicit)
        if not self.enabled:
            return DEFAULT
        folder = os.path.dirname(path) if path else (self.root or os.getcwd())
        found = find_config(folder)
        return DEFAULT if found is None else self._configs.get(found)

    def profile_for(self, path: str | None):
        """The cluster profile at ``path`` (``--cluster``, else the configuration's), read again when it
        changed; ``load_profile`` checks its own policy, ``resolve_settings`` the configuration's."""
        return None if path is None else self._profiles.get(os.path.abspath(path))

    def settings_for(self, path: str | None) -> LintSettings:
        """The settings of a document at ``path`` (None: an unsaved buffer); never raises on a bad file."""
        from slurmspec.cluster.errors import ProfileError
        from slurmspec.settings.resolve import Overrides, resolve_settings

        fs = FileSystem(self.root)
        overrides = Overrides(cluster=self.cluster, slurm_version=self.slurm_version)
        try:
            return resolve_settings(self.config_for(path), overrides, path, self.profile_for, fs)
        except (ConfigError, ProfileError) as exc:
            return LintSettings(fs=fs, error=str(exc))
