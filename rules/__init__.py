"""The rule registry: every module that declares rules, listed explicitly.

Codes are the public interface: SB0xx parse, SB1xx reject, SB2xx traps,
SB3xx launch, SB4xx cluster, SB9xx meta; a rule lives in the folder of its
family (``rules/<family>/``), which the registry checks. A retired code is
never reused. ``slurmspec.lint.engine.registry()`` collects the ``@rule``
functions of each module in the order they are declared.
"""

# --- TRANSITIONAL: legacy modules (each block is replaced by its family's modules) ---
from slurmspec.rules import parse, script, values  # H1
from slurmspec.rules import conflicts, conflicts_gpu  # H2
from slurmspec.rules import traps_header, spelling  # H3
from slurmspec.rules import traps_output  # H4
from slurmspec.rules import launch  # H5
# --- end TRANSITIONAL ---
from slurmspec.rules.meta import internal_error, suppressions

MODULES = (
    parse, script, values,  # H1
    conflicts, conflicts_gpu,  # H2
    traps_header, spelling,  # H3
    traps_output,  # H4
    launch,  # H5
    internal_error, suppressions,
)
