"""``--statistics``: how many findings of each code, most frequent first (as ruff's).

Text: ``COUNT  CODE  name`` aligned in columns; with ``--format json`` a list
of ``{"code", "name", "count"}`` objects. No rich on either path.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import IO, Iterable


def counts(results: Iterable[tuple]) -> list[tuple[str, str, int]]:
    tally: Counter = Counter()
    names: dict[str, str] = {}
    for _, diagnostics in results:
        for diagnostic in diagnostics:
            tally[diagnostic.code] += 1
            names[diagnostic.code] = diagnostic.name
    return [(code, names[code], n) for code, n in sorted(tally.items(), key=lambda item: (-item[1], item[0]))]


def write_statistics(results: Iterable[tuple], out: IO[str], *, as_json: bool = False) -> None:
    rows = counts(results)
    if as_json:
        json.dump([{"code": c, "name": name, "count": n} for c, name, n in rows], out, indent=2)
        out.write("\n")
        return
    width = max((len(str(n)) for _, _, n in rows), default=1)
    code_width = max((len(c) for c, _, _ in rows), default=5)
    for code, name, n in rows:
        out.write(f"{str(n).rjust(width)}  {code.ljust(code_width)}  {name}\n")
