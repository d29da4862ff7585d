"""The server's standard input, bounded: a broken or hostile client cannot make it run out of memory.

pygls reads a message by its ``Content-Length`` header in one ``read(n)``, and
a header line with one ``readline()``; a header announcing a terabyte, or a
stream with no line break, would have it allocate without limit and die. Here
a header line is cut at ``MAX_HEADER_LINE`` bytes (the pieces are not valid
headers, so pygls skips them), bytes before a ``Content-Length`` header on its
line are dropped (what a wrong length leaves behind), and a body larger than ``MAX_MESSAGE_BYTES`` is
read and thrown away in pieces; pygls then gets a notification nobody handles
in its place, and the next message is read normally.

Invalid JSON, unknown methods and other malformed messages are pygls' to
answer: it logs them and carries on.
"""

from __future__ import annotations

import logging
from typing import BinaryIO

# The largest script slurmctld accepts is 4 MiB; as a JSON string (escapes such as
# "\u0000" take six bytes per byte) and with a message around it, 64 MiB is ample.
MAX_MESSAGE_BYTES = 64 * 1024 * 1024
MAX_HEADER_LINE = 64 * 1024
_CHUNK = 1024 * 1024
HEADER = b"Content-Length:"
DROPPED = b'{"jsonrpc": "2.0", "method": "$/slurmspec/droppedMessage"}'

log = logging.getLogger("slurmspec.lsp")


class BoundedInput:
    """A binary stream with pygls' ``readline()`` and ``read(n)``, within the limits above."""

    def __init__(self, raw: BinaryIO, limit: int = MAX_MESSAGE_BYTES) -> None:
        self.raw, self.limit = raw, limit

    def readline(self) -> bytes:
        line = self.raw.readline(MAX_HEADER_LINE)
        # Resynchronise after a wrong Content-Length: the stray bytes of the previous body end up
        # in front of the next header, and JSON bodies end without a line break, so without this
        # every later header would be glued to the body before it and the server would go deaf.
        at = line.rfind(HEADER)
        return line[at:] if at > 0 else line

    def read(self, size: int) -> bytes:
        if size <= self.limit:
            return self.raw.read(size)
        left = size
        while left > 0:
            piece = self.raw.read(min(left, _CHUNK))
            if not piece:
                return b""  # the client went away mid-message
            left -= len(piece)
        log.warning("dropped a message of %d bytes (more than %d)", size, self.limit)
        return DROPPED
