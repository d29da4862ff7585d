"""Command-line interface: ``slurmspec lint`` and ``slurmspec parse``.

Exit codes (stable): 0 no finding at or above the failure level, 1 findings,
2 usage error, unreadable path or internal error. A broken script is a
finding, never exit 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import IO, Iterator, Sequence

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2

# Files picked up when a folder is given: batch-script suffixes always, shell
# scripts only when they contain a directive (linting every shell script
# blindly would be noise).
_SCRIPT_SUFFIXES = (".sbatch", ".slurm", ".sub", ".job")
_SHELL_SUFFIXES = (".sh", ".bash")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse exits 2 with usage, as we want
        self.print_usage(sys.stderr)
        self.exit(EXIT_ERROR, f"slurmspec: error: {message}\n")


def _version_arg(text: str):
    from slurmspec.version import parse_version

    try:
        return parse_version(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _codes(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def build_parser() -> argparse.ArgumentParser:
    from slurmspec import __version__
    from slurmspec.version import DEFAULT, SUPPORTED

    parser = _Parser(prog="slurmspec", description="Lint, parse and fix Slurm batch scripts.")
    parser.add_argument("--version", action="version", version=f"slurmspec {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def common(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "--slurm-version", type=_version_arg, default=None, metavar="X.Y",
            help=f"target Slurm release, one of {', '.join(SUPPORTED)} (default {DEFAULT})",
        )

    lint = commands.add_parser("lint", help="report problems in batch scripts")
    lint.add_argument("paths", nargs="+", metavar="PATH", help="files or folders; - reads standard input")
    lint.add_argument("--format", choices=("text", "json"), default="text")
    lint.add_argument("--select", type=_codes, default=[], metavar="CODES",
                      help="only these codes, code prefixes or rule names (comma-separated)")
    lint.add_argument("--ignore", type=_codes, default=[], metavar="CODES",
                      help="skip these codes, code prefixes or rule names (comma-separated)")
    lint.add_argument("--fail-on", choices=("error", "warning", "info"), default="warning",
                      help="lowest severity that makes the exit code 1 (default: warning)")
    lint.add_argument("--stdin-filename", default=None, help="name to show for standard input")
    common(lint)

    parse = commands.add_parser("parse", help="print the parsed model of a script")
    parse.add_argument("path", metavar="PATH", help="a file, or - for standard input")
    parse.add_argument("--format", choices=("json",), default="json")
    common(parse)
    return parser


def _discover(paths: Sequence[str], errors: list[str]) -> Iterator[str]:
    for path in paths:
        if path == "-" or os.path.isfile(path):
            yield path
        elif os.path.isdir(path):
            yield from _walk(path)
        else:
            errors.append(f"{path}: no such file or folder")


def _walk(folder: str) -> Iterator[str]:
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            full = os.path.join(root, name)
            if name.endswith(_SCRIPT_SUFFIXES):
                yield full
            elif name.endswith(_SHELL_SUFFIXES) and _has_directive(full):
                yield full


def _has_directive(path: str) -> bool:
    try:
        with open(path, "rb") as handle:
            return b"#SBATCH" in handle.read()
    except OSError:
        return False


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as handle:
        return handle.read()


def run_lint(args: argparse.Namespace, out: IO[str]) -> int:
    from slurmspec.lint.diagnostic import severity_rank
    from slurmspec.lint.engine import lint_script, registry, select_rules
    from slurmspec.parser.script import parse_script
    from slurmspec.version import NEWEST

    unknown = [c for c in (*args.select, *args.ignore) if not _known_selector(c, registry())]
    if unknown:
        sys.stderr.write(f"slurmspec: error: unknown rule code or name: {', '.join(unknown)}\n")
        return EXIT_ERROR
    rules = select_rules(args.select, args.ignore)
    version = args.slurm_version or NEWEST
    errors: list[str] = []
    results = []
    for path in _discover(args.paths, errors):
        shown = (args.stdin_filename or "<stdin>") if path == "-" else path
        try:
            data = _read(path)
        except OSError as exc:
            errors.append(f"{shown}: cannot read: {exc.strerror or exc}")
            continue
        script = parse_script(data, shown, version)
        results.append((script, lint_script(script, rules)))

    if args.format == "json":
        from slurmspec.report.json import write_json

        write_json([d for _, found in results for d in found], out)
    else:
        from slurmspec.report.text import write_text

        write_text(results, out)
    for message in errors:
        sys.stderr.write(f"slurmspec: error: {message}\n")
    if errors:
        return EXIT_ERROR
    threshold = severity_rank(args.fail_on)
    failing = any(severity_rank(d.severity) >= threshold for _, found in results for d in found)
    return EXIT_FINDINGS if failing else EXIT_OK


def _known_selector(selector: str, table) -> bool:
    return any(code.startswith(selector) or rule.name == selector for code, rule in table.items())


def run_parse(args: argparse.Namespace, out: IO[str]) -> int:
    import json

    from slurmspec.parser.script import parse_script
    from slurmspec.version import NEWEST

    try:
        data = _read(args.path)
    except OSError as exc:
        sys.stderr.write(f"slurmspec: error: {args.path}: cannot read: {exc.strerror or exc}\n")
        return EXIT_ERROR
    script = parse_script(data, None if args.path == "-" else args.path, args.slurm_version or NEWEST)
    json.dump(script.to_dict(), out, indent=2, ensure_ascii=False)
    out.write("\n")
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    out = sys.stdout
    try:
        if args.command == "lint":
            return run_lint(args, out)
        return run_parse(args, out)
    except BrokenPipeError:
        # Output piped into `head` and closed early: not an error worth a traceback.
        sys.stderr.close()
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
