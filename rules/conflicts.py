"""SB123–SB133: option combinations that sbatch (or slurmctld at submission) refuses.

SB123/SB124 are slurmctld's; the rest are sbatch's own checks in
``slurm_opt.c:validate_options_salloc_sbatch_srun()`` and
``sbatch/opt.c:_opt_verify()`` (slurm-semantics.md §4.3, §7). The GPU
consistency checks (the client-side GRES validation) are in
``conflicts_gpu.py``.

Two options are "both set" for sbatch when each appeared at least once in the
component (or, for options that are not reset per hetjob component, in an
earlier one): the checks test the option's *set* flag, not the value that won,
so ``--mem=1G --mem-per-cpu=1G --mem-per-cpu=2G`` still conflicts.

Not a rule, on purpose: ``-v`` with ``-Q``. sbatch refuses the pair only on
its command line (``don't specify both --verbose (-v) and --quiet (-Q)``);
both are early-pass options, which sbatch ignores inside ``#SBATCH``, so
``#SBATCH -v -Q`` and ``#SBATCH -vQ`` are accepted (checked against sbatch
22.05.8 with ``--test-only``). SB217 (early-pass-option-in-script) reports them as no-ops.
"""

from __future__ import annotations

import datetime as _dt
import re

from slurmspec.rules._legacy import Context, Rule
from slurmspec.model.script import Directive


def _is_unlimited(value) -> bool:
    return bool(getattr(value, "unlimited", False))


def check_time_min(ctx: Context) -> None:
    # slurmctld (job_mgr.c) refuses a --time-min above the job's time limit with
    # "Invalid time-min specification (exceeds job's time or other limits)".
    # 0, -1 and UNLIMITED mean "no limit", so they exceed any finite --time, and
    # also a missing --time: checked against slurmctld 22.05.8.
    for component in ctx.script.components:
        request = component.request
        time_min = request.get("time-min")
        if time_min is None or not hasattr(time_min.value, "unlimited"):
            continue
        time = request.get("time")
        # Both are inherited by later hetjob components and checked in each:
        # `--time-min=2:00:00`, `hetjob`, `-t 10` is refused (slurmctld 22.05.8).
        if time_min.inherited and (time is None or time.inherited):
            continue
        limit = None if time is None else time.value
        if time is not None and not hasattr(limit, "unlimited"):
            continue  # --time itself is invalid; SB110 says so
        span = time.directive.span if time_min.inherited else time_min.directive.span
        if _is_unlimited(time_min.value):
            if limit is None or not _is_unlimited(limit):
                where = "no `--time`" if limit is None else f"`--time={time.raw}`"
                ctx.report(
                    "SB123", span,
                    f"`--time-min={time_min.raw}` means no limit, which exceeds the job's time"
                    f" limit ({where}); the controller refuses the job",
                )
        elif limit is None:
            # Without --time, a --deadline caps the time limit at the time left
            # until it: `--deadline=now+90minutes --time-min=2:00:00` is refused
            # (slurmctld 22.05.8). Judged only for `now+N` values, with a margin.
            window = _deadline_window(request)
            if window is not None and time_min.value.minutes * 60 > window + 600:
                ctx.report(
                    "SB123", span,
                    f"`--time-min={time_min.raw}` is longer than the time left before"
                    f" `--deadline={request.get('deadline').raw}`, which caps the job's time limit"
                    " when `--time` is not given; the controller refuses the job",
                )
        elif not _is_unlimited(limit):
            if time_min.value.minutes > limit.minutes:
                ctx.report(
                    "SB123", span,
                    f"`--time-min={time_min.raw}` is longer than `--time={time.raw}`;"
                    " the controller refuses the job",
                )


def _deadline_window(request) -> float | None:
    """Seconds from submission to a `now+N` --deadline, when no --begin muddies it."""
    deadline = request.get("deadline")
    if deadline is None:
        return None
    if request.get("begin") is not None:
        # With a --begin the controller's cap is not begin-to-deadline:
        # `--begin=now+2hours --deadline=now+3hours --time-min=2:00:00` is
        # accepted by slurmctld 22.05.8, so do not judge.
        return None
    end = _moment(deadline.value)
    if end is None or end[0] != "now":
        return None
    return max(0.0, end[1])


