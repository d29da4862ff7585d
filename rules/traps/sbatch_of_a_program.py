"""SB254: `sbatch python train.py` in a batch script: sbatch takes `python` for the script.

sbatch's first argument that is not an option is the batch script's path and
the rest are the script's arguments (`man sbatch`, SYNOPSIS); sbatch looks a
bare name up on PATH, so it opens the interpreter's binary and refuses it
(22.05 and 24.11: "This does not look like a batch script. The first line must
start with #!"; ``tests/rules/test_recall_on_slurm.py``). The next job of a pipeline is never
submitted. `sbatch --wrap "python train.py"` is what submits a command.
"""

from __future__ import annotations

import os

from slurmspec.body.commands import split_commands
from slurmspec.kinds import ArgKind, Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.lazy_regex import lazy_compile
from slurmspec.model.catalogue.options import by_long_name, by_short_name

# Programs nobody keeps as a batch script: interpreters and launchers.
_PROGRAMS = lazy_compile(r"(python[\d.]*|pypy3?|Rscript|R|julia|perl|ruby|java|node|srun|mpirun|mpiexec|torchrun"
                       r"|accelerate|deepspeed|apptainer|singularity|conda|uv)$")


@rule("SB254", "sbatch-of-a-program", Severity.WARNING, Outcome.WRONG)
def sbatch_of_a_program(ctx: Context) -> None:
    """
        ## What it does
        Finds `sbatch` run in the script with a program where the batch script belongs:
        `sbatch python train.py`, `sbatch srun ./app`.

        ## Why is this bad?
        sbatch takes its first argument that is not an option as the path of a batch script:
        it finds `python` on PATH, opens the interpreter's binary and refuses it ("This does
        not look like a batch script"), so the job is never submitted. To submit a command,
        wrap it.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --time=10
        python prepare.py
        sbatch -p gpu python train.py
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --time=10
        python prepare.py
        sbatch -p gpu --wrap "python train.py"
        ```

        ## Slurm versions
        All (measured on 22.05 and 24.11).

        ## References
        - `man sbatch`, SYNOPSIS (`sbatch [OPTIONS...] executable [args...]`) and `--wrap`
    """
    script = ctx.script
    heads = script.body.heads
    if heads is None:
        return
    for start, end, name in zip(heads.starts, heads.ends, heads.names):
        if os.path.basename(name) != "sbatch":
            continue
        for command in split_commands(script.source[start:end], start):
            if not command.words or os.path.basename(command.words[0].value) != "sbatch":
                continue
            word = _script_word(command.words[1:])
            if word is None or not _PROGRAMS.match(os.path.basename(word.value)):
                continue
            _report(ctx, word)


def _report(ctx: Context, word) -> None:
    program = word.value
    ctx.report(
        "SB254", ctx.script.span(word.start, word.end),
        f"sbatch takes `{program}` for the path of a batch script: it opens the program's binary"
        f" (found on PATH) and refuses it (\"This does not look like a batch script\"), so nothing is"
        f" submitted. Write `sbatch ... --wrap \"{program} ...\"`",
    )


def _script_word(words) -> object | None:
    """sbatch's first argument that is not an option (or an option's value); None when unsure."""
    longs, shorts = by_long_name(), by_short_name()
    skip = False
    for shell_word in words:
        word = shell_word.value
        if skip:
            skip = False
            continue
        # An option's own value may be anything (`--dependency=afterok:$JOB`, `-dafterok:$JOB`); an
        # expansion anywhere else may be several words, the script's among them: not known here.
        head = word.split("=", 1)[0] if word.startswith("--") else word[:2] if word.startswith("-") else word
        if "$" in head or "`" in head:
            return None
        if word == "--wrap" or word.startswith("--wrap="):
            return None
        if word.startswith("--"):
            spec = longs.get(word[2:].split("=", 1)[0])
            if spec is None:
                return None  # an abbreviation or an unknown option: leave it
            skip = "=" not in word and spec.argument is ArgKind.REQUIRED
        elif word.startswith("-") and len(word) > 1:
            for index, letter in enumerate(word[1:], 1):
                spec = shorts.get(letter)
                if spec is None:
                    return None
                if spec.argument is not ArgKind.NONE:
                    skip = index == len(word) - 1 and spec.argument is ArgKind.REQUIRED
                    break
        else:
            return shell_word
    return None
