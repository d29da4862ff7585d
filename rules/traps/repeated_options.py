"""SB204–SB205: an option given twice in one job (or hetjob component).

Each `arg_set_*()` function of `src/common/slurm_opt.c` frees and replaces the
previous value, so the last occurrence silently wins: SB204 when the values
differ, SB205 when they are the same (harmless today, a trap at the next edit).
Options that accumulate are left alone, and `--mail-type` repeats OR together
up to 24.11 (`arg_set_mail_type()`: `opt->mail_type |= parse_mail_type(arg)`)
but replace each other from 25.05. One pass over the settings decides both
rules.
"""

from __future__ import annotations


from slurmspec.fix import build
from slurmspec.fix.build import delete_directives, make_fix, replace
from slurmspec.fix.edit import Fix
from slurmspec.gates import MAIL_TYPE_LAST_WINS
from slurmspec.kinds import Applicability, Fixability, Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.lazy_regex import lazy_compile
from slurmspec.model.catalogue.options import CHECKED_WHEN_EFFECTIVE
from slurmspec.model.syntax.script import Directive, Script
from slurmspec.rules.traps._header import line_no, option_span, shown


@rule("SB204", "overridden-option", Severity.WARNING, Outcome.WRONG, fix=Fixability.SOMETIMES)
def overridden_option(ctx: Context) -> None:
    """
        ## What it does
        Finds an option given twice with different values in the same job (or hetjob
        component), where the later one silently replaces the earlier. It has special advice for
        `--constraint` (merge features with `&`), `--partition` (list partitions with `,`),
        `--gres` (one comma list), `--time` and `--mem`.

        ## Why is this bad?
        Each `#SBATCH` option overwrites the previous value: `--constraint=v100` followed by
        `--constraint=ib` asks only for `ib`, and a template's `--time` plus a user's extra
        `--time` keeps whichever comes last. Options that accumulate (`--signal`,
        `--kill-on-invalid-dep`, and `--mail-type` before 25.05) are not reported, and a later
        hetjob component may set an inherited option again.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --constraint=v100
        #SBATCH --constraint=ib
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --constraint=v100&ib
        srun ./app
        ```

        ## Slurm versions
        All. `--mail-type` repeats combine up to 24.11 and replace from 25.05.

        ## References
        - `src/common/slurm_opt.c`: each `arg_set_*()` function frees and replaces the previous
          value; `arg_set_mail_type()` ORs the types together up to 24.11
    """
    ctx.shared(_check_repeats)


@rule("SB205", "duplicate-directive", Severity.INFO, Outcome.ADVICE, fix=Fixability.SOMETIMES)
def duplicate_directive(ctx: Context) -> None:
    """
        ## What it does
        Finds the same option with the same value given twice.

        ## Why is this bad?
        It does no harm today, but the next edit changes one copy and not the other, and the
        last one silently wins.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --partition=gpu
        #SBATCH --time=60
        #SBATCH -p gpu
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --partition=gpu
        #SBATCH --time=60
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/common/slurm_opt.c`: each `arg_set_*()` function frees and replaces the previous
          value
    """
    ctx.shared(_check_repeats)


def _check_repeats(ctx: Context) -> None:
    """SB204 overridden options, SB205 exact duplicates."""
    for component in ctx.script.components:
        for setting in component.request.settings:
            if setting.inherited or not setting.overridden:
                continue
            # Repeats within one source: a setting on the sbatch command line (or in its environment)
            # replaces the script's on purpose, and slurmspec.invocation notes that on the line.
            occurrences = _same_source(ctx.script, (*setting.overridden, setting.directive))
            if len(occurrences) < 2:
                continue
            final = occurrences[-1]
            if setting.name == "mail-type" and ctx.version >= MAIL_TYPE_LAST_WINS:
                _report_mail_type_repeat(ctx, occurrences)
                continue
            seen: dict[object, Directive] = {}
            first_fix: dict[object, object] = {}  # one fix per first occurrence, shared by its repeats
            reported: set[object] = set()
            for occurrence in occurrences:
                key = occurrence.value
                if key in seen:
                    if key not in first_fix:
                        first_fix[key] = build.drop_directive(ctx.script, seen[key],
                                                              f"Remove the first `{shown(seen[key])}`")
                    ctx.report(
                        "SB205", option_span(ctx.script, occurrence),
                        f"`{shown(occurrence)}` repeats line {line_no(seen[key])}; remove one"
                        " of them",
                        fix=first_fix[key],
                    )
                    continue
                seen[key] = occurrence
                if occurrence is final or key == final.value or key in reported:
                    continue
                if _accumulates(occurrence, ctx.version):
                    continue
                typed = occurrence.typed
                if (typed is not None and not typed.ok
                        and occurrence.option.kind not in CHECKED_WHEN_EFFECTIVE):
                    continue  # sbatch refuses this value outright; the reject family says so
                reported.add(key)
                ctx.report("SB204", option_span(ctx.script, occurrence), _override_message(occurrence, final),
                           fix=merge_constraints(ctx.script, occurrences, final))


