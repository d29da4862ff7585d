"""SB906: the file is a job template; what sbatch reads is the script rendered from it.

The parser recognises the template (slurmspec/parser/templates.py): its placeholders are values
slurmspec does not know and its control lines are not commands. This rule only says so, once.
"""

from __future__ import annotations

from slurmspec.kinds import Outcome, Severity, TemplateStyle
from slurmspec.check.context import Context
from slurmspec.check.rule import rule
from slurmspec.span import Span

_STYLES = {
    TemplateStyle.JINJA: "Jinja",
    TemplateStyle.MARKER: "`XXXnameXXX` markers",
    TemplateStyle.AT_MARKER: "`@NAME@` markers",
    TemplateStyle.ANGLE: "`<...>` placeholders",
}


@rule("SB906", "job-template", Severity.INFO, Outcome.ADVICE)
def job_template(ctx: Context) -> None:
    """
    ## What it does
    Says, once, that the file is a job template: Jinja (`{{ name }}`, `{% if gpus %}`,
    `{# ... #}`), `XXXnameXXX` or `@NAME@` markers a script substitutes, or `<your account>`
    placeholders in `#SBATCH` lines. slurmspec reads it as the rendered script would read: a
    placeholder is a value it does not know (never an error), a `{% ... %}` or `{# ... #}` line
    is neither a command nor the end of the `#SBATCH` header.

    ## Why is this bad?
    It is not bad: it says what was and was not checked. sbatch reads the rendered script, not
    the template; a value that is only known once rendered (`--time={{ hours }}:00:00`) is not
    checked here. Lint the rendered script (or `slurmspec lint -` on the generator's output) to
    check those values too. Submitted as it is, the template is refused or misread: sbatch
    takes `{% if gpus %}` for the first command and stops reading directives there.

    ## Example
    ```sbatch
    #!/bin/bash
    #SBATCH --job-name={{ name }}
    {% if gpus %}
    #SBATCH --gpus-per-node={{ gpus }}
    {% endif %}
    srun python train.py
    ```

    ## Use instead
    ```sbatch
    #!/bin/bash
    #SBATCH --job-name=train
    #SBATCH --gpus-per-node=4
    srun python train.py
    ```

    ## Slurm versions
    All.

    ## References
    - `man sbatch`: "#SBATCH directives are read directly by Slurm, so shell-specific syntax
      including variable names will be read as literal text"
    - Jinja template designer documentation (delimiters `{{ }}`, `{% %}`, `{# #}`)
    """
    template = ctx.script.template
    if template is None:
        return
    styles = ", ".join(_STYLES[style] for style in template.styles)
    first = _first(ctx, template)
    ctx.report(
        "SB906", first,
        f"this file is a job template ({styles}); sbatch reads the script rendered from it, so each placeholder"
        " is taken as a value not known yet and template control lines as neither commands nor directives:"
        " lint the rendered script to check those values too",
    )


def _first(ctx: Context, template) -> Span:
    """The span of the template's first placeholder or control line."""
    starts = [p.start for p in template.placeholders]
    ends = {p.start: p.end for p in template.placeholders}
    script = ctx.script
    for line in script.lines:
        if line.number in template.control_lines:
            starts.append(line.span.start)
            ends[line.span.start] = line.span.end
            break
    start = min(starts)
    return script.index.span(start, ends[start])
