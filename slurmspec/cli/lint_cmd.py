"""``slurmspec lint``: report problems in batch scripts."""

from __future__ import annotations

import argparse
import os
from functools import partial
from typing import IO, TYPE_CHECKING, NamedTuple, Sequence

from slurmspec.report import COLOR_CHOICES, FORMATS
from slurmspec.cli.common import (
    EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, add_common, codes_arg, configs, error, unknown_selectors,
)

if TYPE_CHECKING:  # pragma: no cover
    from slurmspec.lint.pipeline import LintSettings

def add_parser(commands) -> None:
    lint = commands.add_parser("lint", help="report problems in batch scripts")
    lint.add_argument("paths", nargs="*", default=["."], metavar="PATH",
                      help="files or folders; - reads standard input (default: the current folder)")
    lint.add_argument("--format", choices=FORMATS, default=None,
                      help="output format (default: text on a terminal, else concise)")
    lint.add_argument("--color", choices=COLOR_CHOICES, default="auto",
                      help="colour the text and concise formats (auto: NO_COLOR, FORCE_COLOR, then the terminal)")
    lint.add_argument("-o", "--output-file", default=None, metavar="PATH",
                      help="write the report to PATH instead of standard output (written whole, atomically)")
    lint.add_argument("--statistics", action="store_true", help="print the number of findings per code instead")
    lint.add_argument("-q", "--quiet", action="store_true", help="print the findings only, no summary line")
    lint.add_argument("-j", "--jobs", type=_jobs, default=None, metavar="N",
                      help="lint on N processes (default: one per core; 1 lints in this process, for debugging);"
                           " the report is the same whatever N is. --fix and --diff use one process")
    lint.add_argument("--exit-zero", action="store_true",
                      help="exit 0 even with findings (2 still means a usage error or unreadable path)")
    lint.add_argument("--require-sbatch", action="store_true",
                      help="skip named files without a batch-script suffix that contain no #SBATCH, "
                           "as folder discovery does (the pre-commit hooks use it)")
    lint.add_argument("--exclude", type=_globs, action="extend", default=None, metavar="GLOBS",
                      help="skip these files and folders in folders (comma-separated globs; replaces the "
                           "configuration's `exclude` and the default list: .git, .venv, venv, build, dist...)")
    lint.add_argument("--extend-exclude", type=_globs, action="extend", default=[], metavar="GLOBS",
                      help="skip these too (comma-separated globs), besides `exclude`")
    lint.add_argument("--force-exclude", action="store_true",
                      help="apply the exclusions to paths named on the command line too (pre-commit's hooks use it)")
    lint.add_argument("--respect-gitignore", action=argparse.BooleanOptionalAction, default=None,
                      help="skip what .gitignore files list when walking folders (default: the configuration's, "
                           "else on)")
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
    from slurmspec.invocation.arguments import add_arguments as add_invocation_arguments

    fixing.add_arguments(lint)
    add_invocation_arguments(lint)  # --sbatch-env, and sbatch's options after `--`


def _globs(text: str) -> list[str]:
    from slurmspec.settings.config import GlobError, glob_regex

    globs = [glob.strip() for glob in text.split(",") if glob.strip()]
    for glob in globs:
        try:
            glob_regex(glob.strip("/") or glob)
        except GlobError as exc:  # argparse makes it a usage error (exit 2)
            raise argparse.ArgumentTypeError(str(exc)) from None
    return globs


def _exclusions(args: argparse.Namespace, config_cache):
    """Path named on the command line -> its ``Exclusion``: the flags over the configuration found from it."""
    from slurmspec.cli.discovery import DEFAULT_EXCLUDE, Exclusion

    here = os.getcwd()
    made: dict = {}

    def exclusion_for(path: str) -> Exclusion:
        # for_path looks from a file's folder: a folder's own configuration is that of a file in it.
        config = config_cache.for_path(os.path.join(path, "_") if os.path.isdir(path) else path)
        if config not in made:
            if args.exclude is not None:
                base = [(glob, here) for glob in args.exclude]
            elif config.exclude is not None:
                base = [(glob, config.root) for glob in config.exclude]
            else:
                base = [(glob, here) for glob in DEFAULT_EXCLUDE]
            extend = [(glob, config.root) for glob in config.extend_exclude] + [(g, here) for g in args.extend_exclude]
            respect = args.respect_gitignore if args.respect_gitignore is not None else config.respect_gitignore
            made[config] = Exclusion(base + extend, respect is not False, args.force_exclude)
        return made[config]

    return exclusion_for


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of processes, 1 or more, not {text!r}")
    return value


