"""``slurmspec schema``: print the JSON Schema of the TOML job spec (for editors)."""

from __future__ import annotations

import argparse
from typing import IO

from slurmspec.cli.common import EXIT_OK


def add_parser(commands) -> None:
    commands.add_parser("schema", help="print the JSON Schema of the TOML job spec")


def run(args: argparse.Namespace, out: IO[str]) -> int:
    from importlib.resources import files

    out.write(files("slurmspec.spec").joinpath("schema.json").read_text(encoding="utf-8"))
    return EXIT_OK
