"""The invocation layer a ``Script`` carries when it was parsed with sbatch arguments or environment.

``Script.invocation`` is None for a plain parse. When set, it owns the two
synthetic sources (``slurmspec.invocation.sources``), answers which source an
offset is in, and remembers which ``#SBATCH`` occurrences the environment or
the command line replaced or cancelled, so findings on those lines can say so.
"""

from __future__ import annotations

from slurmspec.frozen import frozen
from slurmspec.invocation.sources import SyntheticSource
from slurmspec.kinds import Origin
from slurmspec.model.syntax.script import Directive
from slurmspec.span import Span


@frozen(eq=False)
class InvocationLayer:
    script_length: int
    environment: SyntheticSource
    command_line: SyntheticSource
    # (an #SBATCH occurrence, the later occurrence or environment reset that replaced it)
    replaced: tuple[tuple[Directive, object], ...] = ()

    @property
    def sources(self) -> tuple[SyntheticSource, SyntheticSource]:
        return (self.environment, self.command_line)

    def origin_of(self, offset: int) -> Origin:
        if offset <= self.script_length:
            return Origin.SCRIPT
        return Origin.ENVIRONMENT if offset <= self.environment.end else Origin.COMMAND_LINE

    def source(self, origin: Origin) -> SyntheticSource | None:
        return {Origin.ENVIRONMENT: self.environment, Origin.COMMAND_LINE: self.command_line}.get(origin)

    def span(self, start: int, end: int) -> Span:
        source = self.environment if self.origin_of(start) is Origin.ENVIRONMENT else self.command_line
        return source.span(start, min(end, source.end))

    def source_named(self, name: str | None) -> SyntheticSource | None:
        return next((s for s in self.sources if s.name == name), None)