def check_array_in_hetjob(ctx: Context) -> None:
    # A heterogeneous job cannot be a job array: slurmctld answers
    # "Invalid job array specification" (checked against slurmctld 22.05.8).
    if len(ctx.script.components) < 2:
        return
    for component in ctx.script.components:
        setting = component.request.get("array")
        if setting is not None and not setting.inherited:
            ctx.report(
                "SB124", setting.directive.span,
                "a heterogeneous job (with `#SBATCH hetjob` components) cannot be a job array;"
                " the controller refuses it. Submit the components as separate array jobs",
            )



# ------------------------------------------------------------ shared helpers
def first_occurrence(setting) -> Directive:
    """The directive that first set the option (sbatch's "set" flag is raised there)."""
    if not setting.inherited and setting.overridden:
        return setting.overridden[0]
    return setting.directive


def _where(directive: Directive) -> str:
    return f"line {directive.line}"


def _later(*settings) -> Directive:
    """Of several set options, the first occurrence that comes last: where the clash arises.

    Options inherited from an earlier hetjob component come first, so the
    report lands in the component that adds the clashing option.
    """
    def key(setting):
        d = first_occurrence(setting)
        return (not setting.inherited, d.span.start)
    return first_occurrence(max(settings, key=key))


def _pair(ctx: Context, a: str, b: str, inherit: bool = False):
    """Yield (request, setting_a, setting_b) for every component that sets both.

    With ``inherit`` a value carried over from an earlier hetjob component
    counts (unless both are, which the earlier component reports): 22.05.8
    refuses `--begin` in one component and an earlier `--deadline` in the next.
    Without it both must be the component's own: it accepts `--bbf` in one
    component and `--bb` in the next.
    """
    for component in ctx.script.components:
        request = component.request
        first, second = request.get(a), request.get(b)
        if first is None or second is None:
            continue
        inherited = (first.inherited, second.inherited)
        if all(inherited) or (any(inherited) and not inherit):
            continue
        yield request, first, second


# ------------------------------------------------------------------- SB125
_MEMORY = ("mem", "mem-per-cpu", "mem-per-gpu")


def check_memory_options(ctx: Context) -> None:
    # slurm_opt.c:_validate_memory_options(): more than one of the three set
    # (by CLI or #SBATCH) is fatal. --mem is inherited by later hetjob
    # components, so component 0's --mem clashes with a later --mem-per-cpu
    # (checked against sbatch 22.05.8).
    for component in ctx.script.components:
        request = component.request
        settings = [request.get(name) for name in _MEMORY]
        settings = [s for s in settings if s is not None]
        if len(settings) < 2 or all(s.inherited for s in settings):
            continue
        at = _later(*settings)
        others = [s for s in settings if first_occurrence(s) is not at]
        listed = " and ".join(
            f"`--{s.name}` ({'inherited from an earlier hetjob component' if s.inherited else _where(first_occurrence(s))})"
            for s in others
        )
        ctx.report(
            "SB125", at.span,
            f"`--{at.name}` cannot be combined with {listed}; sbatch stops with \"--mem,"
            " --mem-per-cpu, and --mem-per-gpu are mutually exclusive\". Keep only one of"
            " them (a repeated or overridden occurrence still counts)",
            fix=_keep_per_gpu_memory(ctx, request, settings),
        )


def _keep_per_gpu_memory(ctx: Context, request, settings):
    """`--mem` beside `--mem-per-gpu`: keep the per-GPU form, which scales with the GPUs asked for.

    Unsafe: the job's memory changes from a per-node figure to a per-GPU one.
    """
    from slurmspec.fix import build
    from slurmspec.kinds import Applicability

    names = {s.name for s in settings}
    if names != {"mem", "mem-per-gpu"} or request.get("mem").inherited:
        return None
    return build.drop_settings(ctx.script, [request.get("mem")],
                                "Remove `--mem` and keep `--mem-per-gpu`", Applicability.UNSAFE)


