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

The entry is one line of fields separated by NUL, which no path holds: the binary's key,
the version (or ``failed``), and for a failure the configuration's key and the time.

"Private" is checked, not assumed: ``XDG_CACHE_HOME`` may point anywhere. The
folder must be ours and writable by nobody else; the file is opened without
following a link or waiting on a FIFO and used only if it is a regular file of
ours; it is written through ``slurmspec.safe_write`` (``O_EXCL``, rename).
Otherwise nothing is cached and sbatch is asked, as if there were no cache.
"""

from __future__ import annotations

import os
import stat

_CACHE_NAME = "sbatch-version"
_FIELDS = ("key", "version", "config", "when")
FAILURE_SECONDS = 3600
_MAX_BYTES = 64 * 1024  # an entry is about 200 bytes; more is not ours to parse
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


def _private(info: os.stat_result) -> bool:
    return info.st_uid == os.geteuid() and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _private_folder(folder: str) -> bool:
    """Ours, a real folder, writable by nobody else, in a parent nobody else can swap it out of.

    Another user who can write there could plant an answer, or a FIFO that
    hangs every lint; then nothing is cached and sbatch is asked each time.
    A parent others may write to is safe only with the sticky bit (``/tmp``).
    """
    try:
        parent = os.stat(os.path.dirname(folder))
        info = os.lstat(folder)
    except OSError:
        return False
    shared_parent = parent.st_mode & (stat.S_IWGRP | stat.S_IWOTH) and not parent.st_mode & stat.S_ISVTX
    return stat.S_ISDIR(info.st_mode) and _private(info) and not shared_parent


def _read_private(path: str) -> bytes | None:
    """The cache file's bytes when it is a regular file of ours nobody else can write (never a FIFO's wait)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or not _private(info):
            return None
        return handle.read(_MAX_BYTES)


def remembered(sbatch: str) -> str | None:
    """The version text this binary printed before, ``FAILED`` for a recent failure, or None (ask it)."""
    key, folder = _key(sbatch), cache_folder()
    if key is None or not _private_folder(folder):
        return None
    try:
        data = _read_private(os.path.join(folder, _CACHE_NAME))
    except OSError:
        return None
    if data is None:
        return None
    entry = dict(zip(_FIELDS, data.decode("utf-8", "surrogateescape").split("\0")))
    if entry.get("key") != key:
        return None
    text = entry.get("version")
    if text == FAILED:
        import time

        try:
            when = float(entry.get("when", "nan"))
        except ValueError:
            return None
        fresh = 0 <= time.time() - when < FAILURE_SECONDS  # False for nan
        return FAILED if fresh and entry.get("config") == _config_key() else None
    parts = text.split(".") if text else []
    return text if 2 <= len(parts) <= 3 and all(part.isascii() and part.isdigit() for part in parts) else None


def remember(sbatch: str, version: str | None) -> None:
    """Keep ``version`` (None: it failed) for this binary; a failure to write is ignored (an optimisation)."""
    key = _key(sbatch)
    if key is None:
        return
    entry = [key, version]
    if version is None:
        import time

        entry = [key, FAILED, _config_key(), repr(time.time())]
    from slurmspec.safe_write import WriteRefused, write_file

    folder = cache_folder()
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        if _private_folder(folder):
            write_file(os.path.join(folder, _CACHE_NAME), "\0".join(entry).encode("utf-8", "surrogateescape"), private=True)
    except (OSError, WriteRefused):
        pass