def _same_source(script: Script, occurrences: tuple[Directive, ...]) -> tuple[Directive, ...]:
    """The occurrences from the same source (script, environment, command line) as the first one."""
    first = script.origin_of(occurrences[0].span)
    return tuple(d for d in occurrences if script.origin_of(d.span) is first)


def _accumulates(directive: Directive, version) -> bool:
    if directive.option.long == "mail-type":
        return version < MAIL_TYPE_LAST_WINS
    return directive.option.accumulates


def _override_message(earlier: Directive, final: Directive) -> str:
    name = final.option.long
    old, new = shown(earlier), shown(final)
    head = f"`{old}` is replaced by `{new}` on line {line_no(final)}"
    if name == "constraint":
        merged = f"{earlier.value}&{final.value}" if earlier.value and final.value else None
        tail = (f"; the features `{earlier.value}` are no longer required. To require all of"
                f" them, write one `--constraint={merged}`" if merged else
                "; only the last `--constraint` counts")
        return head + tail
    if name == "partition":
        return (head + f": the job goes to partition `{final.value}` only. To let Slurm use"
                f" whichever is free first, write one `--partition={earlier.value},{final.value}`")
    if name == "time":
        return head + f": the time limit is `{final.value}`, not `{earlier.value}`; keep one `--time`"
    if name in ("mem", "mem-per-cpu", "mem-per-gpu"):
        return (head + f": the job gets `{final.value}`, not `{earlier.value}`; keep one"
                f" `--{name}`")
    if name == "gres":
        return (head + ": `--gres` lines are not merged, only the last one is requested;"
                f" list everything in one option, e.g. `--gres={earlier.value},{final.value}`")
    return head + "; sbatch keeps only the last value of a repeated option, delete the one you do not want"


def _report_mail_type_repeat(ctx: Context, occurrences) -> None:
    # From 25.05 each --mail-type replaces the previous one (before: ORed together).
    final = occurrences[-1]
    lost = [d for d in occurrences[:-1] if d.value != final.value]
    if not lost:
        for earlier, occurrence in zip(occurrences, occurrences[1:]):
            ctx.report("SB205", option_span(ctx.script, occurrence),
                       f"`{shown(occurrence)}` repeats line {line_no(occurrences[0])}; remove one"
                       " of them",
                       fix=build.drop_directive(ctx.script, earlier, f"Remove the first `{shown(earlier)}`"))
        return
    words = []
    for occurrence in occurrences:
        for word in (occurrence.value or "").split(","):
            if word and word.upper() not in (w.upper() for w in words):
                words.append(word)
    merged = ",".join(w.upper() for w in words if w.upper() != "NONE")
    lost_text = ", ".join(f"`{shown(d)}`" for d in lost)
    ctx.report(
        "SB204", option_span(ctx.script, lost[0]),
        f"{lost_text} {'is' if len(lost) == 1 else 'are'} replaced by `{shown(final)}` on line"
        f" {line_no(final)}: from Slurm 25.05 repeated `--mail-type` options no longer add up,"
        f" only the last one counts" + (f"; write one `--mail-type={merged}`" if merged else ""),
    )


# Feature names (and counts) only: no `|`, `[...]`, `*N` or parentheses, whose
# precedence a plain `&` join could change (man sbatch, --constraint).
_PLAIN_AND = lazy_compile(r"[A-Za-z0-9_.:=-]+(?:&[A-Za-z0-9_.:=-]+)*")


def merge_constraints(script: Script, occurrences, final) -> Fix | None:
    """SB204 on ``--constraint``: one option requiring every feature, in place of the last one.

    Unsafe: the user may have meant the later line to replace the earlier one.
    """
    if final.option.long != "constraint" or final.value_span is None:
        return None
    values = [d.value for d in occurrences]
    if not all(v and _PLAIN_AND.fullmatch(v) for v in values):
        return None
    features: list[str] = []
    for value in values:
        features.extend(f for f in value.split("&") if f not in features)
    dropped = delete_directives(script, occurrences[:-1])
    if dropped is None:
        return None
    edits = [replace(script, final.value_span.start, final.value_span.end, "&".join(features)), *dropped]
    return make_fix(f"Require all the features in one `--constraint={'&'.join(features)}`", edits, Applicability.UNSAFE)
