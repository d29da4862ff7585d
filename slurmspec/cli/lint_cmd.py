"""``slurmspec lint``: report problems in batch scripts."""

from __future__ import annotations

import argparse
import os
import sys
from typing import IO, Iterator, Sequence

from slurmspec.report import COLOR_CHOICES, FORMATS
from slurmspec.cli.common import (
    EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, add_common, codes_arg, configs, error, unknown_selectors,
)

# Files picked up when a folder is given: batch-script suffixes always, shell
# scripts only when they contain a directive (linting every shell script
# blindly would be noise).
_SCRIPT_SUFFIXES = (".sbatch", ".slurm", ".sub", ".job")
_SHELL_SUFFIXES = (".sh", ".bash")


def add_parser(commands) -> None:
    lint = commands.add_parser("lint", help="report problems in batch scripts")
    lint.add_argument("paths", nargs="+", metavar="PATH", help="files or folders; - reads standard input")
    lint.add_argument("--format", choices=FORMATS, default=None,
                      help="output format (default: text on a terminal, else concise)")
    lint.add_argument("--color", choices=COLOR_CHOICES, default="auto",
                      help="colour the text and concise formats (auto: NO_COLOR, FORCE_COLOR, then the terminal)")
    lint.add_argument("--statistics", action="store_true", help="print the number of findings per code instead")
    lint.add_argument("-q", "--quiet", action="store_true", help="print the findings only, no summary line")
    lint.add_argument("--exit-zero", action="store_true",
                      help="exit 0 even with findings (2 still means a usage error or unreadable path)")
    lint.add_argument("--require-sbatch", action="store_true",
                      help="skip named files without a batch-script suffix that contain no #SBATCH, "
                           "as folder discovery does (the pre-commit hooks use it)")
    lint.add_argument("--shellcheck", action=argparse.BooleanOptionalAction, default=None,
                      help="also run ShellCheck on the script body, as SCxxxx findings (default: the configuration's, else off)")
    lint.add_argument("--select", type=codes_arg, default=[], metavar="CODES",
                      help="only these codes, code prefixes or rule names (comma-separated)")
    lint.add_argument("--extend-select", type=codes_arg, default=[], metavar="CODES",
                      help="add these to the selected codes (comma-separated)")
    lint.add_argument("--ignore", type=codes_arg, default=[], metavar="CODES",
                      help="skip these codes, code prefixes or rule names (comma-separated), "
                           "besides the configuration's")
    lint.add_argument("--fail-on", choices=("error", "warning", "info"), default=None,
                      help="lowest severity that makes the exit code 1 (default: the configuration's, else warning)")
    lint.add_argument("--no-suppress", action="store_true",
                      help="disregard `# slurmspec: ignore[...]` comments")
    lint.add_argument("--stdin-filename", default=None, help="name to show for standard input")
    lint.add_argument("--cluster", default=None, metavar="PROFILE",
                      help="check against this cluster profile (`slurmspec cluster import`; default: the "
                           "configuration's `cluster`); its Slurm release becomes the default target")
    add_common(lint, detects_version=True)
    from slurmspec.cli import fixing

    fixing.add_arguments(lint)



def _discover(paths: Sequence[str], errors: list[str], require_sbatch: bool = False) -> Iterator[str]:
    """The inputs to lint. A path named on the command line is read even when it is a pipe
    (``<(generate-job)``); in a folder only regular files are, others are skipped with a note
    (a FIFO would block the run forever, a device never end)."""
    for path in paths:
        if path == "-" or os.path.isfile(path):
            if not require_sbatch or path == "-" or path.endswith(_SCRIPT_SUFFIXES) or _has_directive(path):
                yield path
        elif os.path.isdir(path):
            yield from _walk(path)
        elif os.path.exists(path):
            yield path  # a FIFO, a device, /dev/fd/N: the user asked for it; reading is bounded
        else:
            errors.append(f"{path}: {_why_missing(path)}")


def _why_missing(path: str) -> str:
    try:
        os.stat(path)
    except OSError as exc:  # a dangling symlink or a symlink loop says more than "no such file"
        if os.path.islink(path) and exc.strerror:
            return f"cannot read: {exc.strerror}"
    return "no such file or folder"


def _walk(folder: str) -> Iterator[str]:
    from slurmspec.lint.limits import file_kind

    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            full = os.path.join(root, name)
            if not name.endswith(_SCRIPT_SUFFIXES) and not name.endswith(_SHELL_SUFFIXES):
                continue
            try:
                kind = file_kind(full)
            except OSError as exc:
                _note(f"{full}: skipped, cannot read: {exc.strerror or exc}")
                continue
            if kind is not None:
                _note(f"{full}: skipped, {kind} is not a script file")
            elif name.endswith(_SCRIPT_SUFFIXES) or _has_directive(full):
                yield full


def _note(message: str) -> None:
    sys.stderr.write(f"slurmspec: note: {message}\n")


def _has_directive(path: str) -> bool:
    from slurmspec.lint.limits import read_bounded

    try:
        return b"#SBATCH" in read_bounded(path)
    except OSError:
        return False


