"""The code attrs writes for slurmspec's model classes, compiled once and kept in the private cache.

attrs writes out the source of an ``__init__`` (and, for a few classes, more
methods) for every class it builds, and compiles it. A cold ``slurmspec lint``
builds about 115 classes, and compiling their methods was about a fifth of its
work (callgrind: 99 of 534 million instructions, ``python -c pass`` being 36).
The source depends only on the class, so the compiled code does too:
``install()`` has attrs compile through ``cached_compile``, which answers from a
table of code objects kept in the user's private cache folder
(``slurmspec/private_cache.py``: trusted as bytecode in ``__pycache__`` is, being
ours and writable by nobody else), keyed by the file name attrs gives the code
(it names the class) and the whole source, in a file per Python release (the
bytecode's format). Only slurmspec's own classes are looked up (and not a
``__hash__`` attrs writes, which holds a number drawn in each process: the few
classes that ask for it, such as an ordered ``Span``); any other library's code
goes to ``compile`` as before. ``save()`` writes the table back when a
run compiled something new: the command line calls it as it ends, other
processes (the language server, a library user) at exit.

attrs looks ``compile`` up among its module's globals before the builtins; an
attrs that compiles some other way never calls ``cached_compile``, and classes
are built as before.
"""

from __future__ import annotations

import atexit
import marshal
import os
import stat
import sys
from types import CodeType
from typing import Any

from slurmspec.private_cache import cache_folder, ours, private_folder, read_private
from slurmspec.safe_write import WriteRefused, write_file

MAX_BYTES = 4 * 1024 * 1024  # about 200 KB for a cold lint's classes; a larger file is not ours to load
MAX_ENTRIES = 2048  # past this (many releases' classes), only the ones a run used are kept
_OURS = " slurmspec."  # in attrs' file names: "<attrs generated methods slurmspec.span.Span>"

_table: dict[str, CodeType] | None = None
_used: set[str] = set()
_changed = False


def cache_path() -> str:
    return os.path.join(cache_folder(), f"attrs-code-{sys.implementation.cache_tag}-{sys.hexversion:x}.marshal")


def install() -> None:
    """Have attrs compile slurmspec's generated methods through ``cached_compile`` (once per process)."""
    import attr._make as make

    if getattr(make, "compile", None) is not cached_compile and hasattr(make, "_compile_and_eval"):
        make.compile = cached_compile
        atexit.register(save)


def cached_compile(source: Any, filename: Any, mode: str, *args: Any, **kwargs: Any) -> CodeType:
    """``compile(source, filename, mode)``, from the cache for the code attrs writes for a slurmspec class."""
    global _changed
    if (args or kwargs or mode != "exec" or not isinstance(source, str) or _OURS not in str(filename)
            or "def __hash__" in source):  # attrs' own __hash__ holds a number new in each process
        return compile(source, filename, mode, *args, **kwargs)
    table = _load()
    key = f"{filename}\0{source}"
    code = table.get(key)
    if code is None:
        code = table[key] = compile(source, filename, mode)
        _changed = True
    _used.add(key)
    return code


def _load() -> dict[str, CodeType]:
    global _table
    if _table is None:
        _table = _read()
    return _table


def _read() -> dict[str, CodeType]:
    """The table in the cache file, or an empty one when there is none we can trust and read."""
    path = cache_path()
    if not private_folder(os.path.dirname(path)):
        return {}
    try:
        data = read_private(path, MAX_BYTES)
        table = marshal.loads(data) if data else {}
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if not isinstance(table, dict) or not all(
            isinstance(key, str) and type(code) is CodeType for key, code in table.items()):
        return {}
    return table


def save() -> None:
    """Write the table back if this process compiled something new; a failure to write is ignored
    (the cache only saves time). Never in a process forked by ``lint --jobs``: its parent saves."""
    global _changed
    if not _changed or _table is None:
        return
    _changed = False
    table = _table if len(_table) <= MAX_ENTRIES else {key: _table[key] for key in _used}
    path = cache_path()
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        if not private_folder(os.path.dirname(path)):
            return
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            info = None
        if info is not None and stat.S_ISREG(info.st_mode) and not ours(info):
            os.unlink(path)  # replacing it would keep its mode: a new file of ours (0600) takes its place
        write_file(path, marshal.dumps(table), private=True)  # refuses a link or anything not a file
    except (OSError, ValueError, WriteRefused):
        pass
