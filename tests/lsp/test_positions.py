"""Offsets <-> LSP positions: the protocol's three line endings and its three column units."""

from __future__ import annotations

import pytest

pytest.importorskip("lsprotocol", reason="the LSP tests need the test extra (pip install -e '.[test]')")

from lsprotocol.types import Position  # noqa: E402

from slurmspec.lsp.documents import Document  # noqa: E402
from slurmspec.lsp.positions import PositionMap  # noqa: E402

# Line breaks the protocol knows: \n, \r\n and a lone \r. Form feed, vertical tab, NEL and
# U+2028 are ordinary characters to an editor, though str.splitlines() breaks at them.
TEXT = "a\r\nb\rc\x0cd\x0be\x85f\u2028g\nh\U0001F680i\u00e9j"


@pytest.mark.parametrize("encoding, columns", [
    ("utf-16", {"h": 0, "i": 3, "j": 5}),  # the rocket is two UTF-16 units
    ("utf-8", {"h": 0, "i": 5, "j": 8}),   # four bytes, then é is two
    ("utf-32", {"h": 0, "i": 2, "j": 4}),  # one per code point
])
def test_columns_count_the_negotiated_unit(encoding, columns):
    positions = PositionMap(TEXT, encoding)
    assert positions.line_count == 4
    for char, column in columns.items():
        offset = TEXT.index(char)
        assert positions.position(offset) == Position(line=3, character=column)
        assert positions.offset(Position(line=3, character=column)) == offset


def test_lines_end_only_at_lsp_line_breaks():
    positions = PositionMap(TEXT)
    assert [positions.position(TEXT.index(c)).line for c in "abcdefgh"] == [0, 1, 2, 2, 2, 2, 2, 3]
    assert positions.position(TEXT.index("\r\n") + 1) == Position(line=0, character=1)  # inside \r\n: line end
    assert positions.line_end(0) == 1 and positions.line_start(1) == 3


def test_positions_out_of_range_are_clamped():
    positions = PositionMap("ab\ncd")
    assert positions.offset(Position(line=0, character=99)) == 2
    assert positions.offset(Position(line=7, character=0)) == 5
    assert positions.position(99) == Position(line=1, character=2)


def test_incremental_changes_follow_the_editors_lines():
    document = Document("file:///x.sbatch", "one\x0ctwo\nthree\n", 1, "utf-16")
    from lsprotocol.types import Range, TextDocumentContentChangePartial, TextDocumentContentChangeWholeDocument

    document.apply(TextDocumentContentChangePartial(range=Range(Position(1, 0), Position(1, 5)), text="3"))
    assert document.text == "one\x0ctwo\n3\n"
    document.apply(TextDocumentContentChangeWholeDocument(text="new"))
    assert document.text == "new" and document.positions.line_count == 1
