"""Command-line interface: one module per command, each with ``add_parser`` and ``run``.

Settings come from, in increasing priority: the defaults, the nearest
configuration file (``slurmspec/lint/config.py``), the command line. Exit
codes are documented in ``slurmspec/cli/common.py``.
"""

from __future__ import annotations

import importlib
import sys
from typing import Sequence

from slurmspec.cli.common import EXIT_OK, Parser

# Command name -> module under slurmspec.cli. A module is imported only when
# its command runs (or when the parser is built, for its arguments).
COMMANDS = {
    "lint": "lint_cmd",
    "parse": "parse_cmd",
    "rule": "rule_cmd",
    "emit": "emit_cmd",
    "convert": "convert_cmd",
    "schema": "schema_cmd",
}


def _module(command: str):
    return importlib.import_module(f"slurmspec.cli.{COMMANDS[command]}")


def build_parser() -> Parser:
    from slurmspec import __version__

    parser = Parser(prog="slurmspec", description="Lint, parse and fix Slurm batch scripts.")
    parser.add_argument("--version", action="version", version=f"slurmspec {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for command in COMMANDS:
        _module(command).add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    out = sys.stdout
    try:
        return _module(args.command).run(args, out)
    except BrokenPipeError:
        # Output piped into `head` and closed early: not an error worth a traceback.
        sys.stderr.close()
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
