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

"Private" is checked, not assumed (``slurmspec/private_cache.py``): where the
folder or the file could be someone else's, nothing is cached and sbatch is
asked, as if there were no cache.
"""

from __future__ import annotations

import os

from slurmspec.private_cache import cache_folder, private_folder, read_private

_CACHE_NAME = "sbatch-version"
_FIELDS = ("key", "version", "config", "when")
FAILURE_SECONDS = 3600
_MAX_BYTES = 64 * 1024  # an entry is about 200 bytes; more is not ours to parse
FAILED = "failed"


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


def remembered(sbatch: str) -> str | None:
    """The version text this binary printed before, ``FAILED`` for a recent failure, or None (ask it)."""
    key, folder = _key(sbatch), cache_folder()
    if key is None or not private_folder(folder):
        return None
    try:
        data = read_private(os.path.join(folder, _CACHE_NAME), _MAX_BYTES)
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
        if private_folder(folder):
            write_file(os.path.join(folder, _CACHE_NAME), "\0".join(entry).encode("utf-8", "surrogateescape"), private=True)
    except (OSError, WriteRefused):
        pass
