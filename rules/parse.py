"""SB0xx: directives sbatch cannot read (unknown, ambiguous or malformed options).

Each finding here comes from the parser's ``ParseIssue`` records, which mirror
what glibc ``getopt_long`` and sbatch's ``get_argument()`` do with the words of
the ``#SBATCH`` lines (slurm-semantics.md §5). sbatch refuses the whole script
on the first of them; slurmspec reports every one.
"""

from __future__ import annotations

from slurmspec.rules._legacy import Context, Rule

# ParseIssue.kind -> rule code
_CODES = {
    "unknown-option": "SB001",
    "srun-only-option": "SB002",
    "option-not-in-version": "SB003",
    "ambiguous-option": "SB004",
    "missing-argument": "SB005",
    "unexpected-argument": "SB006",
    "stray-word": "SB007",
    "unmatched-quote": "SB008",
    "leading-colon": "SB009",
    "bad-short-option": "SB010",
}


def check_parse_issues(ctx: Context) -> None:
    for issue in ctx.script.issues:
        if issue.ignored:
            continue  # on a line sbatch never reads; the traps family reports those lines
        fix = _respell(ctx, issue) if issue.kind == "unknown-option" else None
        ctx.report(_CODES[issue.kind], issue.span, issue.message, fix=fix)


def _respell(ctx: Context, issue):
    """SB001 with exactly one did-you-mean candidate: write that option instead (unsafe:
    the closest name is a guess). Not offered when the candidate could not take the
    value as written (a flag given `=value`)."""
    from slurmspec.fix.build import replace
    from slurmspec.fix.edit import Fix
    from slurmspec.model.options import lookup

    if len(issue.candidates) != 1 or not issue.candidates[0].startswith("--"):
        return None
    candidate = issue.candidates[0]
    spec = lookup(candidate[2:])
    written = ctx.script.source[issue.span.start:issue.span.end]
    if spec is None or not written.startswith("--") or "=" in written:
        return None
    follows = ctx.script.source[issue.span.end:issue.span.end + 1]
    if follows == "=" and spec.argument_in(ctx.version) == "NONE":
        return None
    return Fix(title=f"Write `{candidate}` for `{written}`",
               edits=[replace(ctx.script, issue.span.start, issue.span.end, candidate)], applicability="unsafe")


def _rule(code: str, name: str, doc: str) -> Rule:
    return Rule(code, name, "error", check_parse_issues, doc, fixable=code == "SB001")


