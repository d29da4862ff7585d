"""Write a fixed script back safely: atomically, with its mode, and only if nobody changed it meanwhile."""

from __future__ import annotations

import os
import stat
import tempfile


class ChangedOnDisk(Exception):
    """The file is no longer what was read and fixed; writing would lose someone's edit."""


def write_atomically(path: str, data: bytes, expected: bytes) -> None:
    """Replace ``path`` with ``data`` if it still holds ``expected``.

    The new content goes to a temporary file in the same folder (so the final
    ``os.replace`` is a rename on one file system, atomic on POSIX), is flushed
    and fsynced, gets the original file's permission bits (and owner, when we
may set it), and only then takes
    the file's place. A reader sees the old file or the new one, never half.
    """
    # A symlinked script is fixed where it lives; renaming over the link would
    # replace the link with a regular file.
    path = os.path.realpath(path)
    folder = os.path.dirname(path)
    info = os.stat(path)
    mode = stat.S_IMODE(info.st_mode)
    handle, temp = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".slurmspec")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp, mode)
        if (info.st_uid, info.st_gid) != (os.getuid(), os.getgid()):
            # Run as root (or a group member), keep the script its owner's: a rename
            # would otherwise hand the user's file to whoever ran the fix.
            try:
                os.chown(temp, info.st_uid, info.st_gid)
            except PermissionError:
                pass  # not allowed to give files away: the new file stays ours, like an editor's save
        with open(path, "rb") as current:
            if current.read() != expected:
                raise ChangedOnDisk(f"{path} changed on disk since it was read; not written")
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except FileNotFoundError:
            pass
        raise