# ------------------------------------------------------------ SB126, SB127
def check_core_spec_thread_spec(ctx: Context) -> None:
    # slurm_opt.c:_validate_spec_cores_options(); checked against sbatch 22.05.8.
    for _, core, thread in _pair(ctx, "core-spec", "thread-spec"):
        at = _later(core, thread)
        other = thread if first_occurrence(core) is at else core
        ctx.report(
            "SB126", at.span,
            f"`--{at.name}` cannot be combined with `--{other.name}` ({_where(first_occurrence(other))});"
            " sbatch refuses the job (\"-S/--core-spec and --thred-spec options are mutually"
            " exclusive\"). Reserve either cores or threads for the system, not both",
        )


def check_bb_bbf(ctx: Context) -> None:
    # sbatch/opt.c:_opt_verify(); checked against sbatch 22.05.8.
    for _, bb, bbf in _pair(ctx, "bb", "bbf"):
        at = _later(bb, bbf)
        other = bbf if first_occurrence(bb) is at else bb
        ctx.report(
            "SB127", at.span,
            f"`--{at.name}` cannot be combined with `--{other.name}` ({_where(first_occurrence(other))});"
            " sbatch stops with \"Cannot specify both --burst-buffer and --bbf\". Put the"
            " burst buffer directives either inline (`--bb`) or in one file (`--bbf`)",
        )


# ------------------------------------------------------------------- SB128
def _moment(value) -> tuple[str, float] | None:
    """("abs", epoch seconds) for a fully dated value, ("now", offset) for now[+-N]; else None."""
    if value is None:
        return None
    epoch = getattr(value, "epoch", None)
    if epoch is not None:
        return ("abs", float(epoch))
    keywords = tuple(getattr(value, "keywords", ()) or ())
    if keywords == ("now",) and value.relative_seconds is not None:
        return ("now", float(value.relative_seconds))
    if keywords or value.relative_seconds is not None:
        return None
    if not (value.year and value.month and value.day) or value.year < 1970:
        return None
    try:
        # mktime() rolls day 30 of February into March; so does this.
        when = _dt.datetime(value.year, value.month, 1) + _dt.timedelta(
            days=value.day - 1, hours=value.hour or 0, minutes=value.minute or 0,
            seconds=value.second or 0,
        )
    except (ValueError, OverflowError):
        return None
    try:
        return ("abs", when.timestamp())  # local time, as mktime()
    except (ValueError, OverflowError, OSError):
        return None


# A date against `now+N`: compared with today's clock only when they are at
# least this far apart, so time zones and the moment of linting cannot matter.
_CLOCK_MARGIN = 2 * 86400.0


def check_deadline_before_begin(ctx: Context) -> None:
    # sbatch: "Incompatible begin and deadline time specification" when the
    # deadline is earlier than the begin time (equal is accepted); checked
    # against sbatch 22.05.8. Only comparable values are judged: both fully
    # dated (local time on both sides), both `now[+-N]`, or one of each when
    # they are days apart. Two `now` values with the same offset are not
    # reported: sbatch reads the clock once per option, so the verdict could
    # depend on a second ticking over.
    for _, begin, deadline in _pair(ctx, "begin", "deadline", inherit=True):
        a, b = _moment(begin.value), _moment(deadline.value)
        if a is None or b is None:
            continue
        if a[0] == b[0]:
            if not b[1] < a[1]:
                continue
        else:
            now = _dt.datetime.now().timestamp()
            start = a[1] + (now if a[0] == "now" else 0)
            end = b[1] + (now if b[0] == "now" else 0)
            if not end + _CLOCK_MARGIN < start:
                continue
        ctx.report(
            "SB128", deadline.directive.span,
            f"`--deadline={deadline.raw}` is earlier than `--begin={begin.raw}`"
            f" ({_where(begin.directive)}); sbatch refuses the job (\"Incompatible begin and"
            " deadline time specification\"). Move the deadline after the begin time",
        )


# ------------------------------------------------------------ SB129, SB130
def _is_arbitrary(value) -> bool:
    levels = getattr(value, "levels", None)
    return bool(levels) and levels[0] == "arbitrary"


