"""Options left without a value at the end of a `#SBATCH` line, which take the next line's option.

sbatch gathers the words of every `#SBATCH` line into one argument list before
it runs ``getopt_long`` over them (``src/sbatch/opt.c:_opt_batch_script()``),
and getopt gives an option that requires a value the next word, whatever it
looks like. So `#SBATCH --job-name` followed by `#SBATCH --partition batch`
names the job `--partition`, and the stray `batch` then stops sbatch with
"Invalid directive found in batch script: batch"; `#SBATCH --output` followed
by `#SBATCH --exclusive` writes the log to a file named `--exclusive` and the
job is not exclusive. Measured on 22.05 and 24.11
(``tests/rules/test_recall_on_slurm.py``).
"""

from __future__ import annotations


from slurmspec.frozen import frozen
from slurmspec.kinds import ArgKind, IssueKind
from slurmspec.lazy_regex import lazy_compile
from slurmspec.model.syntax.memo import per_script
from slurmspec.model.syntax.script import Directive, ParseIssue, Script

_OPTION_WORD = lazy_compile(r"-{1,2}[A-Za-z]")
_BLANKS = lazy_compile(r"[ \t]*")


@frozen
class Swallow:
    """``directive`` has no value on its own line and took ``taken`` (an option word) from a later one."""

    directive: Directive
    stray: ParseIssue | None  # the word right after the taken one, when sbatch stops there (the script is refused)

    @property
    def taken(self) -> str:
        return self.directive.value or ""


@per_script
def swallowed_options(script: Script) -> tuple[Swallow, ...]:
    """Every option of the header that took the next line's option as its value, in source order. O(options)."""
    strays = {issue.span.start: issue for issue in script.issues
              if issue.kind is IssueKind.STRAY_WORD and not issue.ignored}
    found = []
    for directive in script.directives:
        span = directive.value_span
        if (directive.ignored or span is None or directive.option.argument is not ArgKind.REQUIRED
                or span.line == directive.name_span.line or directive.value is None
                or not _OPTION_WORD.match(directive.value)):
            continue
        after = _BLANKS.match(script.source, span.end).end()
        found.append(Swallow(directive, strays.get(after)))
    return tuple(found)
