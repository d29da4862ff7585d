"""SB230–SB232: `--output`/`--error`/`--input` and `--chdir` folders that do not exist.

sbatch accepts any string for these options; slurmstepd opens the files (and
changes into `--chdir`) on the compute node when the job starts. A missing
folder shows only then: up to 22.05 the job fails at start with no log to say
why (`src/slurmd/slurmstepd/io.c`, "Could not open stdout file"; 23.02 creates
stdout/stderr folders, commit ecc671a), a missing `--input` folder fails on
every release, and a missing `--chdir` sends the job to `/tmp`
(`src/slurmd/slurmstepd/mgr.c`, "couldn't chdir to ...: going to /tmp instead").

Relative names resolve against sbatch's working folder, which the linter cannot
know: it stands in the script's folder and its own working folder (``ctx.fs``),
and reports only when the folder exists in neither. One checker reports the
three codes.
"""

from __future__ import annotations

import os
import re

import attrs

from slurmspec.gates import CREATES_LOG_DIRS
from slurmspec.kinds import Outcome, Severity
from slurmspec.lint.context import Context
from slurmspec.lint.rule import rule
from slurmspec.rules.traps._request_facts import file_settings, show

_SHELL_CHARS = ("$", "~", "`")


@rule("SB230", "output-directory-missing", Severity.ERROR, Outcome.FAILS)
def output_directory_missing(ctx: Context) -> None:
    """
        ## What it does
        Finds `--output` and `--error` file names whose directory does not exist. Relative names
        are resolved against `--chdir` when it is given, otherwise against the submit directory.
        The linter cannot know where you will run `sbatch`, so it stands in the folder of the
        script file and its own working directory (standard input: the working directory only)
        and reports only when the directory exists in neither. Names whose directory part holds a
        `%` pattern, `$`, `~` or a backslash are not checked; nor are absolute paths whose parent
        folder is missing too (the linter is then most likely not running on the cluster).

        ## Why is this bad?
        Up to Slurm 22.05 slurmstepd does not create the directory: opening the file fails, the
        job ends at once with an I/O setup error, and there is no log file to say why (the reason
        is only in the slurmd log). From 23.02 slurmstepd creates the missing directories
        (`mkdir -p`, mode 0755), so the finding is only `info` there: a typo in the name creates
        a stray folder instead of failing.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --output=slurm-logs-of-example/%x-%j.out
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --output=%x-%j.out
        srun ./app
        ```

        Or run `mkdir -p slurm-logs-of-example` before `sbatch`.

        ## Slurm versions
        22.05: `error`, the job fails at start without a log. 23.02 and newer: `info`, the
        directory is created when the job starts.

        ## References
        - `man sbatch`, `--output` ("The directory ... must exist" in 22.05)
        - Slurm commit ecc671a, "Allow recursive directory creation for job stderr/stdout files"
        - `src/slurmd/slurmstepd/io.c`
    """
    ctx.shared(_check)


@rule("SB231", "input-directory-missing", Severity.ERROR, Outcome.FAILS)
def input_directory_missing(ctx: Context) -> None:
    """
        ## What it does
        Finds an `--input` file name whose directory does not exist (resolved as for SB230).

        ## Why is this bad?
        slurmstepd never creates anything for standard input: the file cannot be opened and the
        batch step fails at start.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --input=inputs-of-example/params.txt
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --input=params.txt
        srun ./app
        ```

        ## Slurm versions
        All (the 23.02 directory creation covers `--output` and `--error` only).

        ## References
        - `man sbatch`, `--input`
    """
    ctx.shared(_check)


@rule("SB232", "chdir-missing", Severity.WARNING, Outcome.WRONG)
def chdir_missing(ctx: Context) -> None:
    """
        ## What it does
        Finds a `--chdir` directory that does not exist on the machine where the linter runs
        (relative values are resolved like output files, see SB230). Absolute paths whose parent
        is missing too are not reported: the linter is then most likely not on the cluster.

        ## Why is this bad?
        When slurmstepd cannot change into the directory it logs `couldn't chdir to ...: going to
        /tmp instead` and runs the script in `/tmp` of the compute node: relative paths, including
        the output files, end up there and vanish with the node's `/tmp`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --chdir=project-of-example/run1
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --chdir=/tmp
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--chdir`
        - `src/slurmd/slurmstepd/mgr.c`
    """
    ctx.shared(_check)


# --- where relative paths resolve --------------------------------------------------


def _submit_dirs(ctx: Context) -> list[str]:
    """Folders that stand in for sbatch's working folder, best first (absolute paths).

    The folder of the script file is the usual one; the linter's own working
    folder is the other (``sbatch jobs/train.sbatch`` from the project root).
    For standard input only the working folder is left.
    """
    dirs: list[str] = []
    path = ctx.script.path
    cwd = ctx.fs.cwd()
    if path and ctx.fs.isfile(path):
        if not os.path.isabs(path) and cwd is None:
            return dirs
        dirs.append(os.path.dirname(os.path.normpath(os.path.join(cwd or "", path))))
    if cwd is None:
        return dirs
    if cwd not in dirs:
        dirs.append(cwd)
    return dirs


def _shown(ctx: Context, folder: str) -> str:
    """``folder`` relative to the working folder (``.`` for itself): reports name no machine path."""
    cwd = ctx.fs.cwd()
    if cwd is None or not os.path.isabs(folder):
        return folder
    return os.path.relpath(folder, cwd)


def _shell_free(text: str) -> bool:
    return not any(c in text for c in _SHELL_CHARS) and "%" not in text and "\\" not in text