def settings_for(args: argparse.Namespace, config, path: str | None, profiles: dict | None = None):
    """The ``LintSettings`` of one file: its configuration under the command line's flags; raises
    ``ConfigError``/``ProfileError``. ``profiles`` keeps the cluster profiles read, by path."""
    from slurmspec.settings.resolve import Overrides, load_cluster, resolve_settings

    cache = {} if profiles is None else profiles
    return resolve_settings(config, Overrides.of(args), path, lambda profile: load_cluster(profile, cache))


class _Input(NamedTuple):
    """One input to lint, with the settings that apply to it (or why there is nothing to read)."""

    path: str | None  # None: ``problem`` says why
    shown: str = ""  # the name in the report
    located: str | None = None  # where its configuration (and .shellcheckrc) is looked up
    settings: "LintSettings | None" = None
    problem: str | None = None


def _inputs(args: argparse.Namespace, config_cache) -> list[_Input]:
    """Every input in command-line order, each with its settings.

    Every configuration (and cluster profile) is read here, before the first file is linted: a
    broken one is a usage error with nothing written, not a report cut short. Paths that do not
    exist keep their place in the order, so their errors print as a serial walk would print them.
    """
    settings_cache: dict = {}
    profiles: dict = {}  # cluster profiles by path, read once
    missing: list[str] = []
    found: list[_Input] = []
    from slurmspec.cli.discovery import discover

    for path in discover(args.paths, missing, args.require_sbatch, _exclusions(args, config_cache)):
        found.extend(_Input(None, problem=message) for message in missing)
        missing.clear()
        shown = (args.stdin_filename or "<stdin>") if path == "-" else path
        located = args.stdin_filename if path == "-" else path
        config = config_cache.for_path(located)
        key = (config, config.ignores_for(located))
        if key not in settings_cache:
            settings_cache[key] = settings_for(args, config, located, profiles)
        found.append(_Input(path, shown, located, settings_cache[key]))
    found.extend(_Input(None, problem=message) for message in missing)
    return found


def _lint_input(item: _Input, args: argparse.Namespace) -> tuple:
    """(lines the findings point at, findings, fail-on level, problem) for one input.

    The same function runs in this process and in ``--jobs`` workers; it returns an
    ``Excerpt``, not the ``Script``, so nothing of a file outlives its findings.
    """
    from slurmspec.limits import read_bounded
    from slurmspec.lint.pipeline import lint_source
    from slurmspec.report.excerpt import Excerpt

    if item.path is None:
        return None, (), None, item.problem
    settings = item.settings
    try:
        data = read_bounded(item.path)
    except OSError as exc:
        return None, (), None, f"{item.shown}: cannot read: {exc.strerror or exc}"
    # args.invocation was checked in run(): applying it never raises here.
    script, found = lint_source(data, settings, item.shown, invocation=getattr(args, "invocation", None),
                                shellcheck=settings.shellcheck_for(item.located))
    return Excerpt.of(script, found), found, settings.fail_on, None


def targets_of(inputs: Sequence[_Input]) -> list:
    """Every release the inputs are judged against, once each, in input order (``report/targets.py``)."""
    from slurmspec.report.targets import Target
    from slurmspec.version import format_version

    found = (Target(format_version(i.settings.version), i.settings.version_from) for i in inputs if i.settings)
    return list(dict.fromkeys(found))


def _warn_if_empty(inputs: Sequence[_Input], paths: Sequence[str]) -> None:
    """A run that found nothing to lint says so: a mistyped CI path must not pass as a clean one."""
    if not inputs:
        import sys

        from slurmspec.printable import printable

        where = ", ".join(printable(path) for path in paths)
        sys.stderr.write(f"slurmspec: warning: no batch scripts found in {where}\n")


