"""SB230–SB232, SB255: `--output`/`--error`/`--input` and `--chdir` folders that do not exist.

sbatch accepts any string for these options; slurmstepd opens the files (and
changes into `--chdir`) on the compute node when the job starts. A missing
folder shows only then: up to 22.05 the job fails at start with no log to say
why (`src/slurmd/slurmstepd/io.c`, "Could not open stdout file"; 23.02 creates
stdout/stderr folders, commit ecc671a), a missing `--input` folder fails on
every release, and a missing `--chdir` sends the job to `/tmp`
(`src/slurmd/slurmstepd/mgr.c`, "couldn't chdir to ...: going to /tmp instead").

Where each name lands (patterns expanded as far as the script allows, relative
names resolved through ``ctx.fs``) comes from ``slurmspec.model.job.logs``. One
checker reports the four codes: SB230 where the job fails (up to 22.05), SB255
where Slurm creates the folder (23.02 and newer: only a reminder, opt-in advice).
"""

from __future__ import annotations

import os
import re

from slurmspec.gates import CREATES_LOG_DIRS
from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.job.logs import (
    LogFile, absolute_missing, folder_missing, log_files, shell_free, submit_dirs,
)
from slurmspec.rules.traps._header import show

_SHELL_CHARS = ("$", "~", "`", "\\")
_FRESH_NAMES = {"j": "job id", "J": "job id and step id", "A": "array job id", "S": "SLUID"}


@rule("SB230", "output-directory-missing", Severity.ERROR, Outcome.FAILS)
def output_directory_missing(ctx: Context) -> None:
    """
        ## What it does
        Finds `--output` and `--error` file names whose directory does not exist. Relative names
        are resolved against `--chdir` when it is given, otherwise against the submit directory.
        The linter cannot know where you will run `sbatch`, so it stands in the folder of the
        script file and its own working directory (standard input: the working directory only)
        and reports only when the directory exists in neither. Patterns are expanded as far as the
        script allows: `%x` is the `--job-name` (without one, `sbatch -J` may name the job, so a
        folder holding `%x` is then not judged) and `%%` a percent sign; in
        `logs/%u/%j.out` only `logs` is checked, since the user name is not known here. A folder
        named after the job itself (`run_%j/out.log`, also `%A`, `%J`, `%S`) is reported wherever
        it is: it cannot exist before the job starts. Names whose directory part holds `$`, `~`
        or a backslash are not checked; nor are absolute paths whose parent folder is missing too
        (the linter is then most likely not running on the cluster).

        ## Why is this bad?
        Up to Slurm 22.05 slurmstepd does not create the directory: opening the file fails, the
        job ends at once with an I/O setup error, and there is no log file to say why (the reason
        is only in the slurmd log). From 23.02 slurmstepd creates the missing directories
        (`mkdir -p`, mode 0755), so the job runs: SB255 (opt-in advice) says so there instead.

        ## Example
        ```sbatch 22.05
        #!/bin/bash
        #SBATCH --output=slurm-logs-of-example/%x-%j.out
        srun ./app
        ```

        ## Use instead
        ```sbatch 22.05
        #!/bin/bash
        #SBATCH --output=%x-%j.out
        srun ./app
        ```

        Or run `mkdir -p slurm-logs-of-example` before `sbatch`.

        ## Slurm versions
        Up to 22.05: the job fails at start without a log (a real 22.05 job with
        `--output=run_%j/out.log` ends `JobLaunchFailure`). 23.02 and newer create the
        directory when the job starts: not reported here (SB255).

        ## References
        - `man sbatch`, `--output` ("The directory ... must exist" in 22.05)
        - Slurm commit ecc671a, "Allow recursive directory creation for job stderr/stdout files"
        - `src/slurmd/slurmstepd/io.c`; `src/slurmd/common/fname.c`, `fname_create()` (patterns)
    """
    ctx.shared(_check)


@rule("SB255", "log-directory-created-by-slurm", Severity.INFO, Outcome.ADVICE)
def log_directory_created_by_slurm(ctx: Context) -> None:
    """
        ## What it does
        On Slurm 23.02 and newer, finds `--output` and `--error` file names whose directory does
        not exist where the linter runs (found as SB230 finds them), or is named after the job
        (`run_%j/out.log`).

        ## Why is this bad?
        It is not, on these releases: slurmstepd creates the missing directories when the job
        starts (`mkdir -p`, mode 0755). It is a reminder that a misspelt folder name makes a stray
        folder instead of failing, and that the same script fails without a log on 22.05 and
        older (SB230). Opt-in: judged of low value on real scripts.

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

        ## Slurm versions
        23.02 and newer (older releases: SB230).

        ## References
        - Slurm commit ecc671a, "Allow recursive directory creation for job stderr/stdout files"
        - `src/slurmd/slurmstepd/io.c`
    """
    ctx.shared(_check)