def _absolute_missing(ctx: Context, directory: str) -> bool:
    """True when absolute ``directory`` is missing but its parent exists here.

    When more than the last component is missing (``/scratch/alice/logs`` on a
    laptop) the linter is most likely not running on the cluster's file
    system, so saying "missing" would be noise.
    """
    directory = os.path.normpath(directory)
    if ctx.fs.isdir(directory):
        return False
    parent = os.path.dirname(directory)
    return parent not in ("/", "", directory) and ctx.fs.isdir(parent)


@attrs.frozen
class _Base:
    """Where a component's relative file names resolve: folders that exist here."""

    dirs: tuple[str, ...]  # candidate folders (all exist here)
    via_chdir: bool
    known: bool  # False: --chdir cannot be resolved here, so nothing relative is checked
    absolute: bool = False  # --chdir is an absolute path (shown as written)


def _component_base(ctx: Context, component) -> _Base:
    submit = tuple(_submit_dirs(ctx))
    chdir = component.request.get("chdir")
    if chdir is None or not isinstance(chdir.raw, str):
        return _Base(submit, False, bool(submit))
    value = chdir.raw
    if not value or not _shell_free(value):
        return _Base((), True, False)
    if os.path.isabs(value):
        return _Base((value,), True, ctx.fs.isdir(value), absolute=True)
    found = tuple(os.path.join(d, value) for d in submit if ctx.fs.isdir(os.path.join(d, value)))
    return _Base(found, True, bool(found))


def _late_mkdir(ctx: Context, directory: str) -> tuple[str, ...]:
    """A note when the body itself creates ``directory``: too late for the job's own log."""
    name = re.escape(directory.rstrip("/").removeprefix("./"))
    if not name:
        return ()
    found = re.search(r"^[ \t]*mkdir\b[^\n]*?(?<![\w/.-])(\./)?" + name + r"/?(?![\w/.-])",
                      ctx.script.source[ctx.script.header_end:], re.M)
    if found is None:
        return ()
    line = ctx.script.index.line_col(ctx.script.header_end + found.start())[0]
    return (f"the `mkdir` on line {line} runs too late: slurmstepd opens the log file before"
            " the script starts",)


# --- the checker -------------------------------------------------------------------


def _check(ctx: Context) -> None:
    for component, setting in file_settings(ctx):
        _check_file(ctx, component, setting)
    _check_chdir(ctx)


def _check_file(ctx: Context, component, setting) -> None:
    """SB230/SB231: the folder of one --output/--error/--input name."""
    pattern = setting.value
    text = getattr(pattern, "text", None)
    if not isinstance(text, str) or getattr(pattern, "is_none", True) or getattr(pattern, "escaped", True):
        return
    directory = os.path.dirname(text)
    if not directory or not _shell_free(directory):
        return
    directive = setting.directive
    if os.path.isabs(directory):
        if not _absolute_missing(ctx, directory):
            return
        where = "here"
    else:
        base = _component_base(ctx, component)
        if not base.known or not base.dirs:
            return
        if any(ctx.fs.isdir(os.path.join(d, directory)) for d in base.dirs):
            return
        folder = base.dirs[0] if base.absolute else _shown(ctx, base.dirs[0])
        where = (f"here (relative to `--chdir`, `{folder}`)" if base.via_chdir
                 else f"here (relative to `{folder}`, standing in for the submit directory)")
    span = ctx.script.span_in_value(directive, 0, len(directory))
    option = "--" + setting.name
    if setting.name == "input":
        ctx.report(
            "SB231", span,
            f"directory `{directory}` of `{option}` does not exist {where}; the job cannot open"
            f" its standard input and fails at start. Create it, or fix the path in `{show(directive)}`",
        )
        return
    notes = _late_mkdir(ctx, directory)
    if ctx.version < CREATES_LOG_DIRS:
        ctx.report(
            "SB230", span,
            f"directory `{directory}` of `{option}` does not exist {where}; Slurm"
            f" {ctx.version[0]:02d}.{ctx.version[1]:02d} does not create it, so the job fails at"
            f" start without writing any log. Run `mkdir -p {directory}` before `sbatch`",
            notes=notes,
        )
    else:
        ctx.report(
            "SB230", span,
            f"directory `{directory}` of `{option}` does not exist {where}; Slurm"
            f" {CREATES_LOG_DIRS[0]:02d}.{CREATES_LOG_DIRS[1]:02d} and newer create it when the job"
            " starts, so make sure the name is the one you meant",
            severity=Severity.INFO, outcome=Outcome.ADVICE, notes=notes,
        )


def _check_chdir(ctx: Context) -> None:
    """SB232: a --chdir folder the component sets itself that does not exist."""
    for component in ctx.script.components:
        chdir = component.request.get("chdir")
        if chdir is None or chdir.inherited or not isinstance(chdir.raw, str):
            continue
        value = chdir.raw
        if not value or not _shell_free(value):
            continue
        if os.path.isabs(value):
            missing = _absolute_missing(ctx, value)
        else:
            submit = _submit_dirs(ctx)
            missing = bool(submit) and not any(ctx.fs.isdir(os.path.join(d, value)) for d in submit)
        if missing:
            directive = chdir.directive
            ctx.report(
                "SB232", directive.value_span or directive.span,
                f"`--chdir` directory `{value}` does not exist here; if it is missing on the compute"
                " node too, the job runs in `/tmp` instead and relative paths (including its log"
                " files) land there. Create it or fix the path",
            )
