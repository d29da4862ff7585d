"""SB251: an option with no value at the end of its line takes the next line's option as its value.

sbatch reads the words of all `#SBATCH` lines as one argument list
(``src/sbatch/opt.c:_opt_batch_script()``), so ``getopt_long`` hands an option
that needs a value the next word even when it is the next line's option (see
``slurmspec/model/syntax/swallowed.py``). When a stray word follows, sbatch refuses the
script and SB007 reports it here, on the line to change; otherwise the job runs
without the swallowed option, and SB251 reports it.

The fix removes the option that has no value: it can set nothing that was
meant (the value it would take is another option), and without it sbatch reads
the next line as written. Safe: the user wrote no value to keep. It is offered
only when the next line, once read, brings no refusal (`#SBATCH -J` then
`#SBATCH --foo`: sbatch accepts a job named `--foo`, and refuses the unknown
`--foo` once `-J` is gone), tried as SB201 tries its moves: the text is read again and sbatch's own
refusing rules run on it; a rule that refuses more often than before is the fix's.
"""

from __future__ import annotations

from collections import Counter

from slurmspec.fix.apply import apply_edits
from slurmspec.fix.build import delete_line, make_fix, replace
from slurmspec.fix.edit import Fix
from slurmspec.kinds import Fixability, Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.syntax.script import Script
from slurmspec.model.syntax.swallowed import Swallow, swallowed_options


@rule("SB251", "option-swallows-next-line", Severity.WARNING, Outcome.WRONG, fix=Fixability.ALWAYS)
def option_swallows_next_line(ctx: Context) -> None:
    """
        ## What it does
        Finds an option that needs a value written with none at the end of its `#SBATCH` line,
        so that sbatch takes the next line's option as its value: `#SBATCH --output` then
        `#SBATCH --exclusive`. (When a stray word follows, as in `#SBATCH --job-name` then
        `#SBATCH --partition batch`, sbatch refuses the script and SB007 reports it on the
        same line.)

        ## Why is this bad?
        sbatch reads the words of every `#SBATCH` line as one list, and an option that needs
        a value takes the next word whatever it is. The log goes to a file named
        `--exclusive`, and the job is not exclusive: the next line's option is silently lost.

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --output
        #SBATCH --exclusive
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --output=slurm-%j.out
        #SBATCH --exclusive
        srun ./app
        ```

        ## Slurm versions
        All (measured on 22.05 and 24.11).

        ## References
        - `src/sbatch/opt.c:_opt_batch_script()` (every directive line's words, then one `getopt_long` pass)
        - `man 3 getopt_long` (a required argument is the next element of argv)
    """
    for swallow in swallowed_options(ctx.script):
        if swallow.stray is None:
            report_swallow(ctx, "SB251", swallow)


def report_swallow(ctx: Context, code: str, swallow: Swallow) -> None:
    """Report ``swallow`` as ``code`` on the option that has no value, with the fix that removes it."""
    directive = swallow.directive
    taken_line = directive.value_span.line if directive.value_span else directive.line + 1
    if swallow.stray is None:
        effect = f": `{swallow.taken}` itself is never applied"
    else:
        stray = ctx.script.source[swallow.stray.span.start:swallow.stray.span.end]
        effect = (f" and then refuses the script on the stray `{stray}` (\"Invalid directive found in"
                  " batch script\")")
    ctx.report(
        code, ctx.script.span(_option_start(ctx.script, directive), directive.name_span.end),
        f"`{directive.spelling}` has no value on its line, so sbatch takes line {taken_line}'s"
        f" `{swallow.taken}` as its value{effect}. Give `{directive.spelling}` a value, or remove it",
        fix=_safe(ctx, drop_valueless_option(ctx.script, swallow)),
    )


def drop_valueless_option(script: Script, swallow: Swallow) -> Fix | None:
    """Remove the option word that has no value (its whole line when it is the only word)."""
    directive = swallow.directive
    dline = script.directive_line_at(directive.name_span.start)
    if dline is None or not dline.words:
        return None
    start = _option_start(script, directive)
    own = [word for word in dline.words if word.span.start <= start < word.span.end]
    if len(own) != 1 or own[0].span.start != start or own[0].span.end != directive.name_span.end:
        return None  # part of a bundle (`-vJ`): not cut out alone
    index = dline.words.index(own[0])
    if len(dline.words) == 1:
        edit = delete_line(script, dline.line)
    else:
        edit = replace(script, dline.words[index - 1].span.end, own[0].span.end, "")
    # Removing the option only lets sbatch read the next line's option as the user wrote it: a
    # finding that then appears (a second `--constraint` overriding the first, SB204) was in the
    # script all along, so the fix reveals it (slurmspec/fix/loop.py) rather than causing it.
    return make_fix(f"Remove `{directive.spelling}`, which has no value", [edit], reveals=True)


def _option_start(script: Script, directive) -> int:
    """Where the option word starts: the `-` of a short option (`-J`) is outside its name's span."""
    start = directive.name_span.start
    if not directive.spelling.startswith("--") and script.source[start - 1:start] == "-":
        start -= 1
    return start


def _safe(ctx: Context, fix: Fix | None) -> Fix | None:
    """``fix`` unless the next line, read as written once the option is gone, brings a refusal.

    Each try reads the script again, so only the first ``_TRIED`` options of a script are tried
    (the rest get no fix: linear work whatever the script), and none inside another try.
    """
    if fix is None or ctx.trying:
        return None
    tried = ctx.shared(_tries)
    tried.append(fix)
    if len(tried) > _TRIED:
        return None
    from slurmspec.parser.script import parse_script

    script = ctx.script
    before = ctx.shared(_refusing_codes)
    after = Counter(d.code for d in ctx.refusals_in(
        parse_script(apply_edits(script.source, fix.edits), script.path, script.version)))
    return None if any(count > before[code] for code, count in after.items()) else fix


_TRIED = 8


def _tries(ctx: Context) -> list:
    return []


def _refusing_codes(ctx: Context) -> Counter:
    """How often each client-side refusing rule fires on the script as it is."""
    return Counter(d.code for d in ctx.refusals_in(ctx.script))
