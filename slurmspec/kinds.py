"""Every closed set of kinds the project compares across modules, as enums.

Each enum mixes in ``str`` so that a member *is* its public spelling: JSON,
SARIF and the configuration see ``"error"``, ``"refused"``, ``"unsafe"``, and a
value read from a file converts with ``Severity("error")``. Code compares
members (``severity is Severity.ERROR``), never spelled strings, so a typo is
an ``AttributeError`` at import time instead of a guard that never fires.
"""

from __future__ import annotations

from enum import Enum


class _Kind(str, Enum):
    """A ``str`` enum whose ``str()``/``format()`` is its value on every Python (3.10's and 3.12's differ)."""

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


class Severity(_Kind):
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"

    @property
    def rank(self) -> int:
        return _SEVERITY_ORDER.index(self)


_SEVERITY_ORDER = (Severity.INFO, Severity.WARNING, Severity.ERROR)


class Outcome(_Kind):
    """What happens to the job when the finding is true."""

    REFUSED = "refused"  # sbatch, or the controller at submission, refuses it
    PENDS = "pends"  # accepted, never starts
    FAILS = "fails"  # starts, then fails (no log folder on 22.05, a bad interpreter)
    WRONG = "wrong"  # runs, but not as meant (idle GPUs, one rank, ignored directives)
    ADVICE = "advice"  # runs as meant; a better way exists


class Role(_Kind):
    """A part a rule plays for the engine, the suppressions, the editors or emit.

    They find the rule by its role, so a rule's code is written in rules/ only
    (``slurmspec.lint.engine.code_of``).
    """

    INTERNAL_ERROR = "internal-error"  # a rule raised: its findings are missing
    FILE_TOO_LARGE = "file-too-large"  # past slurmctld's script size: nothing else is read
    SCRIPT_TOO_LONG = "script-too-long"  # past what slurmspec analyses
    UNUSED_SUPPRESSION = "unused-suppression"
    UNKNOWN_SUPPRESSION = "unknown-suppression"
    MALFORMED_SUPPRESSION = "malformed-suppression"
    REQUIRED_OPTION = "required-option"  # a site requires an option (emit says it in the spec's words)


class Family(_Kind):
    """A rule's family; the code's third character says which (SB0xx parse … SB9xx meta)."""

    PARSE = "parse"
    REJECT = "reject"
    TRAPS = "traps"
    LAUNCH = "launch"
    CLUSTER = "cluster"
    META = "meta"
    SHELLCHECK = "shellcheck"  # SCxxxx findings from the ShellCheck bridge

    @classmethod
    def of_code(cls, code: str) -> "Family":
        if code.startswith("SC"):
            return cls.SHELLCHECK
        return _FAMILY_DIGITS[code[2]]


_FAMILY_DIGITS = {
    "0": Family.PARSE, "1": Family.REJECT, "2": Family.TRAPS,
    "3": Family.LAUNCH, "4": Family.CLUSTER, "9": Family.META,
}
FAMILY_DIGITS = {family: digit for digit, family in _FAMILY_DIGITS.items()}


class Fixability(_Kind):
    """Whether a rule's findings come with a fix (as ruff's ``FixAvailability``)."""

    NONE = "none"
    SOMETIMES = "sometimes"
    ALWAYS = "always"


class Applicability(_Kind):
    """How sure a fix is (as ruff's): ``safe`` with ``--fix``, ``unsafe`` with ``--unsafe-fixes``, else never."""

    SAFE = "safe"
    UNSAFE = "unsafe"
    DISPLAY_ONLY = "display-only"


class ArgKind(_Kind):
    """How an option takes its argument (getopt's ``has_arg``)."""

    NONE = "none"
    REQUIRED = "required"
    OPTIONAL = "optional"


class UntypedGpus(_Kind):
    """What a site policy says happens to a GPU request without a type (``--gpus=4``)."""

    REFUSED = "refused"  # the site's submit plugin refuses the job
    REWRITTEN = "rewritten"  # the site gives the job its default type


class EnforcePartLimits(_Kind):
    """slurm.conf ``EnforcePartLimits``: whether slurmctld refuses a job over a partition's limits at submission.

    ``NO`` (Slurm's default) accepts such a job and leaves it pending; ``ANY``
    refuses it when no requested partition can take it, ``ALL`` when any
    requested partition cannot (man slurm.conf, EnforcePartLimits).
    """

    NO = "NO"
    ANY = "ANY"
    ALL = "ALL"


class OutputFormat(_Kind):
    """A ``slurmspec lint --format`` (slurmspec/report/: one module per format)."""

    TEXT = "text"
    CONCISE = "concise"
    JSON = "json"
    SARIF = "sarif"
    GITHUB = "github"
    GITLAB = "gitlab"


class TemplateStyle(_Kind):
    """How a job template marks what its generator fills in (slurmspec/parser/templates.py)."""

    JINJA = "jinja"  # {{ name }}, {% if %} ... {% endif %}, {# comment #}
    MARKER = "marker"  # XXXnameXXX
    AT_MARKER = "at-marker"  # @NAME@
    ANGLE = "angle"  # <your account>, in a directive


class LineKind(_Kind):
    """What one logical line of a script is, named after the grammar's terminals (grammar/)."""

    SHEBANG = "shebang"
    DIRECTIVE = "directive"  # "#SBATCH" at column 0
    LEGACY_DIRECTIVE = "legacy-directive"  # "#SLURM": honoured with a warning
    NEAR_MISS = "near-miss"  # "# SBATCH", "#sbatch", indented "#SBATCH": ignored
    COMMENT = "comment"
    BLANK = "blank"  # whitespace only (possibly a lone "\r")
    EMPTY = "empty"  # nothing before the newline
    COMMAND = "command"  # shell; may span several physical lines via "\"


