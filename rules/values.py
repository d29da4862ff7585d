"""SB110–SB122: option values that sbatch (or slurmctld at submission) refuses.

The typed-value parsers in ``slurmspec.model.values`` mark each problem with
``rejected=True`` exactly when Slurm refuses the value; this family reports
those. Accepted-but-suspicious values (``--time=0``, a dropped mail type...)
belong to the traps family.
"""

from __future__ import annotations

from slurmspec.model.options import CHECKED_WHEN_EFFECTIVE
from slurmspec.model.request import hint_is_dropped
from slurmspec.rules._legacy import Context, Rule
from slurmspec.model.script import Directive
from slurmspec.span import Span

# Value kind -> rule code. Kinds not listed share SB122 (invalid-option-value).
_CODE_BY_KIND = {
    "duration": "SB110",
    "datetime": "SB111",
    "memory": "SB112",
    "count": "SB113",
    "count0": "SB113",
    "node-count": "SB114",
    "gres": "SB115",
    "gpus": "SB115",
    "tres-per-task": "SB115",
    "array": "SB116",
    "dependency": "SB117",
    "signal": "SB118",
    "distribution": "SB119",
    "mail-type": "SB120",
    "constraint": "SB121",
}


def problem_span(ctx: Context, directive: Directive, start: int, end: int) -> Span:
    return ctx.script.span_in_value(directive, start, end)





def _checked_directives(ctx: Context) -> list[Directive]:
    effective = {
        id(setting.directive)
        for component in ctx.script.components
        for setting in component.request.settings
    }
    checked = []
    for directive in ctx.script.directives:
        if directive.ignored or directive.typed is None:
            continue
        kind = directive.option.kind
        if kind in CHECKED_WHEN_EFFECTIVE and id(directive) not in effective:
            continue
        if kind == "hint" and _hint_dropped(ctx, directive.component):
            continue
        checked.append(directive)
    return checked


def _hint_dropped(ctx: Context, component: int) -> bool:
    return hint_is_dropped(ctx.script.components[component].request, ctx.version)


def check_values(ctx: Context) -> None:
    for directive in _checked_directives(ctx):
        code = _CODE_BY_KIND.get(directive.option.kind or "", "SB122")
        for problem in directive.typed.problems:
            if not problem.rejected:
                continue
            shown = directive.raw if len(directive.raw) <= 60 else directive.raw[:57] + "..."
            ctx.report(
                code,
                problem_span(ctx, directive, problem.start, problem.end),
                f"{problem.message} (in `{shown}`)",
            )


def _rule(code: str, name: str, doc: str) -> Rule:
    return Rule(code, name, "error", check_values, doc)


