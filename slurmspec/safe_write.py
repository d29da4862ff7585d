"""Every file slurmspec writes goes through ``write_file``: whole or not at all, with the file's protections kept.

The new content goes to a temporary file created with ``O_EXCL`` in the
target's own folder (so nobody can plant it, and the final ``os.replace`` is a
rename on one file system: a reader sees the old file or the new one, never
half), is fsynced, gets the old file's owner, extended attributes (ACLs are
the ``system.posix_acl_*`` attributes) and mode, and only then takes its place.

Renaming over a file is allowed by the *folder*'s permissions, so it would
quietly get round the file's own: a read-only file would be rewritten, a hard
link split (the other name keeps the old text), a FIFO or device replaced by a
regular file. Those are refused (``WriteRefused``) unless the caller opts in
to writing into the file in place (``in_place``: the same inode, so every name,
the owner and the attributes stay, but the write is no longer atomic).

The temporary file is removed on any error and on SIGTERM, SIGHUP or SIGINT
(``_Temporary``), so an interrupted run leaves nothing behind.
"""

from __future__ import annotations

import errno
import os
import signal
import stat
from contextlib import contextmanager
from typing import Any, Callable, Iterator

_TOLERATED = (errno.ENOTSUP, errno.EOPNOTSUPP)  # a file system without (that kind of) extended attributes
_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


class WriteRefused(Exception):
    """Writing would override one of the file's protections, or cannot keep one; the message names the file.

    ``forcible``: opting in to an in-place write (``in_place=True``) would write it.
    """

    def __init__(self, message: str, forcible: bool = False) -> None:
        super().__init__(message)
        self.forcible = forcible


def write_file(path: str, data: bytes, *, in_place: bool = False, private: bool = False,
               before_replace: Callable[[str], None] | None = None) -> None:
    """Put ``data`` at ``path``, atomically and keeping the old file's mode, owner, links and attributes.

    ``in_place``: a file that would be refused for a reason the caller may
    override (``WriteRefused.forcible``) is overwritten in place instead.
    Symbolic links are followed (the file is written where it lives), except
    with ``private``: then ``path`` itself must be a regular file or absent, and a
    new file is created 0600 rather than with the umask's permissions.
    ``before_replace(target)`` runs when the new content is ready, just before
    it takes the target's place; whatever it raises stops the write.
    Raises ``WriteRefused`` (see the module docstring) or ``OSError``.
    """
    target = path if private else os.path.realpath(path)
    try:
        info = os.lstat(target) if private else os.stat(target)
    except FileNotFoundError:
        info = None
    try:
        if info is not None:
            _refuse_unsafe(path, info)
        _replace(path, target, data, info, private, before_replace)
    except WriteRefused as exc:
        if not (in_place and exc.forcible):
            raise
        _write_in_place(path, target, data, before_replace)


def _replace(path: str, target: str, data: bytes, info: os.stat_result | None, private: bool,
             before_replace: Callable[[str], None] | None) -> None:
    folder = os.path.dirname(target) or "."
    with _Temporary(folder, os.path.basename(target), 0o600 if private or info else 0o666) as temp:
        _write_all(temp.fd, data)
        if info is not None:
            _keep_protections(path, target, temp.fd, info)
        os.fsync(temp.fd)
        if before_replace is not None:
            before_replace(target)
        temp.replace(target)
    _sync_folder(folder)


def _refuse_unsafe(path: str, info: os.stat_result) -> None:
    kind = _kind(info.st_mode)
    if kind is not None:
        raise WriteRefused(f"{path}: not written: it is {kind}, not a regular file")
    if not info.st_mode & _write_bit(info):
        raise WriteRefused(f"{path}: not written: the file is read-only (mode {stat.S_IMODE(info.st_mode):04o})",
                           forcible=True)
    if info.st_nlink > 1:
        raise WriteRefused(f"{path}: not written: the file has {info.st_nlink} hard links, and replacing it would"
                           " leave the other names with the old text", forcible=True)


def _write_bit(info: os.stat_result) -> int:
    """The write permission that applies to us. Root is judged as the owner: it may write anything, so only
    the bits tell whether the owner meant the file to be read-only (``os.access`` says "writable" to root)."""
    uid = os.geteuid()
    if uid == 0 or uid == info.st_uid:
        return stat.S_IWUSR
    return stat.S_IWGRP if info.st_gid == os.getegid() or info.st_gid in os.getgroups() else stat.S_IWOTH


def _kind(mode: int) -> str | None:
    if stat.S_ISREG(mode):
        return None
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder"), (stat.S_ISLNK, "a symbolic link")):
        if test(mode):
            return name
    return "not a regular file"


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _keep_protections(path: str, target: str, fd: int, info: os.stat_result) -> None:
    """Give the temporary file the old file's owner, extended attributes and mode, in that order.

    A change of owner clears the setuid and setgid bits (and file capabilities),
    so the owner goes first and the mode last; setting an ACL rewrites the group
    bits, which the final chmod then sets to what they were.
    """
    mine = os.fstat(fd)
    if (mine.st_uid, mine.st_gid) != (info.st_uid, info.st_gid):
        try:
            os.fchown(fd, info.st_uid, info.st_gid)
        except PermissionError:
            raise WriteRefused(f"{path}: not written: the file belongs to uid {info.st_uid} gid {info.st_gid}, and"
                               " a replacement would belong to you", forcible=True) from None
    _set_attributes(path, fd, _attributes(target))
    os.fchmod(fd, stat.S_IMODE(info.st_mode))
    now = os.fstat(fd)
    # chmod silently drops setgid for a group the caller is not in (without CAP_FSETID): say so, write nothing.
    if (now.st_uid, now.st_gid, stat.S_IMODE(now.st_mode)) != (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)):
        raise WriteRefused(f"{path}: not written: its mode {stat.S_IMODE(info.st_mode):04o} cannot be kept"
                           f" (it would become {stat.S_IMODE(now.st_mode):04o})", forcible=True)


