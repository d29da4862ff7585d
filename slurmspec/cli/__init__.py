"""Command-line interface: one module per command, each with ``add_parser`` and ``run``.

Settings come from, in increasing priority: the defaults, the nearest
configuration file (``slurmspec/settings/config.py``), the command line. Exit
codes are documented in ``slurmspec/cli/common.py``.
"""

from __future__ import annotations

import gc
import importlib
import os
import sys
from typing import NoReturn, Sequence

from slurmspec.cli.common import EXIT_OK, Parser

# Command name -> module under slurmspec.cli: the one registry of commands. A
# module is imported only when its command runs; its arguments are built only
# for the command given (all of them for ``--help`` and for mistakes, which list them).
COMMANDS = {
    "lint": "lint_cmd",
    "submit": "submit_cmd",
    "parse": "parse_cmd",
    "rule": "rule_cmd",
    "emit": "emit_cmd",
    "convert": "convert_cmd",
    "schema": "schema_cmd",
    "lsp": "lsp_cmd",
    "cluster": "cluster_cmd",
    "audit": "audit_cmd",
}


def _module(command: str):
    return importlib.import_module(f"slurmspec.cli.{COMMANDS[command]}")


def build_parser(command: str | None = None) -> Parser:
    """The argument parser; with ``command``, only that subcommand's arguments are built."""
    from slurmspec import __version__

    parser = Parser(prog="slurmspec", description="Lint, parse and fix Slurm batch scripts.")
    parser.add_argument("-V", "--version", action="version", version=f"slurmspec {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for name in [command] if command in COMMANDS else COMMANDS:
        _module(name).add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; with no ``argv`` this is the program itself, and it ends the process."""
    words = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(words[0] if words else None).parse_args(words)
    out = sys.stdout
    collecting = gc.isenabled()
    if args.command == "lint":
        # Loading the rules builds thousands of long-lived objects and no garbage: the cycle
        # collector would only walk them, over and over (~5% of a cold lint). lint_cmd turns
        # it back on, with those objects frozen out of its way, once the rules are loaded.
        gc.disable()
    try:
        code = _module(args.command).run(args, out)
    except BrokenPipeError:
        # Output piped into `head` and closed early: not an error worth a traceback.
        sys.stderr.close()
        code = EXIT_OK
    except KeyboardInterrupt:
        code = 130
    except (MemoryError, RecursionError) as exc:
        # Input that exhausts memory or the stack is refused as too large or too deep, never
        # answered with a traceback (which reads as exit 1: findings, or for emit, written).
        from slurmspec.cli.common import error

        what = "memory" if isinstance(exc, MemoryError) else "stack depth (input nested too deeply)"
        code = error(f"ran out of {what}; nothing more was done")
    finally:
        if collecting:
            gc.enable()
    if argv is None:
        _end_process(code)
    return code


def _end_process(code: int) -> NoReturn:
    """Flush the output and leave without tearing the interpreter down.

    Freeing every module and object at exit costs a few milliseconds on each run
    and does nothing for a process about to end; files the commands write are
    closed by then. Only the program does this, never ``main([...])`` called from Python.
    """
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass  # the reader went away (a closed pipe) or the stream was closed above
    from slurmspec import code_cache

    code_cache.save()  # what atexit would have done: the model classes' code, if this run compiled any
    os._exit(code)