def check_arbitrary_distribution(ctx: Context) -> None:
    # slurm_opt_create_job_desc(): -m arbitrary needs -w or a node file
    # (checked against sbatch 22.05.8); 23.11+ _validate_arbitrary(): -N too.
    for component in ctx.script.components:
        request = component.request
        dist = request.get("distribution")
        if dist is None or not _is_arbitrary(dist.value):
            continue
        hosts = [request.get(n) for n in ("nodelist", "nodefile")]
        if not any(h is not None and (h.raw or "").strip() for h in hosts):
            ctx.report(
                "SB129", dist.directive.span,
                f"`--distribution={dist.raw}` places tasks on the hosts of a node list, but"
                " there is none; sbatch refuses the job (\"With Arbitrary distribution you need"
                " to specify a nodelist or hostfile with the -w option\"). Add `--nodelist`"
                " (one host per task) or pick another distribution",
            )
        nodes = request.get("nodes")
        if nodes is not None and ctx.version >= (23, 11):
            ctx.report(
                "SB130", first_occurrence(nodes).span,
                f"`--nodes` cannot be combined with `--distribution={dist.raw}`"
                f" ({_where(dist.directive)}) on Slurm 23.11 and newer; sbatch stops with"
                " \"--nodes is incompatible with --distribution=arbitrary\". Drop `--nodes`:"
                " the node list decides the nodes",
            )


# ------------------------------------------------------------ SB131, SB132
def check_exclusive_oversubscribe(ctx: Context) -> None:
    # 23.02+ _validate_share_options() (slurm-semantics.md §4.3, §7); on
    # 22.05 the two share one field and the last one silently wins.
    if ctx.version < (23, 2):
        return
    for _, exclusive, oversubscribe in _pair(ctx, "exclusive", "oversubscribe"):
        at = _later(exclusive, oversubscribe)
        other = oversubscribe if first_occurrence(exclusive) is at else exclusive
        ctx.report(
            "SB131", at.span,
            f"`--{at.name}` cannot be combined with `--{other.name}`"
            f" ({_where(first_occurrence(other))}) on Slurm 23.02 and newer; sbatch stops with"
            " \"--exclusive and --oversubscribe options are mutually exclusive\". Keep the one"
            " you mean (22.05 silently used the last one)",
        )


def _count(setting) -> int | None:
    value = getattr(setting.value, "value", None) if setting is not None else None
    return value if isinstance(value, int) else None


def check_ntasks_per_core(ctx: Context) -> None:
    # 23.02+ sbatch/opt.c:_opt_verify() (slurm-semantics.md §4.3).
    if ctx.version < (23, 2):
        return
    for _, per_core, threads in _pair(ctx, "ntasks-per-core", "threads-per-core"):
        a, b = _count(per_core), _count(threads)
        if a is None or b is None or a <= b:
            continue
        ctx.report(
            "SB132", per_core.directive.span,
            f"`--ntasks-per-core={per_core.raw}` is more than `--threads-per-core={threads.raw}`"
            f" ({_where(threads.directive)}); on Slurm 23.02 and newer sbatch refuses the job"
            " (a core cannot run more tasks than the threads it may use). Lower"
            " `--ntasks-per-core` or raise `--threads-per-core`",
        )


# ------------------------------------------------------------------- SB133
_HOST = re.compile(r"([A-Za-z0-9_.-]*)(?:\[([0-9,\-]+)\])?([A-Za-z0-9_.-]*)")


def count_hosts(text: str | None) -> int | None:
    """Distinct hosts of a simple hostlist (``a,b``, ``n[01-04,07]``); None if unsure.

    Only one bracket group per name is understood; a ``/`` means sbatch reads
    the value as a file name, and anything else unusual gives None.
    """
    if not text or "/" in text:
        return None
    names: set[str] = set()
    for item in re.findall(r"[^,\[]*(?:\[[^\]]*\][^,\[]*)*", text):
        if not item:
            continue
        m = _HOST.fullmatch(item)
        if not m or (not m.group(1) and not m.group(2)):
            return None
        prefix, ranges, suffix = m.groups()
        if ranges is None:
            names.add(item)
            continue
        for part in ranges.split(","):
            lo, dash, hi = part.partition("-")
            if not lo.isdigit() or (dash and not hi.isdigit()):
                return None
            first, last = int(lo), int(hi) if dash else int(lo)
            if last < first or last - first > 100000 or len(names) > 100000:
                return None
            width = len(lo)
            names.update(f"{prefix}{n:0{width}d}{suffix}" for n in range(first, last + 1))
    return len(names) or None