class ValueKind(_Kind):
    """The syntax of an option's value: one typed-value parser each (``slurmspec.model.values.PARSERS``)."""

    STRING = "string"
    COUNT = "count"
    COUNT0 = "count0"
    NODE_COUNT = "node-count"
    DURATION = "duration"
    DELAY_BOOT = "delay-boot"
    DATETIME = "datetime"
    MEMORY = "memory"
    FILENAME = "filename"
    GRES = "gres"
    GPUS = "gpus"
    TRES_PER_TASK = "tres-per-task"
    CONSTRAINT = "constraint"
    ARRAY = "array"
    DEPENDENCY = "dependency"
    SIGNAL = "signal"
    DISTRIBUTION = "distribution"
    MAIL_TYPE = "mail-type"
    OPEN_MODE = "open-mode"
    HINT = "hint"
    PROFILE = "profile"
    PROPAGATE = "propagate"
    GRES_FLAGS = "gres-flags"
    KILL_ON_INVALID_DEP = "kill-on-invalid-dep"
    WAIT_ALL_NODES = "wait-all-nodes"
    NO_KILL = "no-kill"
    EXCLUSIVE = "exclusive"
    GET_USER_ENV = "get-user-env"
    REQUEUE = "requeue"
    OOM_KILL_STEP = "oom-kill-step"
    EXPORT = "export"
    RESV_PORTS = "resv-ports"
    GPU_BIND = "gpu-bind"
    MEM_BIND = "mem-bind"
    CPU_FREQ = "cpu-freq"
    GPU_FREQ = "gpu-freq"
    ACCTG_FREQ = "acctg-freq"
    EXTRA_NODE_INFO = "extra-node-info"
    SWITCHES = "switches"
    SEGMENT = "segment"
    MEM_UPDATE = "mem-update"
    TRES_BIND = "tres-bind"
    NICE = "nice"
    PRIORITY = "priority"


class ExportMode(_Kind):
    """What ``--export`` passes to the job (``man sbatch``, ``--export``)."""

    ALL = "ALL"  # the submitting shell's whole environment (the default)
    NONE = "NONE"  # none of it; the job's steps then read SLURM_EXPORT_ENV=NONE too
    NIL = "NIL"  # none, and no SLURM_EXPORT_ENV for the steps (23.02+)
    LIST = "LIST"  # the named variables (``ALL,`` first: those on top of everything)


class ConstraintGroup(_Kind):
    """How a ``--constraint`` group is enclosed."""

    BRACKET = "bracket"  # ``[a|b]``: one of them for all nodes, or ``[a*1&b*2]`` counts
    PAREN = "paren"  # ``(a|b)&c``: plain grouping


class IssueKind(_Kind):
    """Why the parser could not read a directive as sbatch would (each maps to one SB0xx rule)."""

    UNKNOWN_OPTION = "unknown-option"
    PLUGIN_OPTION = "plugin-option"  # unknown to a stock sbatch; a known site plugin provides it
    SRUN_ONLY_OPTION = "srun-only-option"
    OPTION_NOT_IN_VERSION = "option-not-in-version"
    AMBIGUOUS_OPTION = "ambiguous-option"
    MISSING_ARGUMENT = "missing-argument"
    UNEXPECTED_ARGUMENT = "unexpected-argument"
    STRAY_WORD = "stray-word"
    UNMATCHED_QUOTE = "unmatched-quote"
    LEADING_COLON = "leading-colon"
    BAD_SHORT_OPTION = "bad-short-option"


class SuppressionKind(_Kind):
    """What a ``# slurmspec: ...`` comment silences (slurmspec/lint/suppress.py)."""

    LINE = "line"  # ``ignore[...]``: the findings on its line (or the next one)
    FILE = "file"  # ``file-ignore[...]``: the whole file


class GpuBindKind(_Kind):
    """How a step's GPUs are split between the tasks of a node (``slurmspec.model.job.types.GpuBind``)."""

    PER_TASK = "per_task"  # ``per_task:N`` (what ``--gpus-per-task=N`` implies): N GPUs each
    SINGLE = "single"  # ``single:N`` (what ``--ntasks-per-gpu=N`` implies): N tasks share a GPU
    MAP_GPU = "map_gpu"  # ``map_gpu:<ids>``: the listed GPU per local task, round robin
    NONE = "none"  # no binding: no CUDA_VISIBLE_DEVICES at all
    OTHER = "other"  # a binding the job model does not follow (``closest``, ``mask_gpu``...)


class AssignmentKind(_Kind):
    """How the script body sets a variable (``slurmspec.body``)."""

    SHELL = "shell"  # ``X=1``: the shell's own, seen by its later commands but not by the programs it runs
    EXPORT = "export"  # ``export X=1`` (or ``declare -x``): every later program sees it
    PREFIX = "prefix"  # ``X=1 cmd``: in the environment of that one command only


class LaunchKind(_Kind):
    """A launcher the body analysis recognises (``mpiexec``, ``python3 -m torch.distributed.run`` … map onto these)."""

    SRUN = "srun"
    MPIRUN = "mpirun"
    TORCHRUN = "torchrun"
    HOROVODRUN = "horovodrun"
    ACCELERATE = "accelerate"
    DEEPSPEED = "deepspeed"
    PYTHON = "python"


class Origin(_Kind):
    """Where sbatch reads an option from, in the order it applies them (later ones win)."""

    SCRIPT = "script"  # the #SBATCH lines
    ENVIRONMENT = "environment"  # SBATCH_* input environment variables
    COMMAND_LINE = "command-line"  # sbatch's own arguments
