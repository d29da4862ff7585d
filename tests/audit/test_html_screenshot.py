"""The HTML audit report in a real headless browser (Debian's ``chromium``), checked on the screenshot.

The report (built from the sacct text recorded on the real lab, tests/audit/recorded/) is opened
from a file with networking of no use to it (it is self-contained: no script, no external URL), and
the PNG Chromium writes must be non-blank and show the three charts -- found by their own bar
colours (slurmspec/audit/html.py) -- one under the other, each of a plausible size. Skipped where
Chromium is missing; under CI=true it must run (.ci/setup-audit.sh installs it).
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import zlib

import pytest

from slurmspec.audit.html import PARTITION_COLOURS, RULE_COLOURS, WEEK_COLOURS, report_html
from slurmspec.audit.report import build_report
from tests.audit.test_audit_units import audit
from tests.conftest import in_ci

WIDTH, HEIGHT = 900, 1800


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        reason = "chromium is not installed (Debian: apt-get install chromium)"
        if in_ci():
            pytest.fail(f"{reason} -- CI=true, so the screenshot test must run", pytrace=False)
        pytest.skip(reason)
    return found


def read_png(data: bytes) -> tuple[int, int, list[bytes]]:
    """(width, height, rows of RGB(A) bytes) of an 8-bit, non-interlaced RGB or RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, head = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = head
    assert depth == 8 and colour in (2, 6) and interlace == 0, head
    step = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * step
    rows, previous = [], bytes(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if kind == 1:
            for i in range(step, stride):
                line[i] = (line[i] + line[i - step]) & 255
        elif kind == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, previous))
        elif kind == 3:
            for i in range(stride):
                line[i] = (line[i] + ((line[i - step] if i >= step else 0) + previous[i]) // 2) & 255
        elif kind == 4:
            for i in range(stride):
                a = line[i - step] if i >= step else 0
                b, c = previous[i], previous[i - step] if i >= step else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        previous = bytes(line)
    return width, height, [row if step == 3 else bytes(b for i, b in enumerate(row) if i % 4 != 3) for row in rows]


def box_of(rows: list[bytes], colour: str) -> tuple[int, int, int, int, int]:
    """(count, top, bottom, left, right) of the pixels of ``colour`` (#rrggbb)."""
    pixel = bytes.fromhex(colour[1:])
    count, top, bottom, left, right = 0, None, 0, 10**9, 0
    for y, row in enumerate(rows):
        x = row.find(pixel)
        while x != -1:
            if x % 3 == 0:
                count += 1
                top = y if top is None else top
                bottom, left, right = y, min(left, x // 3), max(right, x // 3)
            x = row.find(pixel, x + 1)
    return count, top or 0, bottom, left, right


def test_html_report_renders_its_charts_in_chromium(tmp_path):
    browser = chromium()
    report = build_report(audit(tmp_path)[0])
    page = tmp_path / "audit.html"
    page.write_text(report_html(report))
    text = page.read_text()
    assert "<script" not in text and not re.search(r"(src|href)=['\"]?(https?:|//)", text)
    shot = tmp_path / "audit.png"
    done = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-color-profile=srgb",
         f"--user-data-dir={tmp_path / 'profile'}", f"--screenshot={shot}", f"--window-size={WIDTH},{HEIGHT}",
         page.as_uri()], capture_output=True, text=True, timeout=120)
    assert shot.exists(), done.stderr[-2000:]
    width, height, rows = read_png(shot.read_bytes())
    assert (width, height) == (WIDTH, HEIGHT)
    white = b"\xff\xff\xff" * width
    assert sum(row != white for row in rows) > 300  # not blank: hundreds of rows hold something
    charts = {name: box_of(rows, colour) for name, colour in
              (("rules", RULE_COLOURS[0]), ("weeks", WEEK_COLOURS[0]), ("partitions", PARTITION_COLOURS[0]))}
    for name, (count, top, bottom, left, right) in charts.items():
        assert count >= 150, f"the {name} chart's bars are missing from the screenshot: {charts}"
        assert 0 < bottom - top < 400 and right - left > 5, (name, charts)
    assert charts["rules"][1] < charts["weeks"][1] < charts["partitions"][1], charts  # in the page's order