def _attributes(target: str) -> dict[str, bytes]:
    """Every extended attribute of ``target`` we can read (``system.posix_acl_access`` is its ACL)."""
    try:
        return {name: os.getxattr(target, name) for name in os.listxattr(target)}
    except OSError as exc:
        if exc.errno in _TOLERATED:
            return {}
        raise


def _set_attributes(path: str, fd: int, wanted: dict[str, bytes]) -> None:
    for name, value in wanted.items():
        try:
            if os.getxattr(fd, name) == value:
                continue  # e.g. the SELinux label the new file got anyway
        except OSError:
            pass
        try:
            os.setxattr(fd, name, value)
        except OSError as exc:
            if exc.errno in _TOLERATED:
                continue
            raise WriteRefused(f"{path}: not written: its extended attribute {name} cannot be kept:"
                               f" {exc.strerror or exc}", forcible=True) from None


def _write_in_place(path: str, target: str, data: bytes, before_replace: Callable[[str], None] | None) -> None:
    """Overwrite the file itself, as ``cat > file`` would: not atomic, but the inode and all it carries stay."""
    fd = os.open(target, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    try:
        before = os.fstat(fd)
        kind = _kind(before.st_mode)  # swapped for a FIFO since it was looked at
        if kind is not None:
            raise WriteRefused(f"{path}: not written: it is {kind}, not a regular file")
        attributes = _attributes(target)
        if before_replace is not None:
            before_replace(target)
        os.lseek(fd, 0, os.SEEK_SET)
        _write_all(fd, data)
        os.ftruncate(fd, len(data))
        # Writing clears setuid/setgid (without CAP_FSETID) and file capabilities: put them back.
        if stat.S_IMODE(os.fstat(fd).st_mode) != stat.S_IMODE(before.st_mode):
            os.fchmod(fd, stat.S_IMODE(before.st_mode))
        _set_attributes(path, fd, attributes)
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_folder(folder: str) -> None:
    """Make the rename itself durable; a file system that cannot fsync a folder has nothing to flush."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class _Temporary:
    """A new file next to the target (``fd``, ``path``), removed on an error or a signal until it replaces the target.

    While it exists, SIGTERM, SIGHUP and SIGINT first remove it and then get
    the disposition the program had: the default ends the process with the
    signal's conventional status, Python's SIGINT handler raises
    ``KeyboardInterrupt``. A signal the program ignores (``nohup``) stays ignored.
    """

    def __init__(self, folder: str, name: str, mode: int) -> None:
        self.folder, self.name, self.mode = folder, name, mode
        self.fd = -1
        self.path: str | None = None
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> "_Temporary":
        self._install()
        try:
            with _signals_blocked():  # a signal between the creation and the record would orphan the file
                self.fd, self.path = _create(self.folder, self.name, self.mode)
        except BaseException:
            self._restore()
            raise
        return self

    def replace(self, target: str) -> None:
        os.close(self.fd)
        self.fd = -1
        with _signals_blocked():
            os.replace(self.path, target)
            self.path = None

    def __exit__(self, *exc_info) -> None:
        try:
            if self.fd >= 0:
                os.close(self.fd)
            self._remove()
        finally:
            self._restore()

    def _install(self) -> None:
        for signum in _SIGNALS:
            previous = signal.getsignal(signum)
            if previous is signal.SIG_IGN or previous is None:  # None: a handler set outside Python; leave it
                continue
            try:
                signal.signal(signum, self._on_signal)
            except ValueError:  # not the main thread, the only one that may handle signals
                return
            self._previous[signum] = previous

    def _restore(self) -> None:
        for signum, previous in self._previous.items():
            signal.signal(signum, previous)
        self._previous.clear()

    def _remove(self) -> None:
        if self.path is not None:
            try:
                os.unlink(self.path)
            except FileNotFoundError:
                pass
            self.path = None

    def _on_signal(self, signum: int, frame) -> None:
        self._remove()
        self._restore()
        signal.raise_signal(signum)
        # Still running: the program's handler returned. The file is gone, so the write cannot go on.
        raise InterruptedError(errno.EINTR, f"interrupted by signal {signal.Signals(signum).name}")


def _create(folder: str, name: str, mode: int) -> tuple[int, str]:
    """A new file ``.NAME.XXXXXXXX.slurmspec`` in ``folder``; ``O_EXCL``: never one somebody planted there."""
    stem = os.fsdecode(os.fsencode(name)[:80])  # room for the suffix within NAME_MAX (255 bytes)
    while True:
        temp = os.path.join(folder, f".{stem}.{os.urandom(4).hex()}.slurmspec")
        try:
            return os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode), temp
        except FileExistsError:
            continue


@contextmanager
def _signals_blocked() -> Iterator[None]:
    """Hold SIGTERM, SIGHUP and SIGINT back for a few system calls; they arrive, in order, right after."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
