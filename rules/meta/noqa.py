"""SB904: a ``# noqa: SB...`` comment, which slurmspec does not read.

People who know flake8 and ruff write ``# noqa: SB219`` and expect the finding
to go away; slurmspec only reads ``# slurmspec: ignore[...]``, so the noqa
silenced nothing and said nothing about it. This rule says so, and its fix
rewrites the comment into the spelling slurmspec reads.

Only a ``noqa`` that names at least one ``SB`` code is reported: such a
comment can only be meant for slurmspec, so the finding is never a false
alarm. A bare ``# noqa`` or one naming only other tools' codes is left alone.
"""

from __future__ import annotations

import re

from slurmspec.fix.build import replace
from slurmspec.fix.edit import Fix
from slurmspec.kinds import Fixability, Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.lazy_regex import lazy_compile
from slurmspec.model.syntax.comments import line_comments  # the same comments suppressions read

_QUICK = re.compile(r"noqa", re.IGNORECASE)
# flake8/ruff's shape: "# noqa: CODE[, CODE...]" (commas or spaces between codes).
_NOQA = lazy_compile(
    r"#[ \t]*noqa[ \t]*:[ \t]*(?P<codes>[A-Za-z]+[0-9]+(?:(?:[ \t]*,[ \t]*|[ \t]+)[A-Za-z]+[0-9]+)*)",
    re.IGNORECASE,
)
_CODE = lazy_compile(r"[A-Za-z]+[0-9]+")
_SB_CODE = lazy_compile(r"SB[0-9]{3}", re.IGNORECASE)
_SHELLCHECK_CODE = lazy_compile(r"SC[0-9]{4}", re.IGNORECASE)


@rule("SB904", "noqa-comment", Severity.INFO, Outcome.ADVICE, fix=Fixability.SOMETIMES)
def noqa_comment(ctx: Context) -> None:
    """
        ## What it does
        Finds `# noqa: SB219`-style comments that name a slurmspec code. slurmspec does not read
        `noqa`; its suppression comment is `# slurmspec: ignore[SB219] reason`. The fix rewrites
        the comment to that spelling when every code in it is one slurmspec knows (its own
        codes, and ShellCheck's `SCxxxx`, which `--shellcheck` reports).

        ## Why is this bad?
        The `noqa` looks as if it silences the finding but silences nothing, and nothing else
        says so: the finding it was meant for is still reported, and the comment misleads the
        next reader. Only a `noqa` naming an `SB` code is reported, since it can only have been
        meant for slurmspec; a bare `# noqa` or one naming only other tools' codes is left alone.
        A `noqa` that also names codes slurmspec does not know gets no fix: the comment may be
        meant for another tool too. After the fix, the comment is an ordinary suppression: alone
        on its line it covers the next line, as any `# slurmspec: ignore[...]` does, and a code
        nothing reports there is then reported as unused (SB901).

        ## Example
        ```sbatch
        #!/bin/bash
        #SBATCH --part=gpu  # noqa: SB219
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --part=gpu  # slurmspec: ignore[SB219]
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - README, "Suppressing findings"
        - ruff's `# noqa` comments, whose spelling this rule recognises
    """
    script = ctx.script
    source = script.source
    if not _QUICK.search(source):
        return
    known = ctx.rules_by_code
    for start, end in _comment_regions(script):
        for match in _NOQA.finditer(source, start, end):
            codes = _CODE.findall(match.group("codes"))
            ours = [code.upper() for code in codes if _SB_CODE.fullmatch(code)]
            if not ours:
                continue
            spelling = f"# slurmspec: ignore[{', '.join(code.upper() for code in codes)}]"
            foreign = [code for code in codes if code.upper() not in known and not _SHELLCHECK_CODE.fullmatch(code)]
            fix = None
            if not foreign:
                fix = Fix(title=f"Write `{spelling}`",
                          edits=[replace(script, match.start(), match.end(), spelling)],
                          # The comment becomes a suppression the user wrote: a code nothing
                          # reports on its line was a stale noqa all along (SB901 says so).
                          reveals=True)
            ctx.report(
                "SB904", script.span(match.start(), match.end()),
                f"slurmspec does not read `noqa`, so `{source[match.start():match.end()]}` suppresses "
                f"nothing; write `# slurmspec: ignore[{', '.join(ours)}]`"
                + (f" (no fix: {', '.join(f'`{code}`' for code in foreign)} is not a slurmspec code)" if foreign else ""),
                fix=fix,
            )


def _comment_regions(script):
    """(start, end) of each comment in the script, where the shell (or sbatch) ends the line's text."""
    source = script.source
    for line in script.lines:
        start, end = line.span.start, line.span.end
        if not _QUICK.search(source, start, end):
            continue
        yield from line_comments(script, line)