class _Settings:
    """Effective settings for one file: configuration merged with the command line."""

    def __init__(self, args: argparse.Namespace, config, path: str | None, profiles: dict | None = None) -> None:
        from slurmspec.cli.common import load_cluster, target_version
        from slurmspec.lint.engine import select_rules

        select = args.select or config.select
        extend = args.extend_select if args.select else (*config.extend_select, *args.extend_select)
        ignore = (*config.ignore, *args.ignore, *config.ignores_for(path))
        self.rules = select_rules(select, ignore, extend)
        self.severity = config.severities(rule.code for rule in self.rules)
        self.cluster = load_cluster(args.cluster or config.cluster, {} if profiles is None else profiles)
        self.version, self.version_from = target_version(args.slurm_version, config.slurm_version, self.cluster)
        self.fail_on = args.fail_on or config.fail_on or "warning"
        self.shellcheck = config.shellcheck if args.shellcheck is None else args.shellcheck
        self.select, self.ignore, self.severity_selectors = (*select, *extend), ignore, dict(config.severity)

    def shellcheck_for(self, located: str | None):
        """ShellCheck as a checker for one file (it reads ``.shellcheckrc`` beside it), or None."""
        if not self.shellcheck:
            return None
        from slurmspec.lint.shellcheck import ShellCheck

        return ShellCheck(self.select, self.ignore, self.severity_selectors,
                          cwd=os.path.dirname(os.path.abspath(located)) if located else None)


def run(args: argparse.Namespace, out: IO[str]) -> int:
    from slurmspec.cluster.profile import ProfileError
    from slurmspec.lint.config import ConfigError
    from slurmspec.lint.diagnostic import severity_rank
    from slurmspec.lint.engine import INTERNAL_ERROR, lint_script, too_large_finding
    from slurmspec.lint.limits import MAX_SCRIPT_BYTES, head_of, read_bounded
    from slurmspec.lint.shellcheck import ShellCheckError, is_shellcheck_selector
    from slurmspec.parser.script import parse_script

    if args.unsafe_fixes and not (args.fix or args.diff):
        return error("--unsafe-fixes needs --fix or --diff")
    if args.show_fixes and not (args.fix or args.diff):
        return error("--show-fixes needs --fix or --diff")
    if args.fix and args.diff:
        return error("--fix writes the files and --diff writes nothing: give one of them")
    selectors = [*args.select, *args.extend_select, *args.ignore]
    problem = unknown_selectors([s for s in selectors if not is_shellcheck_selector(s)])
    if problem:
        return error(f"--select/--extend-select/--ignore: {problem}")
    try:
        config_cache = configs(args)
    except ConfigError as exc:
        return error(str(exc))
    settings_cache: dict = {}
    profiles: dict = {}  # cluster profiles by path, read once
    errors: list[str] = []
    results = []
    fixing = None
    if args.fix or args.diff:
        from slurmspec.cli import fixing
    fixed = []
    for path in _discover(args.paths, errors, args.require_sbatch):
        shown = (args.stdin_filename or "<stdin>") if path == "-" else path
        located = args.stdin_filename if path == "-" else path
        try:
            config = config_cache.for_path(located)
        except ConfigError as exc:
            return error(str(exc))
        key = (config, config.ignores_for(located))
        if key not in settings_cache:
            try:
                settings_cache[key] = _Settings(args, config, located, profiles)
            except ProfileError as exc:
                return error(str(exc))
        settings = settings_cache[key]
        try:
            data = read_bounded(path)
        except OSError as exc:
            errors.append(f"{shown}: cannot read: {exc.strerror or exc}")
            continue
        if len(data) > MAX_SCRIPT_BYTES:  # refused by slurmctld; never analysed, never fixed
            script = parse_script(head_of(data), shown, settings.version)
            results.append((script, too_large_finding(script, settings.rules), settings.fail_on))
            continue
        shellcheck = settings.shellcheck_for(located)
        try:
            if fixing is not None:
                outcome = fixing.fix_input(data, shown, settings, args)
                fixing.deliver(path, shown, data, outcome, args, out, errors)
                fixed.append((shown, outcome))
                script, found = parse_script(outcome.text, shown, settings.version), list(outcome.diagnostics)
                if shellcheck is not None:  # the fix rounds run without it: once, on the final text
                    found = lint_script(script, settings.rules, severity=settings.severity,
                                        suppress=not args.no_suppress, shellcheck=shellcheck, cluster=settings.cluster)
            else:
                script = parse_script(data, shown, settings.version)
                found = lint_script(script, settings.rules, severity=settings.severity,
                                    suppress=not args.no_suppress, shellcheck=shellcheck, cluster=settings.cluster)
        except ShellCheckError as exc:
            return error(str(exc))
        results.append((script, found, settings.fail_on))

    from slurmspec.report import default_format, resolve_color, write_report

    if fixing is not None:
        fixing.summarize(fixed, args, sys.stderr)
    if not args.diff:
        # Fixing standard input puts the script on standard output: the findings go to standard error.
        stream = sys.stderr if fixing is not None and "-" in args.paths else out
        try:  # --format, else the working folder's configuration, else by terminal
            chosen = args.format or config_cache.for_path(None).output_format or default_format(stream)
        except ConfigError as exc:
            return error(str(exc))
        write_report(
            chosen, [(script, found) for script, found, _ in results], stream,
            color=resolve_color(args.color, stream), quiet=args.quiet, statistics=args.statistics,
        )
    for message in errors:
        sys.stderr.write(f"slurmspec: error: {message}\n")
    if errors or any(d.code == INTERNAL_ERROR for _, found, _ in results for d in found):
        return EXIT_ERROR  # an unreadable path, or a rule that failed (SB900): the report is incomplete
    if args.diff:
        return EXIT_FINDINGS if any(outcome.changed for _, outcome in fixed) else EXIT_OK
    if args.exit_zero:
        return EXIT_OK
    failing = any(
        severity_rank(d.severity) >= severity_rank(fail_on) for _, found, fail_on in results for d in found
    )
    return EXIT_FINDINGS if failing else EXIT_OK