RULES = (
    _rule("SB001", "unknown-option", """
        ## What it does
        Finds `#SBATCH` options that sbatch does not know, and suggests the closest real option.

        ## Why is this bad?
        sbatch parses every directive with `getopt_long`; an unknown option makes it print
        `unrecognized option` and refuse the whole script, so the job never reaches the queue.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --gpu-per-node=4
        srun python train.py
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --gpus-per-node=4
        srun python train.py
        ```

        ## Slurm versions
        All. Which options exist depends on the target version (`--slurm-version`).

        ## References
        - `man sbatch`, OPTIONS
        - `src/common/slurm_opt.c` (the option table), glibc `getopt_long`
    """),
    _rule("SB002", "srun-only-option", """
        ## What it does
        Finds `#SBATCH` lines that use options only `srun` (or `salloc`) understands, such as
        `--mpi`, `--cpu-bind`, `--exact` or pyxis' `--container-image`.

        ## Why is this bad?
        These options share Slurm's option table with sbatch but have no sbatch handler, so sbatch
        reports `unrecognized option` and refuses the script. They belong on the `srun` line.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=4
        #SBATCH --mpi=pmix
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=4
        srun --mpi=pmix ./app
        ```

        ## Slurm versions
        All (`--cpu-bind` is srun-only in every release up to 26.05).

        ## References
        - `man srun`, `man sbatch`
    """),
    _rule("SB003", "option-not-in-version", """
        ## What it does
        Finds options that exist in some Slurm release but not in the target one: added later
        (`--tres-per-task` 23.02, `--tres-bind` 23.11, `--segment` 24.05, `--oom-kill-step` 24.11,
        `--mem-update` 26.05...) or removed (`--power` in 24.05, `--export-file` in 23.11).

        ## Why is this bad?
        The target cluster's sbatch does not have the option and refuses the script as if it
        were misspelt.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --power=level
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        srun ./app
        ```

        ## Slurm versions
        Depends on the option; set the target with `--slurm-version` (the example assumes 24.05+).

        ## References
        - Slurm `CHANGELOG` / `NEWS` for each release
    """),
    _rule("SB004", "ambiguous-option", """
        ## What it does
        Finds abbreviated long options that match more than one sbatch option, such as `--nod`
        (`--nodefile`, `--nodelist`, `--nodes`).

        ## Why is this bad?
        `getopt_long` accepts unambiguous abbreviations but refuses ambiguous ones
        (`option '--nod=2' is ambiguous`), and sbatch then refuses the script. An abbreviation that
        works today can also turn ambiguous when a later Slurm release adds an option.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --nod=2
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=2
        srun ./app
        ```

        ## Slurm versions
        All; the set of ambiguous prefixes grows as options are added.

        ## References
        - glibc `getopt_long` (abbreviated long options)
    """),
    _rule("SB005", "missing-argument", """
        ## What it does
        Finds options that need a value but have none, for example `--time` at the end of the
        last directive, or `-J ""` (an empty word ends the line for sbatch).

        ## Why is this bad?
        `getopt_long` reports `option requires an argument` and sbatch refuses the script.
        Note that sbatch joins the words of all `#SBATCH` lines, so a value on the *next*
        directive line is taken as the argument.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --time
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --time=01:00:00
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/sbatch/opt.c:get_argument()`, glibc `getopt_long`
    """),
    _rule("SB006", "unexpected-argument", """
        ## What it does
        Finds flags given a value with `=`, such as `--hold=yes` or `--requeue=1`.

        ## Why is this bad?
        `getopt_long` reports `option '--hold' doesn't allow an argument` and sbatch refuses
        the script.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --hold=yes
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --hold
        srun ./app
        ```

        ## Slurm versions
        All. `--requeue` accepts `=expedite` from 25.11; `--get-user-env` takes no value from 25.05.

        ## References
        - `man sbatch`
    """),
    _rule("SB007", "stray-word", """
        ## What it does
        Finds words on `#SBATCH` lines that are not options and not an option's value, such as
        `#SBATCH --time=10 extra`, `#SBATCH --exclusive user` (optional values need `=`), or
        anything after `--`.

        ## Why is this bad?
        sbatch's option parsing stops at the first non-option word and sbatch refuses the script
        with `Invalid directive found in batch script`. Options after the stray word are never read.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --exclusive user
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --exclusive=user
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/sbatch/opt.c:_opt_batch_script()` ("Invalid directive found in batch script")
    """),
    _rule("SB008", "unmatched-quote", """
        ## What it does
        Finds a `'` or `"` on a directive line that is never closed.

        ## Why is this bad?
        sbatch stops with `Unmatched` and refuses the script; quotes cannot continue onto the
        next line.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --job-name="my run
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --job-name="my run"
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/sbatch/opt.c:get_argument()`
    """),
    _rule("SB009", "leading-colon", """
        ## What it does
        Finds directive words that start with `:`, usually an attempt to use the command-line
        hetjob separator inside a script.

        ## Why is this bad?
        sbatch stops with `Unexpected ':'` and refuses the script. Inside a script, hetjob
        components are separated by a `#SBATCH hetjob` line.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH -N 1 : -N 2
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH -N 1
        #SBATCH hetjob
        #SBATCH -N 2
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, HETEROGENEOUS JOB SUPPORT
    """),
    _rule("SB010", "unknown-short-option", """
        ## What it does
        Finds single-letter options sbatch does not have, such as `-g` or `-l`.

        ## Why is this bad?
        `getopt_long` reports `invalid option` and sbatch refuses the script. Several letters
        that srun accepts (`-l`, `-u`, `-K`, `-X`) do not exist for sbatch.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH -g 4
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH -G 4
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`
    """),
)
