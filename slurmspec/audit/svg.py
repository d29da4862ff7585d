"""Bar charts as inline SVG text (no script, no library): what the HTML report draws its charts with.

Each series has its own fill colour, named in the chart's legend; the HTML report's screenshot test
(tests/audit/test_html_screenshot.py) finds the charts by those colours.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Sequence

MIN_BAR = 2  # pixels: a value above zero never draws as nothing


@dataclass(frozen=True)
class Series:
    label: str
    colour: str  # "#rrggbb"
    values: tuple[float, ...]


def _number(value: float) -> str:
    return f"{value:,.1f}" if value >= 10 else f"{value:,.3g}"


def _length(value: float, top: float, span: float) -> float:
    if value <= 0 or top <= 0:
        return 0.0
    return max(MIN_BAR, span * value / top)


def horizontal_bars(title: str, labels: Sequence[str], series: Sequence[Series], *, width: int = 760,
                    chart_id: str = "") -> str:
    """One group of bars per label (a row each), one bar per series, scaled to the largest value."""
    label_w, row_h, bar_h, top_pad = 230, 8 + 14 * len(series), 12, 46
    height = top_pad + row_h * max(len(labels), 1) + 10
    span = width - label_w - 90
    top = max((v for s in series for v in s.values), default=0.0)
    parts = [_open(width, height, title, chart_id), _legend(series, 8, 34)]
    for row, label in enumerate(labels):
        y = top_pad + row * row_h
        parts.append(f'<text x="{label_w - 8}" y="{y + row_h / 2 + 4:.1f}" text-anchor="end" font-size="12">'
                     f'{escape(label[:34])}</text>')
        for k, s in enumerate(series):
            value = s.values[row]
            length = _length(value, top, span)
            by = y + 4 + k * 14
            parts.append(f'<rect x="{label_w}" y="{by}" width="{length:.1f}" height="{bar_h}" fill="{s.colour}">'
                         f'<title>{escape(label)}: {_number(value)} {escape(s.label)}</title></rect>')
            parts.append(f'<text x="{label_w + length + 4:.1f}" y="{by + 10}" font-size="10">{_number(value)}</text>')
    if not labels:
        parts.append(f'<text x="{label_w}" y="{top_pad + 12}" font-size="12">nothing to show</text>')
    parts.append("</svg>")
    return "".join(parts)


def vertical_bars(title: str, labels: Sequence[str], series: Sequence[Series], *, width: int = 760,
                  chart_id: str = "") -> str:
    """Bars side by side per label (weeks along the bottom), scaled to the largest value."""
    height, base, left = 260, 210, 50
    slot = (width - left - 10) / max(len(labels), 1)
    bar_w = max(3.0, min(28.0, (slot - 6) / max(len(series), 1)))
    top = max((v for s in series for v in s.values), default=0.0)
    parts = [_open(width, height, title, chart_id), _legend(series, 8, 34),
             f'<line x1="{left}" y1="{base}" x2="{width - 10}" y2="{base}" stroke="#888"/>',
             f'<text x="{left - 4}" y="{base - 150 + 4}" text-anchor="end" font-size="10">{_number(top)}</text>']
    for i, label in enumerate(labels):
        x0 = left + i * slot + 3
        for k, s in enumerate(series):
            value = s.values[i]
            h = _length(value, top, 150)
            parts.append(f'<rect x="{x0 + k * bar_w:.1f}" y="{base - h:.1f}" width="{bar_w - 1:.1f}" height="{h:.1f}"'
                         f' fill="{s.colour}"><title>{escape(label)}: {_number(value)} {escape(s.label)}'
                         '</title></rect>')
        parts.append(f'<text x="{x0 + slot / 2 - 3:.1f}" y="{base + 16}" text-anchor="middle" font-size="10">'
                     f'{escape(label)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _open(width: int, height: int, title: str, chart_id: str) -> str:
    ident = f' id="{escape(chart_id)}"' if chart_id else ""
    return (f'<svg{ident} xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}" font-family="sans-serif">'
            f'<text x="8" y="18" font-size="15" font-weight="bold">{escape(title)}</text>')


def _legend(series: Sequence[Series], x: int, y: int) -> str:
    parts = []
    for s in series:
        parts.append(f'<rect x="{x}" y="{y - 9}" width="10" height="10" fill="{s.colour}"/>'
                     f'<text x="{x + 14}" y="{y}" font-size="11">{escape(s.label)}</text>')
        x += 24 + 7 * len(s.label)
    return "".join(parts)