def check_nodelist_count(ctx: Context) -> None:
    # 22.05 sbatch/opt.c:_opt_verify() raises min_nodes to the host count of
    # --nodelist, then fails when it exceeds the -N maximum ("invalid number of
    # nodes (-N 3-2)"); checked against sbatch 22.05.8. From 23.02 the host
    # count only fills in a missing -N, so sbatch no longer refuses the pair:
    # a warning there, because the two still contradict each other.
    for _, nodes, nodelist in _pair(ctx, "nodes", "nodelist"):
        hosts = count_hosts(nodelist.raw)
        maximum = getattr(nodes.value, "maximum", None)
        if hosts is None or not isinstance(maximum, int) or maximum <= 0 or hosts <= maximum:
            continue
        head = (f"`--nodelist={nodelist.raw}` names {hosts} hosts, more than"
                f" `--nodes={nodes.raw}` ({_where(nodes.directive)}) allows")
        if ctx.version < (23, 2):
            ctx.report(
                "SB133", nodelist.directive.span,
                f"{head}; Slurm 22.05 refuses the job (\"invalid number of nodes"
                f" (-N {hosts}-{maximum})\"). Raise `--nodes` or list fewer hosts",
            )
        else:
            ctx.report(
                "SB133", nodelist.directive.span,
                f"{head}; every listed host is allocated, so the job cannot stay within"
                " `--nodes` (Slurm 22.05 refuses it outright). Raise `--nodes` or list fewer hosts",
                severity="warning",
            )


