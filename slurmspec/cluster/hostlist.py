"""Slurm host lists: ``a100-[01-04],login1`` to node names and back.

The syntax is Slurm's (man scontrol, "show hostnames"/"show hostlist"): names
separated by commas; a bracketed list of numbers and ranges (``[01-04,07]``)
stands for one name per number, zero-padded to the width of the range's low
bound; several brackets in one name multiply (``r[1-2]n[1-2]`` is four names).
"""

from __future__ import annotations

import re
from typing import Iterable

_LAST_NUMBER = re.compile(r"^(.*?)(\d+)(\D*)$")


class HostlistError(ValueError):
    """A host list that is not well formed (an unclosed bracket, a reversed range …)."""


def expand_hostlist(text: str) -> tuple[str, ...]:
    """Every node name ``text`` stands for, in order, duplicates kept once."""
    names: dict[str, None] = {}
    for item in _split_top_level(text.strip()):
        if item:
            for name in _expand_item(item):
                names.setdefault(name, None)
    return tuple(names)


def _split_top_level(text: str) -> list[str]:
    """``a[1,2],b`` -> ``["a[1,2]", "b"]``: commas inside brackets belong to the range list."""
    items, depth, start = [], 0, 0
    for index, char in enumerate(text):
        if char == "[":
            depth += 1
            if depth > 1:
                raise HostlistError(f"nested brackets in host list {text!r}")
        elif char == "]":
            depth -= 1
            if depth < 0:
                raise HostlistError(f"unmatched ']' in host list {text!r}")
        elif char == "," and depth == 0:
            items.append(text[start:index].strip())
            start = index + 1
    if depth:
        raise HostlistError(f"unclosed '[' in host list {text!r}")
    items.append(text[start:].strip())
    return items


def _expand_item(item: str) -> list[str]:
    open_at = item.find("[")
    if open_at == -1:
        if "]" in item:
            raise HostlistError(f"unmatched ']' in host name {item!r}")
        return [item]
    close_at = item.index("]", open_at)
    head, body, rest = item[:open_at], item[open_at + 1:close_at], item[close_at + 1:]
    tails = _expand_item(rest) if rest else [""]
    return [f"{head}{number}{tail}" for number in _numbers(body, item) for tail in tails]


def _numbers(body: str, item: str) -> list[str]:
    found = []
    for part in body.split(","):
        low, dash, high = part.strip().partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise HostlistError(f"bad range {part!r} in host list {item!r}")
        if not dash:
            found.append(low)
            continue
        first, last = int(low), int(high)
        if last < first:
            raise HostlistError(f"reversed range {part!r} in host list {item!r}")
        if last - first > 1_000_000:
            raise HostlistError(f"range {part!r} in host list {item!r} is too large")
        found.extend(str(n).zfill(len(low)) for n in range(first, last + 1))
    return found


def compress_hostlist(names: Iterable[str]) -> str:
    """The shortest usual host list for ``names``: ``a100-01 … a100-04`` -> ``a100-[01-04]``.

    Names that share everything but their last number are merged into one
    bracket; numbers keep their zero padding. The result expands back to the
    same set of names (each once), sorted by prefix and then by number.
    """
    groups: dict[tuple[str, str, int], list[int]] = {}
    plain: list[str] = []
    unique = list(dict.fromkeys(names))
    padded_widths = {
        (m[1], m[3], len(m[2])) for m in map(_LAST_NUMBER.match, unique) if m and _is_padded(m[2])
    }
    for name in unique:
        match = _LAST_NUMBER.match(name)
        if match is None:
            plain.append(name)
            continue
        prefix, digits, suffix = match.groups()
        width = len(digits)
        if not _is_padded(digits) and (prefix, suffix, width) not in padded_widths:
            width = 0  # no zero padding: 9 and 10 share one range
        groups.setdefault((prefix, suffix, width), []).append(int(digits))
    # Sorted by prefix, suffix, then lowest number; a plain name sorts with the prefix it equals.
    entries: list[tuple[str, str, int, str]] = [(name, "", -1, name) for name in plain]
    for (prefix, suffix, width), numbers in groups.items():
        numbers.sort()
        ranges = _ranges(numbers, width)
        text = ranges[0] if len(ranges) == 1 and "-" not in ranges[0] else f"[{','.join(ranges)}]"
        entries.append((prefix, suffix, numbers[0], f"{prefix}{text}{suffix}"))
    out = [text for *_, text in sorted(entries)]
    return ",".join(out)


def _is_padded(digits: str) -> bool:
    return len(digits) > 1 and digits.startswith("0")


def _ranges(numbers: list[int], width: int) -> list[str]:
    ranges: list[str] = []
    start = previous = numbers[0]
    for number in [*numbers[1:], None]:
        if number is not None and number == previous + 1:
            previous = number
            continue
        low, high = str(start).zfill(width), str(previous).zfill(width)
        ranges.append(low if start == previous else f"{low}-{high}")
        if number is not None:
            start = previous = number
    return ranges


def sorted_hostnames(names: Iterable[str]) -> tuple[str, ...]:
    """``names`` once each, in the order their compressed host list expands to (a profile's canonical order)."""
    names = tuple(names)
    return expand_hostlist(compress_hostlist(names)) if names else ()
