"""SB321: `$SLURM_NTASKS` expanded in a job that asks for no task count.

sbatch exports `SLURM_NTASKS` only when the job has a task count: `--ntasks`, or
one it derives from the other task options (`man sbatch`, OUTPUT ENVIRONMENT
VARIABLES; `src/sbatch/opt.c:_opt_verify()`); a plain `-N 2 --gres=gpu:4` job
has none.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.lazy_regex import lazy_compile
from slurmspec.model.views.launch_steps import assigns
from slurmspec.kinds import LineKind, Outcome, Severity

_REF = lazy_compile(r"(?<!\\)\$(?:\{(SLURM_[A-Z_]+)(\}|[^}A-Z_])|(SLURM_[A-Z_]+)\b)")
_TASK_OPTIONS = ("ntasks", "ntasks-per-node", "extra-node-info", "sockets-per-node", "cores-per-socket",
                 "threads-per-core", "ntasks-per-gpu", "ntasks-per-socket", "ntasks-per-core")


@rule("SB321", "slurm-ntasks-unset", Severity.WARNING, Outcome.FAILS)
def slurm_ntasks_unset(ctx: Context) -> None:
    """
    ## What it does
    Finds `$SLURM_NTASKS` or `$SLURM_NPROCS` expanded by the batch script when the job
    asks for no task count: no `-n`, `--ntasks-per-node`, `-B`/`--sockets-per-node`/
    `--cores-per-socket`/`--threads-per-core`, `--ntasks-per-gpu`/`-socket`/`-core`, or
    `--gpus` with `--gpus-per-task`. References with a default (`${SLURM_NTASKS:-1}`),
    inside single quotes (they expand in the step, where Slurm sets them), tested with
    `-z`/`-n`, or assigned by the script are skipped, as are hetjobs. The other `SLURM_*`
    variables that depend on an option are checked by SB249 (unset-slurm-variable).

    ## Why is this bad?
    Slurm exports `SLURM_NTASKS` only when a task count was given or derived; for a plain
    `-N 2 --gres=gpu:4` job it is unset. `srun -n $SLURM_NTASKS` then loses its argument
    (srun reads the next word as the task count), and `mpirun -np $SLURM_NTASKS` fails.
    A `-n` given on the `sbatch` command line would set it; the script cannot rely on that.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --nodes=2
    #SBATCH --time=01:00:00
    mpirun -np $SLURM_NTASKS ./solver
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --nodes=2
    #SBATCH --ntasks-per-node=32
    #SBATCH --time=01:00:00
    mpirun -np $SLURM_NTASKS ./solver
    ```

    ## Slurm versions
    All.

    ## References
    - `man sbatch`, OUTPUT ENVIRONMENT VARIABLES (`SLURM_NTASKS`, `SLURM_NPROCS`)
    - `src/sbatch/opt.c:_opt_verify()` (22.05.8): the task counts sbatch derives
    """
    script = ctx.script
    if len(script.components) != 1 or not script.directives:
        return
    request = script.components[0].request
    seen: set[str] = set()
    for line in script.lines:
        if line.kind is not LineKind.COMMAND or line.span.start < script.header_end or "SLURM_" not in line.text:
            continue
        text = line.text
        masked = _single_quoted(text)
        masked_starts = [a for a, _ in masked]  # in order, not overlapping: one bisection per reference
        tested: dict[str, bool] = {}
        for m in _REF.finditer(text):
            name = m.group(1) or m.group(3)
            if name in seen:
                continue
            i = bisect_right(masked_starts, m.start()) - 1
            if i >= 0 and m.start() < masked[i][1]:
                continue
            if m.group(2) is not None and m.group(2) != "}":
                continue  # ${VAR:-default} and friends
            reason = _unset_reason(name, request)
            if reason is None or assigns(ctx, name):
                continue
            if name not in tested:  # once per name and line: a long line may repeat the reference
                tested[name] = re.search(r"(?:\[\[?|\btest)\s+(?:!\s+)?-[zn]\s+\"?\$\{?" + name, text) is not None
            if tested[name]:
                continue  # the script tests whether it is set
            seen.add(name)
            why, fix = reason
            start = line.span.start + m.start()
            ctx.report(
                "SB321", script.span(start, start + len(m.group(0))),
                f"`${name}` {why}, so here it expands to an empty string; {fix}",
            )


def _unset_reason(name: str, request) -> tuple[str, str] | None:
    """(why it is unset, what to do) for a variable the request leaves unset, else None."""
    has = request.has
    if name in ("SLURM_NTASKS", "SLURM_NPROCS"):
        if any(has(o) for o in _TASK_OPTIONS) or (has("gpus-per-task") and has("gpus")):
            return None
        return ("is only set when the job asks for a task count (`-n`/`--ntasks-per-node`)",
                "add `#SBATCH --ntasks=N` or use `$SLURM_JOB_NUM_NODES`")
    return None


def _single_quoted(text: str) -> list[tuple[int, int]]:
    """Ranges of ``text`` inside single quotes (outside double quotes), and comments."""
    out, i, n, dq = [], 0, len(text), False
    while i < n:
        c = text[i]
        if c == "\\":  # an escaped character, inside double quotes or not
            i += 2
            continue
        if c == '"':
            dq = not dq
        elif c == "'" and not dq:
            j = text.find("'", i + 1)
            j = n if j == -1 else j
            out.append((i, j))
            i = j + 1
            continue
        elif c == "#" and not dq and (i == 0 or text[i - 1] in " \t;"):
            nl = text.find("\n", i)
            nl = n if nl == -1 else nl
            out.append((i, nl))
            i = nl
            continue
        i += 1
    return out
