"""SB128: a `--deadline` earlier than `--begin`, which sbatch refuses.

``src/sbatch/opt.c:_opt_verify()``: ``if ((opt.deadline) && (opt.begin) &&
(opt.deadline < opt.begin))`` "Incompatible begin and deadline time
specification" (an equal deadline is accepted).
"""

from __future__ import annotations


from slurmspec.kinds import Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.rules.reject._settings import moment, pairs, where

# A date against `now+N`: compared with today's clock only when they are at
# least this far apart, so time zones and the moment of linting cannot matter.
_CLOCK_MARGIN = 2 * 86400.0


@rule("SB128", "deadline-before-begin", Severity.ERROR, Outcome.REFUSED)
def deadline_before_begin(ctx: Context) -> None:
    """
        ## What it does
        Finds a `--deadline` earlier than `--begin`, when both are full dates (or `uts` times),
        both are `now[+N unit]`, or one of each lies days before the other.

        ## Why is this bad?
        A job that may not start before its begin time cannot finish before an earlier deadline;
        sbatch refuses it with `Incompatible begin and deadline time specification`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --begin=2031-06-02T08:00
        #SBATCH --deadline=2031-06-01T20:00
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --begin=2031-06-01T08:00
        #SBATCH --deadline=2031-06-01T20:00
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--deadline`, `--begin`
        - `src/sbatch/opt.c:_opt_verify()`
    """
    # Checked against sbatch 22.05.8. Only comparable values are judged: both
    # fully dated (local time on both sides), both `now[+-N]`, or one of each
    # when they are days apart. Two `now` values with the same offset are not
    # reported: sbatch reads the clock once per option, so the verdict could
    # depend on a second ticking over.
    for _, begin, deadline in pairs(ctx, "begin", "deadline", inherit=True):
        a, b = moment(begin), moment(deadline)
        if a is None or b is None:
            continue
        if a[0] == b[0]:
            if not b[1] < a[1]:
                continue
        else:
            import datetime as _dt  # here, not at import: only two dated values need it

            now = _dt.datetime.now().timestamp()
            start = a[1] + (now if a[0] == "now" else 0)
            end = b[1] + (now if b[0] == "now" else 0)
            if not end + _CLOCK_MARGIN < start:
                continue
        ctx.report(
            "SB128", deadline.directive.span,
            f"`--deadline={deadline.raw}` is earlier than `--begin={begin.raw}`"
            f" ({where(begin.directive)}); sbatch refuses the job (\"Incompatible begin and"
            " deadline time specification\"). Move the deadline after the begin time",
        )
