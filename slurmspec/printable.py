"""``printable``: the one escaping for text slurmspec prints for people or puts into a text format.

Messages quote the user's script, and file names and settings are the user's
too, so anything may be in them. Written out as they are, an ESC or BEL from
``#SBATCH --time=<ESC>[2J`` drives the terminal (clears the screen, retitles
the window), a bidi override reorders what the reader sees (Trojan Source,
CVE-2021-42574), a vertical tab or U+2028 splits one finding of a line-based
format in two (``str.splitlines`` and editors' problem matchers break there),
and the lone surrogates that stand for bytes that are not UTF-8 (file names
and scripts decoded with ``surrogateescape``) cannot be encoded at all: a
strict standard output raises, and JSON written with them is not UTF-8. So
every message, note and file name goes through ``printable`` on its way out:
every format in ``slurmspec/report/``, the CLI's errors and notes, the
language server's messages.

* C0 controls (but tab) and DEL become the visible stand-ins Unicode has for
  them, the Control Pictures (ESC ``␛``, CR ``␍``, NUL ``␀``, DEL ``␡``): what
  the text report's snippet line always showed, one terminal cell each, and
  unlike a backslash escape never mistaken for the ``\\x1b`` or ``\\n`` that
  shell scripts often hold literally.
* Bytes that are not UTF-8 become ``\\xff`` (the byte's value).
* What has no picture -- C1 controls, bidi embeddings, overrides, isolates and
  marks, line and paragraph separators, other lone surrogates -- becomes
  ``\\u202e`` (the code point).

Tab is left alone: it moves the cursor only, and JSON escapes it. The snippet
line turns it into a space first, to keep the caret under its column.

``json_text`` is the same guard for JSON that carries data rather than shown
text (a fix's edit text, ``slurmspec parse``'s model): it must decode back to
exactly what it holds, so it uses JSON's own escapes. ``json.dumps`` escapes
C0 but leaves DEL, C1, bidi controls and separators raw with
``ensure_ascii=False``, and writes a lone surrogate that no UTF-8 stream takes;
``json_text`` escapes those as ``\\uXXXX``. The JSON is then always UTF-8,
holds no raw control, and decodes to the same strings (a byte that is not
UTF-8 as the ``\\udcff`` Python's ``surrogateescape`` turns back into it).
"""

from __future__ import annotations

import re

from slurmspec.lazy_regex import lazy_compile

# Every character here is one ``str.isprintable`` says is not printable (Cc, Cf, Zl, Zp, Cs;
# tests/test_printable.py checks all of them), so printable text needs no search: the pattern
# is compiled (a millisecond of a cold run) only for text with a tab or a character like these.
_UNSAFE = lazy_compile(
    "[\x00-\x08\x0a-\x1f\x7f-\x9f"  # C0 but tab, DEL, C1
    "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # bidi marks, embeddings, overrides, isolates
    "\u2028\u2029"  # line and paragraph separators
    "\ud800-\udfff]"  # lone surrogates: undecodable bytes (U+DC80-U+DCFF) and worse
)
# The same set but C0, which json.dumps escapes itself.
_JSON_RAW = lazy_compile("[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]")


def _stand_in(match: re.Match) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)
    if code == 0x7F:
        return "\u2421"
    if 0xDC80 <= code <= 0xDCFF:  # surrogateescape's stand-in for byte code - 0xDC00
        return f"\\x{code - 0xDC00:02x}"
    return f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every character that could act on a terminal, reorder the line, break it, or not
    encode as UTF-8 shown visibly; any other text comes back as it is."""
    if text.isprintable() or _UNSAFE.search(text) is None:  # nearly always: no copy
        return text
    return _UNSAFE.sub(_stand_in, text)


def json_text(dumped: str) -> str:
    """The output of ``json.dumps(..., ensure_ascii=False)`` with the characters ``printable`` would
    show visibly written as JSON escapes instead: the same JSON value, safe to print."""
    if (dumped.isascii() and "\x7f" not in dumped) or _JSON_RAW.search(dumped) is None:
        return dumped
    return _JSON_RAW.sub(lambda match: f"\\u{ord(match.group()):04x}", dumped)
