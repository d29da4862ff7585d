"""``lint --fix``, ``--unsafe-fixes``, ``--diff`` and ``--show-fixes``: fixing each input, the summary, the report.

Kept apart from ``lint_cmd.py`` so that the plain lint path imports none of it.
Where the fixed text goes: ``--diff`` prints a unified diff and writes nothing;
``--fix`` on a file replaces it atomically (``slurmspec/fix/write.py``), or
refuses to when that would override one of its protections (read-only, hard
links, owner, attributes, not a regular file: ``slurmspec/safe_write.py``);
``--force-write`` writes into such a file in place instead. A file not
written is reported as it is on disk and is not counted as fixed.
``--fix`` on standard input prints the fixed script on standard output, so
the findings go to standard error.
"""

from __future__ import annotations

import argparse
import sys
from typing import IO, TYPE_CHECKING

from slurmspec.kinds import Applicability

if TYPE_CHECKING:  # pragma: no cover - the fix machinery loads only when --fix/--diff is given
    from slurmspec.fix.loop import FixOutcome


def add_arguments(lint: argparse.ArgumentParser) -> None:
    group = lint.add_argument_group("fixing")
    group.add_argument("--fix", action="store_true", help="apply safe fixes to the files (standard input: print the fixed script)")
    group.add_argument("--unsafe-fixes", action="store_true",
                       help="with --fix or --diff, also apply fixes that change what the job asks for")
    group.add_argument("--diff", action="store_true",
                       help="print the fixes as a unified diff and write nothing (exit 1 when there is a change)")
    group.add_argument("--show-fixes", action="store_true", help="list the fixes that were applied (on standard error)")
    group.add_argument("--force-write", action="store_true",
                       help="with --fix, write into a read-only, hard-linked or other-owned file in place (same"
                            " file: every link, the owner and attributes stay; not atomic) instead of refusing it")


def wanted(args: argparse.Namespace) -> bool:
    return args.fix or args.diff


def fix_input(data: bytes, shown: str, settings, args: argparse.Namespace) -> "FixOutcome":
    from slurmspec.fix.loop import fix_text
    from slurmspec.lint.pipeline import fix_round_linter
    from slurmspec.parser.script import decode

    return fix_text(decode(data)[0], fix_round_linter(settings, shown), unsafe=args.unsafe_fixes)


def _as_on_disk(outcome: "FixOutcome", shown: str, settings, args: argparse.Namespace) -> "FixOutcome":
    """The outcome for a file the fixes could not be written to: nothing applied, its own findings remain."""
    import attrs

    from slurmspec.lint.pipeline import fix_round_linter

    found = fix_round_linter(settings, shown)(outcome.original)[1]
    return attrs.evolve(outcome, text=outcome.original, applied=(), diagnostics=tuple(found), revealed=(), steps=())


def _write_bytes(out: IO[str], text: str) -> None:
    """``text`` as the file's own bytes, as ``git diff`` and ``cat`` print them: a byte that is not
    UTF-8 (a lone surrogate here) goes out as it was read, where the text stream would refuse it."""
    if not hasattr(out, "buffer"):
        out.write(text)
        return
    out.flush()
    out.buffer.write(text.encode("utf-8", "surrogateescape"))
    out.buffer.flush()


def deliver(path: str, shown: str, data: bytes, outcome: "FixOutcome", args: argparse.Namespace,
            out: IO[str], errors: list[str]) -> bool:
    """Write, print or diff the outcome of fixing one input; problems go to ``errors``.

    False when the fixed text was to be written to the file and was not.
    """
    if outcome.failure:
        errors.append(f"{shown}: not fixed, the file is left as it was: {outcome.failure}. Fix the"
                      " new finding by hand first; if the fix itself is wrong, please report it"
                      " (`--ignore` the rule meanwhile)")
    new = outcome.text.encode("utf-8", "surrogateescape")
    if args.diff:
        from slurmspec.fix.diff import unified_diff

        _write_bytes(out, unified_diff(outcome.original, outcome.text, shown))
        return True
    if path == "-":
        _write_bytes(out, outcome.text)
        return True
    if not outcome.changed:
        return True
    from slurmspec.fix.write import WriteRefused, write_fixed

    try:
        write_fixed(path, new, data, in_place=args.force_write)
    except WriteRefused as exc:
        errors.append(f"{exc}{'; --force-write writes into it in place' if exc.forcible else ''}")
    except OSError as exc:
        errors.append(f"{shown}: cannot write: {exc.strerror or exc}")
    else:
        return True
    return False


