"""SB220: text after the interpreter on the `#!` line that the interpreter cannot take.

slurmstepd starts the batch script with ``execve()`` (``src/slurmd/slurmstepd/task.c``,
``exec_task()``), so the Linux kernel reads the `#!` line: everything after the
interpreter path is passed to it as **one** argument, comments included. How the
line is split comes from ``slurmspec.model.job.interpreter``.
"""

from __future__ import annotations

from slurmspec.fix.build import replace
from slurmspec.fix.edit import Fix
from slurmspec.kinds import Fixability, Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.job.interpreter import Interpreter, interpreter

# Shells whose reaction was checked on Linux: a blank inside their one option word is an invalid
# option (bash 5.2: "- : invalid option"; dash: "Illegal option - "), a word not starting with
# `-`/`+` is the script file to run.
_SHELLS = frozenset({"bash", "sh", "dash"})
_BLANKS = " \t"
_VALUED = frozenset("oOc")  # bash/sh options whose value is the next word: `-o pipefail` cannot be merged


@rule("SB220", "shebang-single-argument", Severity.WARNING, Outcome.FAILS, fix=Fixability.SOMETIMES)
def shebang_single_argument(ctx: Context) -> None:
    """
        ## What it does
        Finds text after the interpreter on the `#!` line that the interpreter cannot take as
        its one argument: a comment (`#!/bin/bash   # Interpreter`), several options for `bash`
        or `sh` (`#!/bin/bash -e -x`), a word that is not an option (`#!/bin/bash foo`), or a
        program with arguments after `/usr/bin/env` without `-S` (`#!/usr/bin/env bash -l`).
        One option (`#!/bin/bash -l`), `#!/usr/bin/env bash` and `#!/usr/bin/env -S bash -l`
        (env splits the words itself and drops a `#` comment) are fine. For interpreters other
        than `bash`, `sh`, `dash` and `env` only a comment is reported.

        ## Why is this bad?
        slurmstepd runs the batch script with `execve()`, and on Linux the kernel passes
        everything after the interpreter path to it as a single argument, blanks and `#`
        included: the `#!` line has no comments. With `#!/bin/bash   # Interpreter` bash is
        started as `/bin/bash '# Interpreter' script`, looks for a file named `# Interpreter`,
        and the job ends at once with exit code 127 (`/bin/bash: # Interpreter: No such file or
        directory` in the output file); `#!/bin/bash -e -x` ends with `invalid option`.

        ## Example
        ```sbatch
        #!/bin/bash   # Interpreter
        #SBATCH --time=10
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        # Interpreter
        #SBATCH --time=10
        srun ./app
        ```

        Several options: `#!/bin/bash -ex`, or one option on the `#!` line and `set -o pipefail`
        in the script; through env: `#!/usr/bin/env -S bash -l`. The fix removes a comment.

        ## Slurm versions
        All: the kernel, not Slurm, reads the `#!` line.

        ## References
        - Linux `execve(2)`, "Interpreter scripts": `#!interpreter [optional-arg]`; "the entire
          string following the interpreter name is passed as a single argument"
        - `man sbatch`, DESCRIPTION (the script starts with `#!` and the interpreter's path)
        - `src/slurmd/slurmstepd/task.c`, `exec_task()`; GNU coreutils `env(1)`, `-S`
    """
    found = interpreter(ctx.script)
    if found is None or found.argument is None or found.split:
        return
    argument = found.argument
    assert found.argument_span is not None
    start, end = found.argument_span.start, found.argument_span.end
    core, comment = argument, ""
    if found.comment is not None:
        core, comment = argument[:found.comment].rstrip(_BLANKS), argument[found.comment:]
    trouble = _trouble(found, core)
    if trouble is None and comment:
        cut = start + len(core) if core else found.path_span.end
        line = ctx.script.shebang
        end = line.span.start + len(line.text.removesuffix("\r"))  # trailing blanks go too
        ctx.report(
            "SB220", ctx.script.span(start + found.comment, end),
            f"`{comment}` on the `#!` line is not a comment: the kernel passes everything after"
            f" `{found.path}` to it as one argument, so {_consequence(found, argument)}. Remove it"
            " (a comment can go on the next line)",
            fix=Fix(title="Remove the comment from the `#!` line", edits=[replace(ctx.script, cut, end, "")]),
        )
    elif trouble is not None:
        advice = (f"Remove `{comment}` (the `#!` line has no comments), then {trouble}" if comment
                  else trouble[0].upper() + trouble[1:])
        ctx.report("SB220", found.argument_span,
                   f"`{argument}` reaches `{found.path}` as one argument (the kernel does not split the"
                   f" `#!` line), so {_consequence(found, argument)}. {advice}")


def _trouble(found: Interpreter, argument: str) -> str | None:
    """What to write instead when ``argument`` (no comment) is not one the interpreter takes, else None."""
    if not argument:
        return None
    words = argument.split()
    if found.via_env:
        if len(words) < 2:
            return None
        instead = f"write `#!{found.path} -S {argument}` (env then splits the words)"
        if words[0] in _SHELLS:
            instead += f", or the shell's own path (`#!/bin/{words[0]} {' '.join(words[1:])}`)"
        return instead
    if found.name not in _SHELLS:
        return None
    if not argument.startswith(("-", "+")):
        return f"remove `{argument}`: the script itself is what `{found.name}` should run"
    if len(words) < 2:
        return None
    if all(w.startswith("-") and w[1:].isalpha() and not _VALUED & set(w[1:]) for w in words):
        merged = "-" + "".join(w[1:] for w in words)
        return f"write the options as one word: `#!{found.path} {merged}`"
    return ("keep at most one option word on the `#!` line and set the others in the script"
            " (`set -o pipefail`, `set -x`)")


def _consequence(found: Interpreter, argument: str) -> str:
    name = found.name
    fails = "the job fails at start"
    missing = f"{fails} (exit 127, `No such file or directory`)"
    if found.via_env and argument.startswith("-"):
        return f"`env` reads `{argument}` as options and stops at the blank: {fails}"
    if found.via_env:
        return f"`env` looks for a program named `{argument}`: {missing}"
    if name in _SHELLS and not argument.startswith(("-", "+")):
        return f"{name} takes `{argument}` for the script file to run: {missing}"
    if name in _SHELLS:
        return f"{name} reads `{argument}` as one option word and stops at the blank (`invalid option`): {fails}"
    return (f"`{name}` gets `{argument}` as an extra argument, which most interpreters take for the file"
            f" to run: {fails}")
