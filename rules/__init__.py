"""The rule registry: every rule slurmspec has, in one explicit tuple.

Codes are the public interface: SB0xx parse, SB1xx reject, SB2xx traps,
SB3xx launch, SB4xx cluster, SB9xx meta. A retired code is never reused.
"""

from slurmspec.rules import (
    conflicts, conflicts_gpu, launch, meta, parse, script, spelling, traps_header, traps_output, values,
)

ALL_RULES = (
    *parse.RULES,
    *script.RULES,
    *values.RULES,
    *conflicts.RULES,
    *conflicts_gpu.RULES,
    *traps_header.RULES,
    *spelling.RULES,
    *traps_output.RULES,
    *launch.RULES,
    *meta.RULES,
)
