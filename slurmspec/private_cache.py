"""The user's private cache folder, and reading a file in it only when nobody else could have written it.

What slurmspec remembers between runs (the installed ``sbatch``'s release,
``slurmspec/settings/installed.py``; the code attrs writes for the model classes,
``slurmspec/code_cache.py``) lives in ``$XDG_CACHE_HOME/slurmspec`` (else
``~/.cache/slurmspec``). ``XDG_CACHE_HOME`` may point anywhere, so "private" is
checked, not assumed: the folder must be ours and writable by nobody else, in a
parent nobody else can swap it out of; a file is opened without following a link
or waiting on a FIFO, and used only if it is a regular file of ours that nobody
else can write. Otherwise nothing is read or kept, as if there were no cache.
Files are written with ``slurmspec.safe_write.write_file(..., private=True)``.
"""

from __future__ import annotations

import os
import stat


def cache_folder() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "slurmspec")


def ours(info: os.stat_result) -> bool:
    """Owned by this user and writable by nobody else."""
    return info.st_uid == os.geteuid() and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def private_folder(folder: str) -> bool:
    """Ours, a real folder, writable by nobody else, in a parent nobody else can swap it out of.

    Another user who can write there could plant an answer, or a FIFO that
    hangs every lint. A parent others may write to is safe only with the
    sticky bit (``/tmp``).
    """
    try:
        parent = os.stat(os.path.dirname(folder))
        info = os.lstat(folder)
    except OSError:
        return False
    shared_parent = parent.st_mode & (stat.S_IWGRP | stat.S_IWOTH) and not parent.st_mode & stat.S_ISVTX
    return stat.S_ISDIR(info.st_mode) and ours(info) and not shared_parent


def read_private(path: str, limit: int) -> bytes | None:
    """At most ``limit`` bytes of ``path`` when it is a regular file of ours nobody else can write
    (never a FIFO's wait); None otherwise. Raises ``OSError`` only for a failed read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or not ours(info):
            return None
        return handle.read(limit)
