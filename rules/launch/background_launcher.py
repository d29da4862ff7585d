"""SB322: a launcher started with `&` that the batch script never waits for.

When the batch script ends, the batch step ends, and Slurm ends the job and
kills every step and process still running: `man sbatch` ("the job ... will be
terminated when the batch script ends"), measured on 22.05 and 24.11 (a step
started with `&` and not waited for dies when the script exits; the job is
recorded COMPLETED: ``tests/rules/test_recall_on_slurm.py``).

Silent where the script may mean it: a later launcher in the foreground (a
server in the background for a client) or any later command that may be work
of its own (not housekeeping: `body/programs.BOOKKEEPING_COMMANDS`), a `wait`, `$!` used later (the script
watches the process itself), `sleep`/`tail` after it, `exec`, a launcher in a
function, a `wait` in a function (it may be called after any line), a script
not run by a shell. No fix: where `wait` goes is the user's call.
"""

from __future__ import annotations

from slurmspec.body.programs import BOOKKEEPING_COMMANDS
from slurmspec.body.shell_facts import ShellFacts, shell_facts
from slurmspec.body.wrappers import basename
from slurmspec.model.job.interpreter import runs_in_a_shell
from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule


def _facts(ctx: Context) -> ShellFacts:
    return shell_facts(ctx.script.source, ctx.script.body.heads)


@rule("SB322", "background-launcher-not-waited", Severity.WARNING, Outcome.WRONG)
def background_launcher_not_waited(ctx: Context) -> None:
    """
        ## What it does
        Finds a launch (`srun`, `torchrun`, `horovodrun`, `mpirun`, `python ...`) started in
        the background with `&` when nothing after it waits: no `wait`, no `sleep`, no use of
        `$!`, and nothing after it but housekeeping (`rsync`, `cp`, `echo`, `cd`...): no later
        launch or program that may be the work it serves.

        ## Why is this bad?
        When the batch script reaches its end, Slurm ends the job and kills what still runs:
        the training started with `&` dies seconds after it began, and the job is recorded as
        COMPLETED, so nothing tells you it did not run.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --time=1:00:00
        horovodrun -np 8 python train.py &
        rsync -a results/ /project/results/
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --time=1:00:00
        horovodrun -np 8 python train.py &
        wait
        rsync -a results/ /project/results/
        ```

        ## Slurm versions
        All (measured on 22.05 and 24.11).

        ## References
        - `man sbatch` (the job ends when the batch script ends)
        - `man bash`, `wait`
    """
    script = ctx.script
    launches = script.body.launches
    if not any(launch.backgrounded for launch in launches):
        return
    if not runs_in_a_shell(script):
        return
    facts = ctx.shared(_facts)
    if facts.replaced or (facts.waits and facts.functions):
        return  # a function holding `wait` may be called after any line
    # Each once, so the script's launches cost O(launches), not O(launches x lines after them).
    last_pid_use = script.source.rfind("$!")
    last_hold = max((*facts.waits, *facts.holds), default=-1)
    last_foreground = max((launch.statement_span.start for launch in launches if not launch.backgrounded),
                          default=-1)
    last_work = _last_work(script)
    for launch in launches:
        if not launch.backgrounded or "function" in launch.context:
            continue
        end = launch.statement_span.end
        if last_hold >= end or last_foreground >= end or last_pid_use >= end or last_work >= end:
            continue
        ctx.report(
            "SB322", launch.statement_span,
            f"`{launch.command}` is started with `&` and nothing after it waits: when the script"
            " ends, Slurm ends the job and kills it (the job is still recorded COMPLETED). Add"
            " `wait` where the script must wait for it",
        )


def _last_work(script) -> int:
    """Where the last command starts that may be work of the script's own (not housekeeping); -1 for none.

    A later `./simulate` or `bash post.sh` may be what a background server or monitor serves, so
    such a launch is not reported; a later `rsync` or `echo done` is housekeeping.
    """
    heads = script.body.heads
    if heads is None:
        return -1
    for index in range(len(heads.names) - 1, -1, -1):
        name = heads.names[index]
        if name and not name.startswith(("((", "[[")) and basename(name) not in BOOKKEEPING_COMMANDS and name != "wait":
            return heads.starts[index]
    return -1
