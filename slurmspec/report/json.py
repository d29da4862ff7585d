"""JSON output: a list of diagnostic objects (no rich import on this path)."""

from __future__ import annotations

import json
from typing import IO, Iterable

from slurmspec.lint.diagnostic import Diagnostic


def write_json(diagnostics: Iterable[Diagnostic], out: IO[str]) -> None:
    json.dump([d.to_dict() for d in diagnostics], out, indent=2, ensure_ascii=False)
    out.write("\n")
