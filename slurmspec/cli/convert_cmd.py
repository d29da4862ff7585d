"""``slurmspec convert SCRIPT``: the TOML job spec of a batch script.

Modelled options become typed keys, the others raw ``[sbatch].options``; the
body is kept verbatim (``[body] script``, or ``--body-file`` writes it to a file
and the spec points at it). Exit codes: 0 written, 2 unreadable input or a
script a TOML spec cannot carry (bytes that are not UTF-8).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import IO

from slurmspec.cli.common import EXIT_ERROR, EXIT_OK, add_common, error
from slurmspec.printable import printable


def add_parser(commands) -> None:
    convert = commands.add_parser("convert", help="write the TOML job spec of a batch script")
    convert.add_argument("path", metavar="SCRIPT", help="a batch script, or - for standard input")
    convert.add_argument("-o", "--output", default=None, metavar="FILE", help="write here instead of standard output")
    convert.add_argument("--body-file", default=None, metavar="FILE",
                         help="write the script body to FILE and refer to it from the spec")
    add_common(convert, detects_version=True)  # the release the script is read for, chosen as `lint` does


def run(args: argparse.Namespace, out: IO[str]) -> int:
    from slurmspec.cli.parse_cmd import read_script
    from slurmspec.emit.convert import ConvertError, convert_script
    from slurmspec.spec.model import Section
    from slurmspec.spec.toml_write import to_toml

    name = "<stdin>" if args.path == "-" else args.path
    script = read_script(args, name)
    if isinstance(script, int):
        return script
    try:
        spec = convert_script(script)
    except ConvertError as exc:
        sys.stderr.write(printable(f"{name}:1:1: error: {exc}") + "\n")
        return EXIT_ERROR
    _warn_dropped(script, name)
    from slurmspec.safe_write import WriteRefused, write_file

    body = spec.section("body")
    try:  # each file whole or not at all (slurmspec/safe_write.py)
        if args.body_file and body is not None:
            write_file(args.body_file, body.get("script").encode("utf-8"))
            base = Path(args.output).parent if args.output else Path.cwd()
            relative = os.path.relpath(Path(args.body_file).resolve(), base.resolve())
            spec = spec.replace("body", Section("body", (("file", relative),)))
        text = to_toml(spec)
        if args.output:
            write_file(args.output, text.encode("utf-8"))
        else:
            out.write(text)
    except WriteRefused as exc:
        error(str(exc))
        return EXIT_ERROR
    except OSError as exc:
        error(f"cannot write: {exc.strerror or exc}")
        return EXIT_ERROR
    return EXIT_OK


def _warn_dropped(script, name: str) -> None:
    """A warning per occurrence the spec leaves out because a later one replaces it (as sbatch would):
    the TOML keeps one value per key, and a dropped `--constraint` must not vanish without a word."""
    for component in script.components:
        for setting in component.request.settings:
            if setting.inherited or not setting.overridden or setting.directive.option.accumulates:
                continue
            later = setting.directive
            for earlier in setting.overridden:
                sys.stderr.write(printable(
                    f"{name}:{earlier.span.line}:{earlier.span.column}: warning: `{earlier.raw}` is left out of"
                    f" the spec: line {later.span.line}'s `{later.raw}` replaces it, as sbatch does") + "\n")
