"""SB001: an `#SBATCH` option sbatch does not know, with a did-you-mean respelling.

sbatch parses the directive words with glibc ``getopt_long`` over the option
table of ``src/common/slurm_opt.c``; an unknown long option makes it print
``unrecognized option`` and refuse the script.
"""

from __future__ import annotations

from slurmspec.fix.build import reads_cleanly, replace
from slurmspec.fix.edit import Fix
from slurmspec.kinds import Applicability, Fixability, IssueKind, Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.catalogue.options import lookup
from slurmspec.model.syntax.script import ParseIssue
from slurmspec.rules.parse._plugins import UNKNOWN_KINDS, option_name, site_provides

# sbatch refuses two of these together (src/common/slurm_opt.c, "--mem, --mem-per-cpu, and
# --mem-per-gpu are mutually exclusive"): respelling one beside another would turn an
# unknown-option refusal into a memory-conflict refusal (SB125), so no fix is offered.
_EXCLUSIVE_MEMORY = frozenset(("mem", "mem-per-cpu", "mem-per-gpu"))


@rule("SB001", "unknown-option", Severity.ERROR, Outcome.REFUSED, fix=Fixability.SOMETIMES)
def unknown_option(ctx: Context) -> None:
    """
        ## What it does
        Finds `#SBATCH` options that sbatch does not know, and suggests the closest real option.

        ## Why is this bad?
        sbatch parses every directive with `getopt_long`; an unknown option makes it print
        `unrecognized option` and refuse the whole script, so the job never reaches the queue.

        An option that a known site plugin provides (pyxis' `--container-image`, Shifter's
        `--image`, CSCS's `--uenv`, OSC's `--gpu_cmode` ...) is a warning that says so: sbatch
        accepts it on a site whose plugin provides it and refuses it everywhere else. With a
        cluster profile that lists the site's plugin options (`plugin-options`, read by
        `slurmspec cluster import` from the site's `sbatch --help`), a listed option is not
        reported and every other unknown option is an error.

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
        - `src/common/spank.c` (plugin options join the table; `sbatch --help` lists them under
          "Options provided by plugins:")
    """
    for issue in ctx.script.issues:
        if issue.ignored or issue.kind not in UNKNOWN_KINDS:
            continue
        provided = site_provides(ctx, issue)
        if provided is True:
            continue  # the cluster profile lists it: the site's plugin gives sbatch this option
        if provided is False:
            name = option_name(ctx, issue)
            ctx.report("SB001", issue.span,
                       f"`--{name}` is not an option of {ctx.cluster.name}'s sbatch (neither built in nor one of its"
                       f" plugins' options in the cluster profile); sbatch rejects the script",
                       fix=_respell(ctx, issue))
        elif issue.kind is IssueKind.PLUGIN_OPTION:
            # Written for a site whose plugin provides it: refused only elsewhere, so not an error here.
            ctx.report("SB001", issue.span, issue.message, severity=Severity.WARNING)
        else:
            ctx.report("SB001", issue.span, issue.message, fix=_respell(ctx, issue))


_PREFIX = "#SBATCH"


def _memory_options(ctx: Context) -> frozenset[str]:
    """The memory options the script sets (once per script: asked per misspelt option)."""
    return frozenset(d.option.long for d in ctx.script.directives if d.option.long in _EXCLUSIVE_MEMORY)


def _respell(ctx: Context, issue: ParseIssue) -> Fix | None:
    """Write the one did-you-mean candidate instead (unsafe: the closest name is a guess).

    Not offered when there is no single candidate, nor when the respelt line
    would not read cleanly — a flag given a value (``--hodl=yes`` is not
    ``--hold=yes``: SB006), ``--nodes2`` at the end of a line becoming ``--nodes``
    without its value (SB005) — or would set an option the script already sets
    (the respelt line would silently replace that value, SB204, and which one was
    meant is the user's call).
    """
    if len(issue.candidates) != 1 or not issue.candidates[0].startswith("--"):
        return None
    candidate = issue.candidates[0]
    spec = lookup(candidate[2:])
    written = ctx.script.source[issue.span.start:issue.span.end]
    if spec is None or not written.startswith("--") or "=" in written:
        return None
    dline = ctx.script.directive_line_at(issue.span.start)
    line = None if dline is None else dline.line
    if line is None or not line.text.startswith(_PREFIX):
        return None
    start, end = issue.span.start - line.span.start, issue.span.end - line.span.start
    respelt = (line.text[:start] + candidate + line.text[end:])[len(_PREFIX):]
    if not reads_cleanly(respelt, ctx.version, ctx.script, (line.span.start, line.span.end)):
        return None
    if spec.long in _EXCLUSIVE_MEMORY and ctx.shared(_memory_options) - {spec.long}:
        return None
    return Fix(title=f"Write `{candidate}` for `{written}`",
               edits=[replace(ctx.script, issue.span.start, issue.span.end, candidate)],
               applicability=Applicability.UNSAFE)
