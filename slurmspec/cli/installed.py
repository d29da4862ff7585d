"""The Slurm release of the ``sbatch`` on PATH, remembered across runs.

``sbatch --version`` costs 20–30 ms (a process, and Slurm's clients read
slurm.conf even for ``--version``): a fifth of a cold ``lint``. The answer only
changes when the binary does, so a successful answer is kept in the user's
private cache folder keyed by the binary's real path, size and modification
time. A failed answer is not kept: it usually means no slurm.conf yet, which
the next run may have.
"""

from __future__ import annotations

import json
import os
import re
import stat

_CACHE_NAME = "sbatch-version.json"


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
    """The version text this binary printed before, or None."""
    key, path = _key(sbatch), os.path.join(cache_folder(), _CACHE_NAME)
    if key is None or not _private_file(path):
        return None
    try:
        with open(path, encoding="utf-8") as handle:
            entry = json.load(handle)
    except (OSError, ValueError):
        return None
    text = entry.get("version") if isinstance(entry, dict) and entry.get("key") == key else None
    return text if isinstance(text, str) and re.fullmatch(r"\d+\.\d+(\.\d+)?", text) else None


def remember(sbatch: str, version: str) -> None:
    """Keep ``version`` for this binary; any failure to write is ignored (the cache is an optimisation)."""
    key = _key(sbatch)
    if key is None:
        return
    folder = cache_folder()
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        temporary = os.path.join(folder, f".{_CACHE_NAME}.{os.getpid()}")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump({"key": key, "version": version}, handle)
        os.replace(temporary, os.path.join(folder, _CACHE_NAME))
    except OSError:
        pass
