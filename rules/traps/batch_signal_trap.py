"""SB253: `--signal=B:SIG@T` with no trap for SIG in the batch shell, or a trap a foreground step holds back.

`man sbatch`, `--signal`: "B: signal only the batch shell, none of the other
processes will be signaled". bash's default action for USR1, USR2, TERM, HUP and
ALRM is to end, so without a `trap` the warning kills the batch shell and the
job with it, early: measured on 22.05 and 24.11 (`--time=1 --signal=B:USR1@30`,
`srun sleep 70`), FAILED with ExitCode 0:10 within 30 s, nothing saved
(``tests/rules/test_recall_on_slurm.py``). With a trap, bash runs it only
between commands: during a foreground `srun` it runs once the step has ended
(bash(1), SIGNALS); `cmd & wait` lets it run at once.

Silent where the shell's handling cannot be known: a trap on a variable's
signals, `exec PROGRAM` (the program gets the signal), a sourced file that is
not an environment set-up, a batch script not run by bash or sh.
"""

from __future__ import annotations

from slurmspec.body.shell_facts import ShellFacts, shell_facts
from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.job.interpreter import runs_in_a_shell
from slurmspec.model.values.signal import SignalSpec

# Signals whose default action ends a non-interactive bash (signal(7): Term/Core). INT and QUIT
# are left out: bash treats them specially while it waits for a foreground child.
_ENDS_BASH = {"HUP", "USR1", "USR2", "ALRM", "TERM", "XCPU"}


def _facts(ctx: Context) -> ShellFacts:
    return shell_facts(ctx.script.source, ctx.script.body.heads)


@rule("SB253", "batch-signal-without-trap", Severity.WARNING, Outcome.WRONG)
def batch_signal_without_trap(ctx: Context) -> None:
    """
        ## What it does
        Finds `--signal=B:SIG@T` (the warning goes to the batch shell only) in a script that
        sets no `trap` for SIG, and, where a trap is set, a script whose launchers all run in
        the foreground with no `wait`.

        ## Why is this bad?
        bash's default action for USR1, USR2, TERM, HUP and ALRM is to die: the warning meant
        to let the job save its work kills the batch shell instead, and Slurm ends the job
        (FAILED, exit code 0:10 for USR1) minutes before its limit, with nothing saved. With a
        trap, bash runs it only between commands: while a foreground `srun` runs, the handler
        waits for the step to end, which is at the time limit.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --time=2:00:00
        #SBATCH --signal=B:USR1@300
        srun python train.py
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --time=2:00:00
        #SBATCH --signal=B:USR1@300
        trap 'touch checkpoint.request' USR1
        srun python train.py &
        wait
        ```

        ## Slurm versions
        All (measured on 22.05 and 24.11).

        ## References
        - `man sbatch`, `--signal` ("B: signal only the batch shell")
        - `man bash`, SIGNALS (a trap runs after the foreground command ends; `wait` returns at once)
        - `man 7 signal` (the default action of SIGUSR1 is to terminate)
    """
    request = ctx.script.components[0].request
    setting = request.get("signal")
    spec = None if setting is None else setting.value_as(SignalSpec)
    if spec is None or "B" not in spec.flags or spec.name not in _ENDS_BASH:
        return
    if not runs_in_a_shell(ctx.script):
        return  # a Python batch script handles (or dies of) the signal by its own rules
    facts = ctx.shared(_facts)
    if facts.replaced or facts.sources_unknown:
        return
    handled = facts.traps(spec.name, spec.signal)
    if handled is None:
        return
    shown = f"--signal={setting.raw}"
    if not handled:
        ctx.report(
            "SB253", setting.directive.span,
            f"`{shown}` sends SIG{spec.name} to the batch shell only, and the script sets no `trap`"
            f" for it: bash dies of it, and the job ends as FAILED about {spec.seconds} s before its limit, nothing"
            f" saved. Add `trap '<save>' {spec.name}` and run the launcher as `srun ... &` then `wait`",
        )
        return
    launches = ctx.script.body.launches
    if facts.waits or not launches or any(launch.backgrounded for launch in launches):
        return
    last = launches[-1]
    ctx.report(
        "SB253", last.statement_span,
        f"`{shown}` has a trap, but bash runs a trap only once the foreground command ends: while"
        f" this step runs the handler waits, and the step is killed at the limit. Start it with `&`"
        " and `wait` for it",
    )
