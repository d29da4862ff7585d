r"""SB101–SB105: the script checks sbatch makes before it reads any directive.

``src/sbatch/sbatch.c:_get_script_buffer()`` runs them in this order and
stops at the first failure (exit 1): an empty file, only whitespace, first two
bytes not ``#!``, a NUL byte, a ``\r\n`` line break. An empty or
whitespace-only script makes the later checks meaningless, so those two end the
checking as they do in sbatch; the others are all reported, so one run shows
every reason sbatch would give, in sbatch's order.
"""

from __future__ import annotations

from typing import Iterator

from slurmspec.fix.build import replace
from slurmspec.fix.edit import Fix
from slurmspec.kinds import Fixability, Outcome, Severity
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.model.syntax.script import Script

_C_SPACE = " \t\n\v\f\r"  # C isspace(), which _get_script_buffer() uses


@rule("SB101", "empty-script", Severity.ERROR, Outcome.REFUSED)
def empty_script(ctx: Context) -> None:
    """
        ## What it does
        Finds an empty script file.

        ## Why is this bad?
        sbatch refuses it with `Batch script is empty!`. This usually means the script was
        generated or copied incompletely.

        ## Example
        ```sbatch
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/sbatch/sbatch.c:_get_script_buffer()`
    """
    ctx.shared(_check_script_sanity)


@rule("SB102", "whitespace-only-script", Severity.ERROR, Outcome.REFUSED)
def whitespace_only_script(ctx: Context) -> None:
    """
        ## What it does
        Finds a script that contains nothing but spaces, tabs and newlines.

        ## Why is this bad?
        sbatch refuses it with `Batch script contains only whitespace!`.

        ## Example
        ```sbatch


        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/sbatch/sbatch.c:_get_script_buffer()`
    """
    ctx.shared(_check_script_sanity)


@rule("SB103", "missing-shebang", Severity.ERROR, Outcome.REFUSED, fix=Fixability.ALWAYS)
def missing_shebang(ctx: Context) -> None:
    """
        ## What it does
        Finds scripts whose first two bytes are not `#!`: no interpreter line, an indented one,
        or a UTF-8 byte order mark in front of it.

        ## Why is this bad?
        sbatch refuses the script: "This does not look like a batch script. The first line must
        start with #! followed by the path to an interpreter."

        ## Example
        ```sbatch
        #SBATCH --time=10
        srun ./app
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        #SBATCH --time=10
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/sbatch/sbatch.c:_get_script_buffer()`
    """
    ctx.shared(_check_script_sanity)


@rule("SB104", "nul-byte", Severity.ERROR, Outcome.REFUSED)
def nul_byte(ctx: Context) -> None:
    r"""
        ## What it does
        Finds NUL (`\0`) bytes in the script.

        ## Why is this bad?
        sbatch refuses it: "The Slurm controller does not allow scripts that contain a NULL
        character". They usually come from a file saved as UTF-16 or a binary pasted in.

        ## Example
        ```sbatch
        #!/bin/bash
        srun ./app\x00
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/sbatch/sbatch.c:_get_script_buffer()`
    """
    ctx.shared(_check_script_sanity)


@rule("SB105", "dos-line-breaks", Severity.ERROR, Outcome.REFUSED, fix=Fixability.ALWAYS)
def dos_line_breaks(ctx: Context) -> None:
    r"""
        ## What it does
        Finds `\r\n` (Windows) line endings.

        ## Why is this bad?
        sbatch refuses the script: "Batch script contains DOS line breaks (\r\n) instead of
        expected UNIX line breaks (\n)." A lone `\r` is allowed.

        ## Example
        ```sbatch
        #!/bin/bash\r
        srun ./app\r
        ```

        ## Use instead
        ```sbatch
        #!/bin/bash
        srun ./app
        ```

        ## Slurm versions
        All.

        ## References
        - `src/sbatch/sbatch.c:_get_script_buffer()`
    """
    ctx.shared(_check_script_sanity)


def _check_script_sanity(ctx: Context) -> None:
    """Report SB101–SB105 in ``_get_script_buffer()``'s order; SB101/SB102 end the checking."""
    script = ctx.script
    text = script.to_text()
    if not text:
        ctx.report("SB101", script.span(0, 0), "the script is empty; sbatch refuses it (\"Batch script is empty!\")")
        return
    if not text.strip(_C_SPACE):
        ctx.report(
            "SB102", script.span(0, len(text)),
            "the script contains only whitespace; sbatch refuses it",
        )
        return
    if not text.startswith("#!"):
        first_line_end = text.find("\n")
        end = len(text) if first_line_end == -1 else first_line_end
        detail = _why_no_shebang(text)
        ctx.report(
            "SB103", script.span(0, end),
            f"the first line is not an interpreter line: {detail}; sbatch refuses a script"
            " whose first two bytes are not `#!`",
            fix=_shebang_fix(script, text),
        )
    nul = text.find("\0")
    if nul != -1:
        count = text.count("\0")
        ctx.report(
            "SB104", script.span(nul, nul + 1),
            f"the script contains {_plural(count, 'NUL byte')}; the Slurm controller does not"
            " accept scripts with a NUL character",
        )
    crlf = text.find("\r\n")
    if crlf != -1:
        count = text.count("\r\n")
        ctx.report(
            "SB105", script.span(crlf, crlf + 1),
            f"the script has DOS line breaks (\\r\\n) on {_plural(count, 'line')}; sbatch"
            " refuses it. Convert it with `dos2unix` or save it with Unix line endings",
            fix=Fix(
                title="Convert the DOS line breaks (\\r\\n) to Unix ones (\\n)",
                edits=[replace(script, at, at + 1, "") for at in _crlf_offsets(text)],
            ),
        )


def _why_no_shebang(text: str) -> str:
    if text.startswith("\ufeff"):
        return "it starts with a UTF-8 byte order mark"
    stripped = text.lstrip(" \t")
    if stripped.startswith("#!"):
        return "`#!` is indented"
    if text.startswith("#"):
        return "it is a comment, not `#!/bin/bash`"
    return "there is no `#!` line"


def _crlf_offsets(text: str) -> Iterator[int]:
    at = text.find("\r\n")
    while at != -1:
        yield at
        at = text.find("\r\n", at + 2)


def _shebang_fix(script: Script, text: str) -> Fix:
    """Remove what stands before an existing ``#!``, else add ``#!/bin/bash`` as the first line.

    ``/bin/bash`` because the body is almost always bash (``source``, arrays,
    ``[[``) and every Slurm site's compute nodes have it; sbatch itself only
    needs the ``#!`` (``src/sbatch/sbatch.c:_get_script_buffer()`` checks the
    first two bytes and nothing else). Both fixes reveal: sbatch read nothing of the
    script before, so a problem that appears with them is in the user's text.
    """
    body = text[1:] if text.startswith("\ufeff") else text
    lead = len(text) - len(body)
    stripped = body.lstrip(" \t\n")
    if stripped.startswith("#!"):
        before = len(text) - len(stripped)
        return Fix(title="Remove what comes before the `#!` line", edits=[replace(script, 0, before, "")],
                   reveals=True)
    edits = [replace(script, 0, lead, "#!/bin/bash\n")]
    # sbatch reads nothing of a script without `#!`: what the fix brings to light was there all along.
    return Fix(title="Add `#!/bin/bash` as the first line", edits=edits, reveals=True)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