def _collect_from_here() -> None:
    """Turn the cycle collector back on (``main`` turned it off while the rules loaded).

    What is alive now lives until the end (modules, rules, settings): frozen, the
    collector never walks it again, and forked ``--jobs`` workers do not copy it by touching it.
    """
    import gc

    if not gc.isenabled():
        if gc.get_freeze_count() == 0:  # once: a caller running main() again must not pile up frozen garbage
            gc.freeze()
        gc.enable()


def run(args: argparse.Namespace, out: IO[str]) -> int:
    """Lint; with ``--output-file`` the report is gathered and written whole through ``safe_write``
    (a report cut short by an error still replaces nothing half-way)."""
    if args.output_file is None:
        return _run(args, out)
    import io

    from slurmspec.safe_write import WriteRefused, write_file

    buffer = io.StringIO()
    code = _run(args, buffer)
    try:
        write_file(args.output_file, buffer.getvalue().encode("utf-8", "surrogateescape"))
    except WriteRefused as exc:
        return error(str(exc))
    except OSError as exc:
        return error(f"{args.output_file}: cannot write: {exc.strerror or exc}")
    return code


def _run(args: argparse.Namespace, out: IO[str]) -> int:
    from slurmspec.cluster.errors import ProfileError
    from slurmspec.settings.config import ConfigError

    if args.unsafe_fixes and not (args.fix or args.diff):
        return error("--unsafe-fixes needs --fix or --diff")
    if args.show_fixes and not (args.fix or args.diff):
        return error("--show-fixes needs --fix or --diff")
    if args.fix and args.diff:
        return error("--fix writes the files and --diff writes nothing: give one of them")
    if args.force_write and not args.fix:
        return error("--force-write needs --fix")
    selectors = [*args.select, *args.extend_select, *args.ignore]
    if selectors:
        from slurmspec.lint.shellcheck import is_shellcheck_selector

        problem = unknown_selectors([s for s in selectors if not is_shellcheck_selector(s)])
        if problem:
            return error(f"--select/--extend-select/--ignore: {problem}")
    try:
        config_cache = configs(args)
        inputs = _inputs(args, config_cache)
    except (ConfigError, ProfileError) as exc:
        return error(str(exc))
    _collect_from_here()
    from slurmspec.invocation.arguments import invocation_of

    args.invocation, problem = invocation_of(args, ((i.settings.version, i.shown) for i in inputs if i.settings))
    if problem is not None:
        return error(problem)
    if args.fix or args.diff:
        from slurmspec.cli.fixing import fix_and_report

        return fix_and_report(inputs, args, out, config_cache)

    from slurmspec.cli.lint_pool import default_jobs, map_in_order
    from slurmspec.cli.lint_results import Verdict, shellcheck_error
    from slurmspec.report import default_format, resolve_color, write_report

    try:  # --format, else the working folder's configuration, else by terminal
        chosen = args.format or config_cache.for_path(None).output_format or default_format(out)
    except ConfigError as exc:
        return error(str(exc))
    shellcheck_failed = shellcheck_error(item.settings for item in inputs)
    # Standard input is read by this process: it never goes to a worker.
    jobs = 1 if any(item.path == "-" for item in inputs) else (args.jobs or default_jobs())
    verdict = Verdict()
    _warn_if_empty(inputs, args.paths)
    from slurmspec.cli.progress import maybe_follow

    results = maybe_follow(map_in_order(partial(_lint_input, args=args), inputs, jobs), len(inputs), out, args.quiet)
    try:
        write_report(chosen, verdict.follow(results), out, color=resolve_color(args.color, out),
                     quiet=args.quiet, statistics=args.statistics, targets=targets_of(inputs),
                     incomplete=lambda: bool(verdict.errors or verdict.internal_error))
    except shellcheck_failed as exc:
        return error(str(exc))
    for message in verdict.errors:
        error(message)
    if verdict.errors or verdict.internal_error:
        return EXIT_ERROR  # an unreadable path, or a rule that failed (SB900): the report is incomplete
    if args.exit_zero:
        return EXIT_OK
    return EXIT_FINDINGS if verdict.failing else EXIT_OK
