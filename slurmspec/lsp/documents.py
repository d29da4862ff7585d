"""The open documents: their text as the editor has it, kept in step with full and incremental changes.

pygls keeps a copy too, but it finds lines with ``str.splitlines``, which also
breaks at form feed, vertical tab, U+2028 and other characters an editor does
not take for line breaks; an incremental change after one of them would land
on the wrong line and the server's text would silently drift from the
editor's. Here a change's range is resolved with ``PositionMap``, which
follows the protocol's three line endings and the negotiated column unit.

Only what the client sends is read: a document's text comes from
``didOpen``/``didChange``, never from the disk.
"""

from __future__ import annotations

import os
from typing import Iterable

from lsprotocol import types

from slurmspec.frozen import frozen
from slurmspec.lsp.positions import UTF16, PositionMap

# A document is linted when its name says it is a batch script, or when it has a
# directive: what `slurmspec lint --require-sbatch` (the pre-commit hooks) does,
# so a plain shell script or a Python file opened in the same editor stays quiet.
SCRIPT_SUFFIXES = (".sbatch", ".slurm", ".sub", ".job")
DIRECTIVE_MARK = "#SBATCH"


@frozen
class Snapshot:
    """One version of one document, safe to hand to a worker thread."""

    uri: str
    version: int | None
    text: str
    path: str | None  # the file it is, for ``file:`` URIs; None for unsaved buffers and other schemes

    @property
    def is_script(self) -> bool:
        name = self.path if self.path is not None else self.uri
        return name.endswith(SCRIPT_SUFFIXES) or DIRECTIVE_MARK in self.text


class Document:
    """An open document; ``positions`` is rebuilt lazily after each change."""

    def __init__(self, uri: str, text: str, version: int | None, encoding: str) -> None:
        self.uri, self.text, self.version, self.encoding = uri, text, version, encoding
        self._positions: PositionMap | None = None

    @property
    def positions(self) -> PositionMap:
        if self._positions is None:
            self._positions = PositionMap(self.text, self.encoding)
        return self._positions

    def apply(self, change: types.TextDocumentContentChangeEvent) -> None:
        if isinstance(change, types.TextDocumentContentChangePartial):
            start = self.positions.offset(change.range.start)
            end = max(start, self.positions.offset(change.range.end))
            self.text = self.text[:start] + change.text + self.text[end:]
        else:
            self.text = change.text
        self._positions = None

    def snapshot(self) -> Snapshot:
        return Snapshot(self.uri, self.version, self.text, uri_to_path(self.uri))


class Documents:
    def __init__(self, encoding: str = UTF16) -> None:
        self.encoding = encoding
        self._open: dict[str, Document] = {}

    def open(self, uri: str, text: str, version: int | None) -> Document:
        document = Document(uri, text, version, self.encoding)
        self._open[uri] = document
        return document

    def change(self, uri: str, version: int | None, changes: Iterable[types.TextDocumentContentChangeEvent]) -> Document | None:
        document = self._open.get(uri)
        if document is None:
            return None  # a change to a document never opened: nothing to apply it to
        for change in changes:
            document.apply(change)
        document.version = version
        return document

    def close(self, uri: str) -> None:
        self._open.pop(uri, None)

    def get(self, uri: str) -> Document | None:
        return self._open.get(uri)

    def __iter__(self):
        return iter(list(self._open.values()))


def uri_to_path(uri: str) -> str | None:
    """The local path of a ``file:`` URI, else None."""
    from pygls.uris import to_fs_path

    if not uri.startswith("file:"):
        return None
    try:
        path = to_fs_path(uri)
    except (ValueError, TypeError):
        return None
    return os.path.normpath(path) if path else None