RULES = (
    Rule("SB123", "time-min-exceeds-time", "error", check_time_min, """
        ## What it does
        Finds a `--time-min` longer than the job's `--time`, including `--time-min=0`
        (which means no limit) on a job that has a finite or default time limit.

        ## Why is this bad?
        `--time-min` lets the scheduler shorten a job to fit a backfill window; it must not
        exceed the time limit. slurmctld refuses the job with `Invalid time-min specification`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --time=01:00:00
        #SBATCH --time-min=02:00:00
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --time=02:00:00
        #SBATCH --time-min=01:00:00
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--time-min`
    """),
    Rule("SB124", "array-in-hetjob", "error", check_array_in_hetjob, """
        ## What it does
        Finds `--array` in a script that also has `#SBATCH hetjob` components.

        ## Why is this bad?
        Slurm does not support heterogeneous job arrays; the controller answers
        `Invalid job array specification`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --array=1-4
        #SBATCH hetjob
        #SBATCH --ntasks=1
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --array=1-4
        #SBATCH --ntasks=2
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, HETEROGENEOUS JOB SUPPORT ("Job arrays of heterogeneous jobs are not supported")
    """),
    Rule("SB125", "memory-options-exclusive", "error", check_memory_options, fixable=True, doc="""
        ## What it does
        Finds a component that sets more than one of `--mem`, `--mem-per-cpu` and
        `--mem-per-gpu`, counting every occurrence (also ones a later line overrides) and a
        `--mem` inherited from an earlier hetjob component.

        ## Why is this bad?
        The three options are different ways of asking for the same memory. sbatch does not let
        a later one replace an earlier one: it stops with `--mem, --mem-per-cpu, and
        --mem-per-gpu are mutually exclusive.` The same happens when the script sets one and the
        command line another.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --mem=16G
        #SBATCH --mem-per-cpu=4G
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --mem-per-cpu=4G
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--mem` ("The --mem, --mem-per-cpu and --mem-per-gpu options are mutually exclusive")
        - slurm-semantics.md §4.1, §4.3
    """),
    Rule("SB126", "core-spec-with-thread-spec", "error", check_core_spec_thread_spec, """
        ## What it does
        Finds `--core-spec` (`-S`) and `--thread-spec` in the same component.

        ## Why is this bad?
        Both set the number of specialized resources reserved for system use, one in cores and
        one in threads; sbatch refuses the pair (`-S/--core-spec and --thred-spec options are
        mutually exclusive`).

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --core-spec=2
        #SBATCH --thread-spec=2
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --core-spec=2
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--core-spec`, `--thread-spec`
    """),
    Rule("SB127", "bb-with-bbf", "error", check_bb_bbf, """
        ## What it does
        Finds `--bb` and `--bbf` in the same component.

        ## Why is this bad?
        A burst buffer is described either inline or in a file, not both; sbatch stops with
        `Cannot specify both --burst-buffer and --bbf`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --bb="capacity=100G"
        #SBATCH --bbf=buffers.conf
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --bbf=buffers.conf
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--bb`, `--bbf`
    """),
    Rule("SB128", "deadline-before-begin", "error", check_deadline_before_begin, """
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
    """),
    Rule("SB129", "arbitrary-distribution-without-nodelist", "error", check_arbitrary_distribution, """
        ## What it does
        Finds `--distribution=arbitrary` (`-m arbitrary`) without `--nodelist` or `--nodefile`.

        ## Why is this bad?
        The arbitrary distribution places task *i* on the *i*-th host of the node list; without
        one sbatch refuses the job (`With Arbitrary distribution you need to specify a nodelist
        or hostfile with the -w option`).

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=3
        #SBATCH --distribution=arbitrary
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --ntasks=3
        #SBATCH --distribution=arbitrary
        #SBATCH --nodelist=node01,node01,node02
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `man sbatch`, `--distribution` ("arbitrary")
    """),
    Rule("SB130", "nodes-with-arbitrary-distribution", "error", check_arbitrary_distribution, """
        ## What it does
        Finds `--nodes` (`-N`) together with `--distribution=arbitrary`, on Slurm 23.11 and newer.

        ## Why is this bad?
        With the arbitrary distribution the node list decides the nodes. From 23.11 sbatch
        refuses an explicit node count next to it: `--nodes is incompatible with
        --distribution=arbitrary`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --distribution=arbitrary
        #SBATCH --nodelist=node01,node01,node02
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --distribution=arbitrary
        #SBATCH --nodelist=node01,node01,node02
        srun ./app
        ```

        ## Slurm versions
        23.11 and newer (22.05–23.02 accept the pair).

        ## References
        - slurm-semantics.md §4.3, §7 ("23.11: -N with arbitrary")
    """),
    Rule("SB131", "exclusive-with-oversubscribe", "error", check_exclusive_oversubscribe, """
        ## What it does
        Finds `--exclusive` and `--oversubscribe` (`-s`) in the same component, on Slurm 23.02
        and newer.

        ## Why is this bad?
        The job cannot both refuse and accept sharing its nodes. From 23.02 sbatch stops with
        `--exclusive and --oversubscribe options are mutually exclusive`; 22.05 silently used
        whichever came last.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --exclusive
        #SBATCH --oversubscribe
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --exclusive
        srun ./app
        ```

        ## Slurm versions
        23.02 and newer; on 22.05 the last of the two wins without a message.

        ## References
        - slurm-semantics.md §4.3, §7 ("23.02: exclusive vs oversubscribe")
    """),
    Rule("SB132", "ntasks-per-core-exceeds-threads", "error", check_ntasks_per_core, """
        ## What it does
        Finds `--ntasks-per-core` larger than `--threads-per-core`, on Slurm 23.02 and newer.

        ## Why is this bad?
        Each task needs at least one hardware thread of the core; sbatch refuses the request
        with `--ntasks-per-core (N) can not be bigger than --threads-per-core (M)`.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --threads-per-core=1
        #SBATCH --ntasks-per-core=2
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --threads-per-core=2
        #SBATCH --ntasks-per-core=2
        srun ./app
        ```

        ## Slurm versions
        23.02 and newer; 22.05 accepts the request.

        ## References
        - slurm-semantics.md §4.3, §7
    """),
    Rule("SB133", "nodelist-exceeds-nodes", "error", check_nodelist_count, """
        ## What it does
        Finds a `--nodelist` that names more distinct hosts than the maximum of `--nodes`.
        Only plain host names and single `prefix[01-04]` ranges are counted.

        ## Why is this bad?
        Slurm 22.05 raises the minimum node count to the number of listed hosts and then finds
        it above the maximum: `invalid number of nodes (-N 3-2)`. Newer releases only use the
        host count when `--nodes` is missing.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --nodelist=node[01-03]
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --nodes=3
        #SBATCH --nodelist=node[01-03]
        srun ./app
        ```

        ## Slurm versions
        An error on 22.05, which refuses the job; a warning on 23.02 and newer, which accept
        it at submission.

        ## References
        - slurm-semantics.md §4.3 ("nodelist host count > -N max (22.05 only)"), §7
    """),
)