@rule("SB231", "input-directory-missing", Severity.ERROR, Outcome.FAILS)
def input_directory_missing(ctx: Context) -> None:
    """
        ## What it does
        Finds an `--input` file name whose directory does not exist (resolved and expanded as for
        SB230), or whose directory is named after the job (`params_%j/input.txt`), which cannot
        exist before the job starts.

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


# --- the checker -------------------------------------------------------------------


def _logs(ctx: Context) -> tuple[LogFile, ...]:
    return log_files(ctx.script, ctx.fs)


def _check(ctx: Context) -> None:
    seen = set()
    for log in ctx.shared(_logs):
        if log.setting is None or id(log.setting.directive) in seen:
            continue
        seen.add(id(log.setting.directive))
        _check_file(ctx, log)
    _check_chdir(ctx)


def _shown(ctx: Context, folder: str) -> str:
    """``folder`` relative to the working folder (``.`` for itself): reports name no machine path."""
    cwd = ctx.fs.cwd()
    if cwd is None or not os.path.isabs(folder):
        return folder
    return os.path.relpath(folder, cwd)


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


def _check_file(ctx: Context, log: LogFile) -> None:
    """SB230/SB231: the folder of one --output/--error/--input name."""
    written = log.written_folder
    if log.null or log.escaped or not written or any(c in written for c in _SHELL_CHARS):
        return
    if log.fresh is not None:
        _report_fresh(ctx, log)
        return
    directory = log.known_folder(trust_script_name=False)
    if not folder_missing(ctx.fs, log.base, directory):
        return
    if os.path.isabs(directory):
        where = "here"
    else:
        base = log.base
        folder = base.dirs[0] if base.absolute else _shown(ctx, base.dirs[0])
        where = (f"here (relative to `--chdir`, `{folder}`)" if base.via_chdir
                 else f"here (relative to `{folder}`, standing in for the submit directory)")
    directive = log.setting.directive
    span = ctx.script.span_in_value(directive, 0, len(written))
    option = "--" + log.stream
    named = f"`{directory}`"
    if directory != written:
        named += (f" (`{written}` with job name `{log.job_name}`)" if directory == log.folder
                  else f" (the start of `{written}`)")
    if log.stream == "input":
        ctx.report(
            "SB231", span,
            f"directory {named} of `{option}` does not exist {where}; the job cannot open"
            f" its standard input and fails at start. Create it, or fix the path in `{show(directive)}`",
        )
        return
    notes = _late_mkdir(ctx, directory)
    if ctx.version < CREATES_LOG_DIRS:
        ctx.report(
            "SB230", span,
            f"directory {named} of `{option}` does not exist {where}; Slurm"
            f" {ctx.version[0]:02d}.{ctx.version[1]:02d} does not create it, so the job fails at"
            f" start without writing any log. Run `mkdir -p {directory}` before `sbatch`",
            notes=notes,
        )
    else:
        ctx.report(
            "SB255", span,
            f"directory {named} of `{option}` does not exist {where}; Slurm"
            f" {_release(CREATES_LOG_DIRS)} and newer create it when the job"
            " starts, so make sure the name is the one you meant",
            notes=notes,
        )


def _release(version) -> str:
    return f"{version[0]:02d}.{version[1]:02d}"


def _report_fresh(ctx: Context, log: LogFile) -> None:
    """A folder named after the job (`run_%j/out.log`): it cannot exist before the job starts."""
    written = log.written_folder
    directive = log.setting.directive
    span = ctx.script.span_in_value(directive, 0, len(written))
    option = "--" + log.stream
    spec = log.fresh
    what = f"directory `{written}` of `{option}` is named after the job (`%{spec}`, the {_FRESH_NAMES[spec]})"
    cut = written.find("%" + spec)
    start = written.rfind("/", 0, cut) + 1
    flat = log.written[:start] + log.written[start:].replace("/", "-")
    instead = f"put the pattern in the file name instead (`{option}={flat}`)"
    if log.stream == "input":
        ctx.report("SB231", span, f"{what}, so it cannot exist before the job starts: the job"
                   " cannot open its standard input and fails at start. Name a file that exists"
                   " before `sbatch` runs")
    elif ctx.version >= CREATES_LOG_DIRS:
        ctx.report(
            "SB255", span,
            f"{what}; Slurm {_release(CREATES_LOG_DIRS)} and newer create it when the job starts,"
            f" but older releases fail the job without a log: if it must run there too, {instead}",
        )
    else:
        ctx.report(
            "SB230", span,
            f"{what}, so it cannot exist before the job starts; Slurm"
            f" {ctx.version[0]:02d}.{ctx.version[1]:02d} does not create it, so the job fails at"
            f" start without writing any log. {instead[0].upper()}{instead[1:]}",
        )


def _check_chdir(ctx: Context) -> None:
    """SB232: a --chdir folder the component sets itself that does not exist."""
    for component in ctx.script.components:
        chdir = component.request.get("chdir")
        if chdir is None or chdir.inherited or chdir.raw is None:
            continue
        value = chdir.raw
        if not value or not shell_free(value):
            continue
        if os.path.isabs(value):
            missing = absolute_missing(ctx.fs, value)
        else:
            submit = submit_dirs(ctx.script, ctx.fs)
            missing = bool(submit) and not any(ctx.fs.isdir(os.path.join(d, value)) for d in submit)
        if missing:
            directive = chdir.directive
            ctx.report(
                "SB232", directive.value_span or directive.span,
                f"`--chdir` directory `{value}` does not exist here; if it is missing on the compute"
                " node too, the job runs in `/tmp` instead and relative paths (including its log"
                " files) land there. Create it or fix the path",
            )
