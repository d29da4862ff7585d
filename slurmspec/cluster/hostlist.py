"""Slurm host lists: ``a100-[01-04],login1`` to node names and back.

The syntax is Slurm's (man scontrol, "show hostnames"/"show hostlist"): names
separated by commas; a bracketed list of numbers and ranges (``[01-04,07]``)
stands for one name per number, zero-padded to the width of the range's low
bound; several brackets in one name multiply (``r[1-2]n[1-2]`` is four names).
"""

from __future__ import annotations

from typing import Iterable

# The most names one host list may stand for: far more nodes than any Slurm cluster has. Brackets
# multiply (``a[0-9999]b[0-9999]c[0-9999]`` is 10^12 names), so the count is worked out from the
# ranges first and a longer list is refused before a single name is made.
MAX_HOSTS = 100_000


class HostlistError(ValueError):
    """A host list that is not well formed (an unclosed bracket, a reversed range …) or too long."""


def expand_hostlist(text: str) -> tuple[str, ...]:
    """Every node name ``text`` stands for, in order, duplicates kept once; ``HostlistError`` for a
    list that is not well formed or stands for more than ``MAX_HOSTS`` names. O(text + names)."""
    items = [item for item in _split_top_level(text.strip()) if item]
    total = 0
    for item in items:
        total += _count_item(item)
        if total > MAX_HOSTS:
            shown = text if len(text) <= 80 else text[:77] + "..."
            raise HostlistError(f"host list {shown!r} names more than {MAX_HOSTS:,} hosts")
    names: dict[str, None] = {}
    for item in items:
        for name in _expand_item(item):
            names.setdefault(name, None)
    return tuple(names)


def _count_item(item: str) -> int:
    """How many names ``item`` stands for (its brackets' sizes multiplied), stopping past ``MAX_HOSTS``."""
    count, rest = 1, item
    while (open_at := rest.find("[")) != -1:
        close_at = rest.find("]", open_at)
        if close_at == -1:
            raise HostlistError(f"unclosed '[' in host list {item!r}")
        count *= _range_size(rest[open_at + 1:close_at], item)
        if count > MAX_HOSTS:
            return count
        rest = rest[close_at + 1:]
    return count


def _range_size(body: str, item: str) -> int:
    size = 0
    for part in body.split(","):
        low, dash, high = part.strip().partition("-")
        if not _is_number(low) or (dash and not _is_number(high)):
            raise HostlistError(f"bad range {part!r} in host list {item!r}")
        size += int(high) - int(low) + 1 if dash else 1
    return max(size, 0)


def _is_number(digits: str) -> bool:
    # ASCII digits only (str.isdigit also takes "²"), and few enough for int() to read quickly.
    return 0 < len(digits) <= 18 and digits.isascii() and digits.isdigit()


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
        if not _is_number(low) or (dash and not _is_number(high)):
            raise HostlistError(f"bad range {part!r} in host list {item!r}")
        if not dash:
            found.append(low)
            continue
        first, last = int(low), int(high)
        if last < first:
            raise HostlistError(f"reversed range {part!r} in host list {item!r}")
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
    split = [(name, _last_number(name)) for name in unique]
    padded_widths = {(m[0], m[2], len(m[1])) for _, m in split if m and _is_padded(m[1])}
    for name, match in split:
        if match is None:
            plain.append(name)
            continue
        prefix, digits, suffix = match
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


def _last_number(name: str) -> tuple[str, str, str] | None:
    """(prefix, last run of digits, what follows it) -- what ``^(.*?)(\\d+)(\\D*)$`` matches, found from
    the end in O(len) (the regex backtracks to O(len²) on long runs of digits) -- or None when there is
    no such run, its prefix holds a line break, or it has too many digits to be a node number."""
    end = len(name)
    while end and not name[end - 1].isdecimal():
        end -= 1
    start = end
    while start and name[start - 1].isdecimal():
        start -= 1
    if start == end or end - start > 18 or "\n" in name[:start]:
        return None
    return name[:start], name[start:end], name[end:]


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