RULES = (
    _rule("SB110", "invalid-duration", """
        ## What it does
        Finds `--time`, `--time-min` and `--delay-boot` values that are not Slurm durations.

        ## Why is this bad?
        Slurm reads only `M`, `M:S`, `H:M:S`, `D-H`, `D-H:M`, `D-H:M:S` and `UNLIMITED`/`INFINITE`
        (`time_str2mins()`); anything else, such as `1h`, `30m` or `1:2:3:4`, makes sbatch stop with
        `Invalid --time specification`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --time=2h
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --time=02:00:00
        srun ./app
        ```

        ## Slurm versions
        All (the grammar is unchanged from 22.05 to 26.05).

        ## References
        - `man sbatch`, `--time`
        - `src/common/parse_time.c:time_str2secs()`
    """),
    _rule("SB111", "invalid-datetime", """
        ## What it does
        Finds `--begin` and `--deadline` values that Slurm's date parser refuses, such as
        `now+5min` (units must be spelled out) or `4pm` (needs `HH:MM`).

        ## Why is this bad?
        sbatch stops with `Invalid --begin specification` and the job is not submitted.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --begin=now+5min
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --begin=now+5minutes
        srun ./app
        ```

        ## Slurm versions
        All; the `elevenses` keyword exists from 24.05.

        ## References
        - `man sbatch`, `--begin`
        - `src/common/parse_time.c:parse_time()`
    """),
    _rule("SB112", "invalid-memory", """
        ## What it does
        Finds `--mem`, `--mem-per-cpu`, `--mem-per-gpu` and `--tmp` values that are not Slurm
        memory sizes: decimals (`1.5G`), IEC suffixes (`16GiB`, `16Gi`), `P`, negative numbers.

        ## Why is this bad?
        Slurm accepts an integer with an optional `K`, `M`, `G` or `T` (and an optional `B`);
        anything else stops sbatch with `Invalid --mem specification`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --mem=16GiB
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --mem=16G
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--mem`
        - `src/common/proc_args.c:str_to_mbytes()`
    """),
    _rule("SB113", "invalid-count", """
        ## What it does
        Finds task, CPU and per-resource counts that are not positive integers: `--ntasks=0`,
        `--cpus-per-task=auto`, `-c 4.5`.

        ## Why is this bad?
        Slurm parses these with `parse_int()`: no trailing characters, greater than zero (zero is
        allowed only for `--core-spec`). sbatch stops with `Invalid numeric value`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=0
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=1
        srun ./app
        ```

        ## Slurm versions
        All; from 23.02 values above INT_MAX are also refused as "too large".

        ## References
        - `src/common/proc_args.c:parse_int()`
    """),
    _rule("SB114", "invalid-node-count", """
        ## What it does
        Finds `--nodes` values that are not a count or a `min-max` range (with optional `k`/`m`
        suffixes; size lists such as `1,4,8` from 23.02), or whose maximum is below the minimum.

        ## Why is this bad?
        sbatch stops with `"x" is not a valid node count` or `Maximum node count ... is less than
        minimum node count`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=4-2
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=2-4
        srun ./app
        ```

        ## Slurm versions
        All; size lists need 23.02 or newer.

        ## References
        - `src/common/proc_args.c:verify_node_count()`
    """),
    _rule("SB115", "invalid-gres", """
        ## What it does
        Finds malformed `--gres`, `--gpus*` and `--tres-per-task` values, such as `gpu::1`,
        `gpu:` or a count that is not a number.

        ## Why is this bad?
        sbatch validates these on the client and stops with `Invalid generic resource (gres)
        specification` (or an invalid TRES message).

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --gres=gpu::2
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --gres=gpu:2
        srun ./app
        ```

        ## Slurm versions
        All; `--tres-per-task` exists from 23.02.

        ## References
        - `src/common/gres.c:_get_next_gres()`
    """),
    _rule("SB116", "invalid-array", """
        ## What it does
        Finds `--array` values that slurmctld refuses: negative or descending ranges, a zero step,
        indices at or above the default `MaxArraySize` (1001), text that is not a range list.

        ## Why is this bad?
        sbatch passes the string through unchecked, and the controller answers `Invalid job array
        specification` at submission.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --array=10-1
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --array=1-10
        srun ./app
        ```

        ## Slurm versions
        All. A site may raise `MaxArraySize`; the check assumes the default.

        ## References
        - `man sbatch`, `--array`
        - `src/slurmctld/job_mgr.c:_valid_array_inx()`
    """),
    _rule("SB117", "invalid-dependency", """
        ## What it does
        Finds `--dependency` values that are not `type:jobid[:jobid...]` lists with a known type
        (`after`, `afterany`, `afterok`, `afternotok`, `aftercorr`, `afterburstbuffer`,
        `singleton`) and numeric job ids.

        ## Why is this bad?
        slurmctld refuses the submission with `Job dependency problem`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --dependency=afterok:$PREV
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        srun ./app
        ```
        and submit with `sbatch --dependency=afterok:$PREV job.sbatch`, where the shell expands it.

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--dependency`
    """),
    _rule("SB118", "invalid-signal", """
        ## What it does
        Finds `--signal` values that are not `[{R|B}:]<sig_num|sig_name>[@sig_time]` with a known
        signal name and a time between 0 and 65535 seconds.

        ## Why is this bad?
        sbatch stops with `Invalid --signal specification`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --signal=B:USR1@abc
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --signal=B:USR1@120
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/common/proc_args.c:get_signal_opts()`
    """),
    _rule("SB119", "invalid-distribution", """
        ## What it does
        Finds `--distribution` values outside `{*|block|cyclic|arbitrary|plane=N}[:...][,Pack|NoPack]`.

        ## Why is this bad?
        sbatch stops with `Invalid --distribution specification`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --distribution=round-robin
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --distribution=cyclic
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/common/proc_args.c:verify_dist_type()`
    """),
    _rule("SB120", "invalid-mail-type", """
        ## What it does
        Finds `--mail-type` lists in which no type is valid.

        ## Why is this bad?
        sbatch stops with `Invalid --mail-type specification`. (A list with at least one valid type
        is accepted and the unknown ones are silently dropped; the traps family reports that.)

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --mail-type=START
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --mail-type=BEGIN
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/common/proc_args.c:parse_mail_type()`
    """),
    _rule("SB121", "invalid-constraint", """
        ## What it does
        Finds malformed feature expressions in `--constraint`, `--prefer`, `--batch` and
        `--cluster-constraint`: unbalanced brackets, doubled operators, empty features.

        ## Why is this bad?
        slurmctld refuses the submission with `Invalid feature specification`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --constraint=[v100|a100
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --constraint=[v100|a100]
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--constraint`
    """),
    _rule("SB122", "invalid-option-value", """
        ## What it does
        Finds values that the option's own parser refuses, for options with a fixed vocabulary or
        syntax: `--hint`, `--exclusive`, `--open-mode`, `--gpu-bind`, `--mem-bind`, `--cpu-freq`,
        `--gres-flags`, `--profile`, `--propagate`, `--kill-on-invalid-dep`, `--wait-all-nodes`,
        `--export`, `-B`, `--switches` and others.

        ## Why is this bad?
        sbatch stops with that option's `Invalid ... specification` message.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --hint=nomultithreading
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --hint=nomultithread
        srun ./app
        ```

        ## Slurm versions
        All; several vocabularies grow with the release (`--exclusive=topo` 24.05, `--gres-flags`
        lists 24.05).

        ## References
        - `man sbatch`
    """),
)
