"""Command-line interface: ``slurmspec lint``, ``slurmspec parse`` and ``slurmspec rule``.

Exit codes (stable): 0 no finding at or above the failure level, 1 findings,
2 usage error (including a broken configuration file), unreadable path or
internal error. A broken script is a finding, never exit 2.

Settings come from, in increasing priority: the defaults, the nearest
configuration file (``slurmspec/lint/config.py``), the command line.
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
            help=f"target Slurm release, one of {', '.join(SUPPORTED)} "
                 f"(default: the configuration's, else {DEFAULT})",
        )
        where = sub.add_mutually_exclusive_group()
        where.add_argument("--config", default=None, metavar="PATH",
                           help="use this slurmspec.toml or pyproject.toml instead of searching for one")
        where.add_argument("--no-config", action="store_true",
                           help="ignore configuration files")

    lint = commands.add_parser("lint", help="report problems in batch scripts")
    lint.add_argument("paths", nargs="+", metavar="PATH", help="files or folders; - reads standard input")
    lint.add_argument("--format", choices=("text", "json"), default="text")
    lint.add_argument("--select", type=_codes, default=[], metavar="CODES",
                      help="only these codes, code prefixes or rule names (comma-separated)")
    lint.add_argument("--extend-select", type=_codes, default=[], metavar="CODES",
                      help="add these to the selected codes (comma-separated)")
    lint.add_argument("--ignore", type=_codes, default=[], metavar="CODES",
                      help="skip these codes, code prefixes or rule names (comma-separated), "
                           "besides the configuration's")
    lint.add_argument("--fail-on", choices=("error", "warning", "info"), default=None,
                      help="lowest severity that makes the exit code 1 (default: the configuration's, else warning)")
    lint.add_argument("--no-suppress", action="store_true",
                      help="disregard `# slurmspec: ignore[...]` comments")
    lint.add_argument("--stdin-filename", default=None, help="name to show for standard input")
    common(lint)

    parse = commands.add_parser("parse", help="print the parsed model of a script")
    parse.add_argument("path", metavar="PATH", help="a file, or - for standard input")
    parse.add_argument("--format", choices=("json",), default="json")
    common(parse)

    rule = commands.add_parser("rule", help="show the documentation of a rule, or list every rule")
    rule.add_argument("rule", nargs="?", metavar="CODE|NAME", help="a rule code (SB201) or name")
    rule.add_argument("--all", action="store_true", help="every rule")
    rule.add_argument("--format", choices=("text", "json", "markdown"), default="text")
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


class _Settings:
    """Effective settings for one file: configuration merged with the command line."""

    def __init__(self, args: argparse.Namespace, config, path: str | None) -> None:
        from slurmspec.lint.engine import select_rules
        from slurmspec.version import NEWEST

        select = args.select or config.select
        extend = args.extend_select if args.select else (*config.extend_select, *args.extend_select)
        ignore = (*config.ignore, *args.ignore, *config.ignores_for(path))
        self.rules = select_rules(select, ignore, extend)
        self.severity = config.severities(rule.code for rule in self.rules)
        self.version = args.slurm_version or config.slurm_version or NEWEST
        self.fail_on = args.fail_on or config.fail_on or "warning"


def _error(message: str) -> int:
    sys.stderr.write(f"slurmspec: error: {message}\n")
    return EXIT_ERROR


def _unknown_selectors(selectors: Sequence[str]) -> str | None:
    from slurmspec.lint.config import check_selector

    for selector in selectors:
        try:
            check_selector(selector, ValueError)
        except ValueError as exc:
            return str(exc)
    return None


def _configs(args: argparse.Namespace):
    from slurmspec.lint.config import ConfigCache

    return ConfigCache(args.config, enabled=not args.no_config)


def run_lint(args: argparse.Namespace, out: IO[str]) -> int:
    from slurmspec.lint.config import ConfigError
    from slurmspec.lint.diagnostic import severity_rank
    from slurmspec.lint.engine import lint_script
    from slurmspec.parser.script import parse_script

    problem = _unknown_selectors([*args.select, *args.extend_select, *args.ignore])
    if problem:
        return _error(f"--select/--extend-select/--ignore: {problem}")
    try:
        configs = _configs(args)
    except ConfigError as exc:
        return _error(str(exc))
    settings_cache: dict = {}
    errors: list[str] = []
    results = []
    for path in _discover(args.paths, errors):
        shown = (args.stdin_filename or "<stdin>") if path == "-" else path
        located = args.stdin_filename if path == "-" else path
        try:
            config = configs.for_path(located)
        except ConfigError as exc:
            return _error(str(exc))
        key = (config, config.ignores_for(located))
        if key not in settings_cache:
            settings_cache[key] = _Settings(args, config, located)
        settings = settings_cache[key]
        try:
            data = _read(path)
        except OSError as exc:
            errors.append(f"{shown}: cannot read: {exc.strerror or exc}")
            continue
        script = parse_script(data, shown, settings.version)
        found = lint_script(script, settings.rules, severity=settings.severity, suppress=not args.no_suppress)
        results.append((script, found, settings.fail_on))

    if args.format == "json":
        from slurmspec.report.json import write_json

        write_json([d for _, found, _ in results for d in found], out)
    else:
        from slurmspec.report.text import write_text

        write_text([(script, found) for script, found, _ in results], out)
    for message in errors:
        sys.stderr.write(f"slurmspec: error: {message}\n")
    if errors:
        return EXIT_ERROR
    failing = any(
        severity_rank(d.severity) >= severity_rank(fail_on) for _, found, fail_on in results for d in found
    )
    return EXIT_FINDINGS if failing else EXIT_OK


def run_parse(args: argparse.Namespace, out: IO[str]) -> int:
    import json

    from slurmspec.parser.script import parse_script
    from slurmspec.version import NEWEST

    try:
        data = _read(args.path)
    except OSError as exc:
        sys.stderr.write(f"slurmspec: error: {args.path}: cannot read: {exc.strerror or exc}\n")
        return EXIT_ERROR
    from slurmspec.lint.config import ConfigError

    try:
        config = _configs(args).for_path(None if args.path == "-" else args.path)
    except ConfigError as exc:
        return _error(str(exc))
    version = args.slurm_version or config.slurm_version or NEWEST
    script = parse_script(data, None if args.path == "-" else args.path, version)
    json.dump(script.to_dict(), out, indent=2, ensure_ascii=False)
    out.write("\n")
    return EXIT_OK


def run_rule(args: argparse.Namespace, out: IO[str]) -> int:
    import json

    from slurmspec.lint.engine import registry
    from slurmspec.report import rule_docs

    table = registry()
    if args.all == bool(args.rule):
        return _error("rule: give a rule code or name, or --all")
    if args.all:
        rules = sorted(table.values(), key=lambda r: r.code)
    else:
        from slurmspec.lint.suppress import resolve

        code = resolve(args.rule, table)
        if code is None:
            problem = _unknown_selectors([args.rule])
            if problem is None:  # a prefix: show that family's list
                from slurmspec.lint.engine import select_rules

                rules = select_rules([args.rule])
            else:
                return _error(problem.replace("rule code, code prefix or rule name", "rule code or name"))
        else:
            rules = [table[code]]
    single = not args.all and len(rules) == 1
    if args.format == "json":
        data = [rule_docs.rule_to_dict(r) for r in rules]
        json.dump(data[0] if single else data, out, indent=2, ensure_ascii=False)
        out.write("\n")
    elif args.format == "markdown":
        out.write(rule_docs.rules_markdown(rules) if args.all else "\n".join(rule_docs.rule_markdown(r) for r in rules))
    elif single:
        from slurmspec.report.rule_docs import write_rule_doc

        write_rule_doc(rules[0], out)
    else:
        from slurmspec.report.rule_docs import write_rule_list

        write_rule_list(rules, out)
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    out = sys.stdout
    try:
        if args.command == "lint":
            return run_lint(args, out)
        if args.command == "rule":
            return run_rule(args, out)
        return run_parse(args, out)
    except BrokenPipeError:
        # Output piped into `head` and closed early: not an error worth a traceback.
        sys.stderr.close()
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