def summarize(outcomes: list[tuple[str, "FixOutcome"]], args: argparse.Namespace, err: IO[str]) -> None:
    from slurmspec.printable import printable  # names and titles quote the user's text

    fixed = sum(len(o.applied) for _, o in outcomes)
    files = sum(1 for _, o in outcomes if o.changed)
    verb = "Would fix" if args.diff else "Fixed"
    if args.show_fixes:
        for shown, outcome in outcomes:
            if outcome.applied:
                err.write(f"{printable(shown)}:\n")
                for item in outcome.applied:
                    err.write(f"    {item.code} ({item.name}): {printable(item.title)}\n")
    for shown, outcome in outcomes:
        for found in outcome.revealed:  # reported with the rest; said here because a fix made them count
            err.write(f"{printable(shown)}:{found.span.line}: the fixes made sbatch read this line, and it has a"
                      f" problem of its own: {found.code} ({found.name})\n")
    remaining = sum(len(o.diagnostics) for _, o in outcomes)
    err.write(f"{verb} {fixed} finding{'s' if fixed != 1 else ''} in {files} file{'s' if files != 1 else ''}"
              f"; {remaining} remain{'s' if remaining == 1 else ''}.\n")
    if not args.unsafe_fixes:
        unsafe = sum(1 for _, o in outcomes for d in o.diagnostics
                     if d.fix is not None and d.fix.applicability is Applicability.UNSAFE)
        if unsafe:
            err.write(f"{unsafe} more can be fixed with --unsafe-fixes (review the change: see --diff).\n")


def fix_and_report(inputs: list, args: argparse.Namespace, out: IO[str], config_cache) -> int:
    """``lint --fix`` and ``--diff`` over the inputs ``lint_cmd`` resolved: one file at a time, in
    this process (they write files and diffs in order), then the summary and the report."""
    from slurmspec.cli.common import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, error
    from slurmspec.cli.lint_results import Verdict, shellcheck_error
    from slurmspec.settings.config import ConfigError
    from slurmspec.limits import NotAFile, beyond_limits, read_bounded, read_regular
    from slurmspec.lint.pipeline import lint_script_with, lint_source
    from slurmspec.parser.script import parse_script
    from slurmspec.report import default_format, resolve_color, write_report

    shellcheck_failed = shellcheck_error(item.settings for item in inputs)
    results, fixed, errors = [], [], []
    for item in inputs:
        if item.path is None or item.settings is None:
            errors.append(item.problem)
            continue
        path, shown, settings = item.path, item.shown, item.settings
        try:
            # --fix rewrites files: a FIFO or device is refused before it is read (or waited on).
            data = read_regular(path) if args.fix and path != "-" else read_bounded(path)
        except NotAFile as exc:
            errors.append(f"{shown}: not fixed: it is {exc}")
            continue
        except OSError as exc:
            errors.append(f"{shown}: cannot read: {exc.strerror or exc}")
            continue
        if beyond_limits(data) is not None:  # over 4 MiB or what is analysed: never fixed
            results.append((*lint_source(data, settings, shown), settings.fail_on, None))
            continue
        shellcheck = settings.shellcheck_for(item.located)
        try:
            outcome = fix_input(data, shown, settings, args)
            if not deliver(path, shown, data, outcome, args, out, errors):
                outcome = _as_on_disk(outcome, shown, settings, args)
            fixed.append((shown, outcome))
            script, found = parse_script(outcome.text, shown, settings.version), list(outcome.diagnostics)
            if shellcheck is not None:  # the fix rounds run without it: once, on the final text
                found = lint_script_with(script, settings, shellcheck=shellcheck).diagnostics
        except shellcheck_failed as exc:
            return error(str(exc))
        results.append((script, found, settings.fail_on, None))

    summarize(fixed, args, sys.stderr)
    verdict = Verdict()
    reported = list(verdict.follow(results))
    if not args.diff:
        # Fixing standard input puts the script on standard output: the findings go to standard error.
        stream = sys.stderr if "-" in args.paths else out
        try:  # --format, else the working folder's configuration, else by terminal
            chosen = args.format or config_cache.for_path(None).output_format or default_format(stream)
        except ConfigError as exc:
            return error(str(exc))
        from slurmspec.cli.lint_cmd import targets_of

        write_report(chosen, reported, stream, color=resolve_color(args.color, stream),
                     quiet=args.quiet, statistics=args.statistics, targets=targets_of(inputs),
                     incomplete=lambda: bool(errors or verdict.internal_error))
    for message in errors:
        error(message)
    if errors or verdict.internal_error:
        return EXIT_ERROR  # an unreadable path, or a rule that failed (SB900): the report is incomplete
    if args.diff:
        return EXIT_FINDINGS if any(outcome.changed for _, outcome in fixed) else EXIT_OK
    if args.exit_zero:
        return EXIT_OK
    return EXIT_FINDINGS if verdict.failing else EXIT_OK
