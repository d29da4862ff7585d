"""``slurmspec parse``: print the parsed model of a script as JSON."""

from __future__ import annotations

import argparse
import sys
from typing import IO

from slurmspec.cli.common import EXIT_ERROR, EXIT_OK, add_common, configs, error, read_input


def add_parser(commands) -> None:
    parse = commands.add_parser("parse", help="print the parsed model of a script")
    parse.add_argument("path", metavar="PATH", help="a file, or - for standard input")
    parse.add_argument("--format", choices=("json",), default="json")
    add_common(parse)


def run(args: argparse.Namespace, out: IO[str]) -> int:
    import json

    from slurmspec.parser.script import parse_script
    from slurmspec.version import NEWEST

    try:
        data = read_input(args.path)
    except OSError as exc:
        sys.stderr.write(f"slurmspec: error: {args.path}: cannot read: {exc.strerror or exc}\n")
        return EXIT_ERROR
    from slurmspec.lint.config import ConfigError

    try:
        config = configs(args).for_path(None if args.path == "-" else args.path)
    except ConfigError as exc:
        return error(str(exc))
    version = args.slurm_version or config.slurm_version or NEWEST
    script = parse_script(data, None if args.path == "-" else args.path, version)
    json.dump(script.to_dict(), out, indent=2, ensure_ascii=False)
    out.write("\n")
    return EXIT_OK
