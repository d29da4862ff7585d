"""Write a fixed script back: through ``slurmspec.safe_write``, and only if nobody changed it meanwhile."""

from __future__ import annotations

from slurmspec.safe_write import WriteRefused, write_file


class ChangedOnDisk(WriteRefused):
    """The file is no longer what was read and fixed; writing would lose someone's edit."""


def write_fixed(path: str, data: bytes, expected: bytes, *, in_place: bool = False) -> None:
    """Replace ``path`` with ``data`` if it still holds ``expected``; ``in_place``: ``--force-write``.

    Raises ``WriteRefused`` (``ChangedOnDisk`` among them) or ``OSError``; the
    file is then as it was, and no temporary file is left.
    """

    def unchanged(target: str) -> None:
        from slurmspec.limits import NotAFile, read_regular

        # Never more than one byte past what was read: enough to tell it grew. A FIFO
        # swapped in meanwhile is refused at once instead of waiting for a writer.
        try:
            current = read_regular(target, limit=len(expected))
        except NotAFile as exc:
            raise WriteRefused(f"{path}: not written: it is now {exc}") from None
        if current != expected:
            raise ChangedOnDisk(f"{path} changed on disk since it was read; not written")

    write_file(path, data, in_place=in_place, before_replace=unchanged)
