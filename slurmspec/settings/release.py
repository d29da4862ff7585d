"""The Slurm release a run targets: ``--slurm-version`` > configuration > cluster profile > installed sbatch > newest.

One choice for every command (``lint``, ``emit``, ``parse``, ``audit``) and the language server.
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from slurmspec.version import Version


def target_version(given, configured, cluster) -> tuple["Version", str]:
    """The release to target and why: ``--slurm-version`` > configuration > cluster profile > installed sbatch > newest."""
    from slurmspec.version import NEWEST

    if given is not None:
        return given, "--slurm-version"
    if configured is not None:
        return configured, "configuration"
    if cluster is not None:
        return cluster.version, f"cluster profile {cluster.source}"
    installed = installed_sbatch_version()
    if installed is not None:
        return installed, "installed sbatch"
    return NEWEST, "newest supported release"


def on_path(name: str) -> str | None:
    """``shutil.which(name)`` for a plain name, without importing shutil (and the compressors it imports)."""
    for folder in os.environ.get("PATH", os.defpath).split(os.pathsep):
        candidate = os.path.join(folder or os.curdir, name)
        if os.access(candidate, os.X_OK) and not os.path.isdir(candidate):
            return candidate
    return None


@lru_cache(maxsize=1)
def installed_sbatch_version() -> "Version | None":
    """The release of the ``sbatch`` on PATH (``sbatch --version``: "slurm 22.05.8"), once per process;
    a successful answer is remembered across runs for the same binary (``slurmspec/settings/installed.py``).

    None when there is no sbatch, or it cannot answer: Slurm's clients read
    slurm.conf (or ask DNS for it) even for ``--version``, and fail on a
    machine that has the programs but no cluster.
    """
    from slurmspec.cluster.release import target_release

    from slurmspec.settings.installed import FAILED, remember, remembered

    sbatch = on_path("sbatch")
    if sbatch is None:
        return None
    text = remembered(sbatch)
    if text == FAILED:
        return None
    if text is None:
        import re  # only on a cache miss: a cold lint should not pay for subprocess
        import subprocess

        try:
            done = subprocess.run([sbatch, "--version"], capture_output=True, text=True, timeout=10,
                                  stdin=subprocess.DEVNULL, check=False)
        except (OSError, subprocess.SubprocessError):
            done = None
        match = None if done is None else re.match(r"slurm\S*\s+(\d+\.\d+(?:\.\d+)?)", done.stdout.strip())
        if done is None or done.returncode != 0 or match is None:
            remember(sbatch, None)
            return None
        text = match[1]
        remember(sbatch, text)
    try:
        return target_release(text)
    except ValueError:  # older than any release slurmspec models
        return None
