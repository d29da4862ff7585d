"""``slurmspec emit SPEC``: write the batch script a TOML job spec describes.

Exit codes: 0 written (warnings, if any, on standard error), 1 written but
the rules found an error in it (sbatch or slurmctld would refuse it, or it
would fail), 2 the spec is broken (``path:line:col: error: ...`` with a
did-you-mean) or a file cannot be read or written. The emitted script is
linted with every rule for the target release; findings at warning or above
go to standard error (``--no-check`` skips this, and then 1 never happens).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import IO

from slurmspec.cli.common import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, read_input, version_arg

EXIT_CODES = """\
exit codes:
  0  the script was written (warnings, if any, on standard error)
  1  the script was written, but the rules found an error in it: sbatch
     would refuse it, or the job would fail (findings on standard error)
  2  the spec is broken (path:line:column: error: ...), or a file cannot be
     read or written; nothing is written"""


def add_parser(commands) -> None:
    emit = commands.add_parser("emit", help="write the batch script of a TOML job spec",
                               description="Write the batch script a TOML job spec describes (docs/spec.md),"
                                           " then lint it for the target Slurm release.",
                               epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    emit.add_argument("path", metavar="SPEC", help="a .toml job spec, or - for standard input")
    emit.add_argument("-o", "--output", default=None, metavar="FILE", help="write here instead of standard output")
    emit.add_argument("--slurm-version", type=version_arg, default=None, metavar="X.Y",
                      help="target Slurm release (default: the newest supported)")
    emit.add_argument("--no-check", action="store_true",
                      help="do not lint the emitted script (exit 0 whenever it is written)")


def spec_problem(path: str, line: int, column: int, message: str) -> None:
    sys.stderr.write(f"{path}:{line}:{column}: error: {message}\n")


def run(args: argparse.Namespace, out: IO[str]) -> int:
    from slurmspec.emit import emit
    from slurmspec.spec import SpecError, load_spec
    from slurmspec.version import NEWEST

    name = "<stdin>" if args.path == "-" else args.path
    try:
        text = read_input(args.path).decode("utf-8")
    except OSError as exc:
        sys.stderr.write(f"slurmspec: error: {name}: cannot read: {exc.strerror or exc}\n")
        return EXIT_ERROR
    except UnicodeDecodeError as exc:
        spec_problem(name, 1, 1, f"a TOML file must be UTF-8 ({exc.reason} at byte {exc.start})")
        return EXIT_ERROR
    version = args.slurm_version or NEWEST
    try:
        spec = load_spec(text, version)
    except SpecError as exc:
        for problem in exc.problems:
            spec_problem(name, problem.line, problem.column, problem.message)
        return EXIT_ERROR
    base = Path(args.path).parent if args.path != "-" else Path.cwd()
    try:
        script = emit(spec, base, version)
    except (OSError, UnicodeDecodeError) as exc:
        sys.stderr.write(f"slurmspec: error: {name}: [body] file: {exc}\n")
        return EXIT_ERROR
    refused = False if args.no_check else _check(script, args.output or "<emitted>", version)
    if args.output:
        try:
            Path(args.output).write_text(script)
        except OSError as exc:
            sys.stderr.write(f"slurmspec: error: {args.output}: cannot write: {exc.strerror or exc}\n")
            return EXIT_ERROR
    else:
        out.write(script)
    return EXIT_FINDINGS if refused else EXIT_OK


def _check(script: str, name: str, version) -> bool:
    """Report what the rules say about the emitted script; True when one of them is an error.

    The loader refuses what it can tell from the spec alone; this is the last
    line of defence (raw options, verbatim header lines, rules the loader does
    not mirror). The script is still written, so it can be read and fixed.
    """
    from slurmspec.kinds import Severity
    from slurmspec.lint import lint_text

    error = False
    for d in lint_text(script, None, version):
        if d.severity.rank >= Severity.WARNING.rank:
            sys.stderr.write(f"{name}:{d.span.line}:{d.span.column}: {d.code} {d.severity}: {d.message}\n")
        error = error or d.severity.rank >= Severity.ERROR.rank
    return error
