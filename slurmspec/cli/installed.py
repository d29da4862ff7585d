"""The Slurm release of the ``sbatch`` on PATH, remembered across runs.

``sbatch --version`` costs 20–30 ms (a process, and Slurm's clients read
slurm.conf even for ``--version``): a fifth of a cold ``lint``. The answer only
changes when the binary does, so a successful answer is kept in the user's
private cache folder keyed by the binary's real path, size and modification
time. A failed answer (usually: the programs are installed but there is no
slurm.conf, and no DNS SRV record for a configless cluster) is kept only for
``FAILURE_SECONDS`` and only while the configuration file ``SLURM_CONF`` names
(else Debian's ``/etc/slurm/slurm.conf``) stays as it was, so a machine that
gets a cluster is asked again at once -- without it, every cold lint on such a
machine paid for the process.
"""

from __future__ import annotations

import json
import os
import re
import stat

_CACHE_NAME = "sbatch-version.json"
FAILURE_SECONDS = 3600
FAILED = "failed"


def cache_folder() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "slurmspec")


def _key(sbatch: str) -> str | None:
    try:
        real = os.path.realpath(sbatch)
        info = os.stat(real)
    except OSError:
        return None
    return f"{real}|{info.st_size}|{info.st_mtime_ns}"


def _config_key() -> str:
    """The state of the configuration file sbatch would read first: its path, and its mtime or "absent"."""
    path = os.environ.get("SLURM_CONF") or "/etc/slurm/slurm.conf"
    try:
        return f"{path}|{os.stat(path).st_mtime_ns}"
    except OSError:
        return f"{path}|absent"


def _private_file(path: str) -> bool:
    """Ours and writable by nobody else, like the folder holding it (another user could plant an answer)."""
    try:
        for where in (os.path.dirname(path), path):
            info = os.lstat(where)
            if info.st_uid != os.getuid() or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
                return False
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def remembered(sbatch: str) -> str | None:
    """The version text this binary printed before, ``FAILED`` for a recent failure, or None (ask it)."""
    key, path = _key(sbatch), os.path.join(cache_folder(), _CACHE_NAME)
    if key is None or not _private_file(path):
        return None
    try:
        with open(path, encoding="utf-8") as handle:
            entry = json.load(handle)
    except (OSError, ValueError):
        return None
    if not isinstance(entry, dict) or entry.get("key") != key:
        return None
    text = entry.get("version")
    if text == FAILED:
        import time

        when = entry.get("when")
        fresh = isinstance(when, (int, float)) and 0 <= time.time() - when < FAILURE_SECONDS
        return FAILED if fresh and entry.get("config") == _config_key() else None
    return text if isinstance(text, str) and re.fullmatch(r"\d+\.\d+(\.\d+)?", text) else None


def remember(sbatch: str, version: str | None) -> None:
    """Keep ``version`` (None: it failed) for this binary; a failure to write is ignored (an optimisation)."""
    key = _key(sbatch)
    if key is None:
        return
    entry: dict = {"key": key, "version": version}
    if version is None:
        import time

        entry = {"key": key, "version": FAILED, "config": _config_key(), "when": time.time()}
    folder = cache_folder()
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        temporary = os.path.join(folder, f".{_CACHE_NAME}.{os.getpid()}")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(entry, handle)
        os.replace(temporary, os.path.join(folder, _CACHE_NAME))
    except OSError:
        pass
