"""The sbatch option catalogue: names, argument kinds, value types and the versions they exist in.

Facts come from Slurm's option table (``src/common/slurm_opt.c:common_options[]``)
as summarised in ../shared/reference/sbatch-options.tsv and slurm-semantics.md §1, §7.
"""

from __future__ import annotations

from functools import lru_cache

import attrs

from slurmspec.frozen import frozen
from slurmspec.gates import (
    EXPORT_FILE_REMOVED,
    EXPORT_FILE_RESTORED,
    GET_USER_ENV_TAKES_NO_ARGUMENT,
    REQUEUE_TAKES_OPTIONAL_ARGUMENT,
)
from slurmspec.kinds import ArgKind, ValueKind
from slurmspec.version import Version

NONE, REQUIRED, OPTIONAL = ArgKind.NONE, ArgKind.REQUIRED, ArgKind.OPTIONAL

# Row format: long, short, argument, value kind, flags, since, until, env var.
#   argument  N = no argument, R = required, O = optional (only with "=")
#   kind      name of the typed-value parser (slurmspec.model.values.PARSERS)
#   flags     E = early-pass option: sbatch ignores it inside #SBATCH
#             C = reset for every hetjob component, not inherited from the previous
#                 one (slurm_opt.c reset_each_pass; note --mem, --time, --exclude are inherited)
#             A = repeated occurrences accumulate instead of replacing
#   since     first Slurm release that has the option; until: first release without it
_TABLE = """\
account              A R string              -  22.05 -     SBATCH_ACCOUNT
acctg-freq           - R acctg-freq          -  22.05 -     SBATCH_ACCTG_FREQ
array                a R array               -  22.05 -     SBATCH_ARRAY_INX
batch                - R constraint          -  22.05 -     SBATCH_BATCH
bb                   - R string              C  22.05 -     SBATCH_BURST_BUFFER
bbf                  - R string              -  22.05 -     -
begin                b R datetime            -  22.05 -     -
chdir                D R string              -  22.05 -     -
cluster-constraint   - R constraint          -  22.05 -     SBATCH_CLUSTER_CONSTRAINT
clusters             M R string              -  22.05 -     SBATCH_CLUSTERS
comment              - R string              -  22.05 -     -
constraint           C R constraint          C  22.05 -     SBATCH_CONSTRAINT
container            - R string              -  22.05 -     SBATCH_CONTAINER
context              - R string              -  22.05 -     -
contiguous           - N -                   C  22.05 -     -
core-spec            S R count0              C  22.05 -     SBATCH_CORE_SPEC
cores-per-socket     - R count               C  22.05 -     -
cpu-freq             - R cpu-freq            C  22.05 -     SBATCH_CPU_FREQ_REQ
cpus-per-gpu         - R count               C  22.05 -     SBATCH_CPUS_PER_GPU
cpus-per-task        c R count               C  22.05 -     -
deadline             - R datetime            -  22.05 -     -
delay-boot           - R delay-boot            -  22.05 -     SBATCH_DELAY_BOOT
dependency           d R dependency          -  22.05 -     -
distribution         m R distribution        C  22.05 -     SBATCH_DISTRIBUTION
error                e R filename            -  22.05 -     SBATCH_ERROR
exclude              x R string              -  22.05 -     -
exclusive            - O exclusive           C  22.05 -     SBATCH_EXCLUSIVE
export               - R export              -  22.05 -     SBATCH_EXPORT
export-file          - R string              -  22.05 -     -
extra-node-info      B R extra-node-info     C  22.05 -     -
get-user-env         - O get-user-env        -  22.05 -     SBATCH_GET_USER_ENV
gid                  - R string              -  22.05 -     -
gpu-bind             - R gpu-bind            C  22.05 -     SBATCH_GPU_BIND
gpu-freq             - R gpu-freq            C  22.05 -     SBATCH_GPU_FREQ
gpus                 G R gpus                C  22.05 -     SBATCH_GPUS
gpus-per-node        - R gpus                C  22.05 -     SBATCH_GPUS_PER_NODE
gpus-per-socket      - R gpus                C  22.05 -     SBATCH_GPUS_PER_SOCKET
gpus-per-task        - R gpus                C  22.05 -     SBATCH_GPUS_PER_TASK
gres                 - R gres                C  22.05 -     SBATCH_GRES
gres-flags           - R gres-flags          C  22.05 -     SBATCH_GRES_FLAGS
help                 h N -                   E  22.05 -     -
hint                 - R hint                C  22.05 -     SBATCH_HINT
hold                 H N -                   -  22.05 -     -
ignore-pbs           - N -                   -  22.05 -     SBATCH_IGNORE_PBS
input                i R filename            -  22.05 -     SBATCH_INPUT
job-name             J R string              -  22.05 -     SBATCH_JOB_NAME
kill-on-invalid-dep  - R kill-on-invalid-dep A  22.05 -     -
licenses             L R string              C  22.05 -     -
mail-type            - R mail-type           AC 22.05 -     -
mail-user            - R string              C  22.05 -     -
mcs-label            - R string              -  22.05 -     -
mem                  - R memory              -  22.05 -     SBATCH_MEM_PER_NODE
mem-bind             - R mem-bind            C  22.05 -     SBATCH_MEM_BIND
mem-per-cpu          - R memory              C  22.05 -     SBATCH_MEM_PER_CPU
mem-per-gpu          - R memory              C  22.05 -     SBATCH_MEM_PER_GPU
mincpus              - R count               C  22.05 -     -
network              - R string              C  22.05 -     SBATCH_NETWORK
nice                 - O nice                -  22.05 -     -
no-kill              k O no-kill             -  22.05 -     SBATCH_NO_KILL
no-requeue           - N -                   -  22.05 -     SBATCH_NO_REQUEUE
nodefile             F R string              C  22.05 -     -
nodelist             w R string              C  22.05 -     -
nodes                N R node-count          C  22.05 -     -
ntasks               n R count               C  22.05 -     -
ntasks-per-core      - R count               C  22.05 -     -
ntasks-per-gpu       - R count               C  22.05 -     -
ntasks-per-node      - R count               C  22.05 -     -
ntasks-per-socket    - R count               C  22.05 -     -
ntasks-per-tres      - R count               C  22.05 -     -
open-mode            - R open-mode           -  22.05 -     SBATCH_OPEN_MODE
output               o R filename            -  22.05 -     SBATCH_OUTPUT
overcommit           O N -                   C  22.05 -     SBATCH_OVERCOMMIT
oversubscribe        s N -                   C  22.05 -     -
parsable             - N -                   -  22.05 -     -
partition            p R string              C  22.05 -     SBATCH_PARTITION
power                - R string              C  22.05 24.05 SBATCH_POWER
prefer               - R constraint          -  22.05 -     -
priority             - R priority            -  22.05 -     -
profile              - R profile             -  22.05 -     SBATCH_PROFILE
propagate            - O propagate           -  22.05 -     -
qos                  q R string              -  22.05 -     SBATCH_QOS
quiet                Q N -                   E  22.05 -     -
reboot               - N -                   -  22.05 -     -
requeue              - N requeue             -  22.05 -     SBATCH_REQUEUE
reservation          - R string              -  22.05 -     SBATCH_RESERVATION
signal               - R signal              A  22.05 -     SBATCH_SIGNAL
sockets-per-node     - R count               C  22.05 -     -
spread-job           - N -                   C  22.05 -     SBATCH_SPREAD_JOB
switches             - R switches            C  22.05 -     -
test-only            - N -                   -  22.05 -     -
thread-spec          - R count               C  22.05 -     SBATCH_THREAD_SPEC
threads-per-core     - R count               C  22.05 -     SBATCH_THREADS_PER_CORE
time                 t R duration            -  22.05 -     SBATCH_TIMELIMIT
time-min             - R duration            -  22.05 -     -
tmp                  - R memory              C  22.05 -     -
uid                  - R string              -  22.05 -     -
usage                - N -                   E  22.05 -     -
use-min-nodes        - N -                   C  22.05 -     SBATCH_USE_MIN_NODES
verbose              v N -                   E  22.05 -     SBATCH_DEBUG
version              V N -                   E  22.05 -     -
wait                 W N -                   -  22.05 -     SBATCH_WAIT
wait-all-nodes       - R wait-all-nodes      -  22.05 -     SBATCH_WAIT_ALL_NODES
wckey                - R string              -  22.05 -     SBATCH_WCKEY
wrap                 - R string              E  22.05 -     -
autocomplete         - R string              -  23.02 -     -
container-id         - R string              -  23.02 -     SBATCH_CONTAINER_ID
extra                - R string              -  23.02 -     -
tres-per-task        - R tres-per-task       C  23.02 -     SBATCH_TRES_PER_TASK
tres-bind            - R tres-bind           C  23.11 -     SBATCH_TRES_BIND
resv-ports           - O resv-ports          -  24.05 -     -
segment              - R segment             -  24.05 -     SBATCH_SEGMENT_SIZE
stepmgr              - N -                   -  24.05 -     -
oom-kill-step        - O oom-kill-step       -  24.11 -     -
external             - N -                   -  25.05 -     -
resources            - R string              -  25.11 -     -
spread-segments      - N -                   -  25.11 -     SBATCH_SPREAD_SEGMENTS
consolidate-segments - N -                   -  25.11 -     SBATCH_CONSOLIDATE_SEGMENTS
container-type       - R string              -  26.05 -     SBATCH_CONTAINER_TYPE
mem-update           - R mem-update          -  26.05 -     -
"""

# Pure aliases: another long name for the same table entry (slurm_opt.c).
_ALIASES = {"cluster": "clusters", "tasks-per-node": "ntasks-per-node"}

# Argument kinds that changed between releases (slurm-semantics.md §7):
# 25.05 made --get-user-env take no argument, 25.11 let --requeue take "=expedite".
_ARG_CHANGES: dict[str, tuple[tuple[Version, str], ...]] = {
    "get-user-env": ((GET_USER_ENV_TAKES_NO_ARGUMENT, NONE),),
    "requeue": ((REQUEUE_TAKES_OPTIONAL_ARGUMENT, OPTIONAL),),
}

# --export-file was removed for security in 23.02.5 and restored in 24.05; at the
# granularity of major releases it is missing from 23.11 only.
_GAPS: dict[str, tuple[Version, Version]] = {"export-file": (EXPORT_FILE_REMOVED, EXPORT_FILE_RESTORED)}

# srun/salloc-only options that sbatch rejects as unrecognized (slurm-semantics.md §1);
# knowing them lets us say "this belongs on the srun line" instead of "unknown".
SRUN_ONLY = frozenset(
    "cpu-bind cpu_bind mpi label exact overlap pty multi-prog unbuffered immediate "
    "kill-on-bad-exit het-group jobid relative threads preserve-env disable-status "
    "no-allocate task-prolog task-epilog prolog epilog bcast send-libs whole "
    "accel-bind bell no-bell no-shell kill-command x11".split()
)

@frozen
class PluginOption:
    """An sbatch option that only exists where a site's SPANK plugin registers it."""

    plugin: str
    takes_value: bool  # the plugin's option takes an argument (`--image=IMAGE`, `--image IMAGE`)


# Options that only exist where a SPANK plugin registers them (src/common/spank.c adds them to
# sbatch's getopt table at start-up); a stock sbatch refuses them like any unknown option,
# and stops at the option itself: `--image docker:x` is refused for `--image` (22.05.8, 24.11.5).
PLUGIN_OPTIONS: dict[str, PluginOption] = {
    **dict.fromkeys(
        "container-image container-mounts container-workdir container-name container-save "
        "container-env".split(),
        PluginOption("pyxis", True),
    ),
    **dict.fromkeys(
        "container-mount-home no-container-mount-home container-remap-root no-container-remap-root "
        "container-entrypoint no-container-entrypoint container-writable container-readonly".split(),
        PluginOption("pyxis", False),
    ),
    **dict.fromkeys(("image", "module", "volume"), PluginOption("Shifter", True)),
    # CSCS Alps: the uenv plugin's `--uenv=IMAGE[,IMAGE]` and `--view=NAME` (docs.cscs.ch/software/uenv/using)
    **dict.fromkeys(("uenv", "view"), PluginOption("uenv (CSCS)", True)),
    # Ohio Supercomputer Center: `--gpu_cmode=exclusive|shared` sets the GPUs' compute mode
    "gpu_cmode": PluginOption("OSC gpu_cmode", True),
}

# Spellings from older Slurm releases and what they are called now.
RENAMED = {"workdir": "chdir", "share": "oversubscribe", "tasks": "ntasks"}


def _version(text: str) -> Version:
    major, minor = text.split(".")
    return int(major), int(minor)


@frozen
class OptionSpec:
    """One sbatch option as Slurm's option table defines it."""

    long: str
    short: str | None
    argument: ArgKind  # as of the oldest supported release
    kind: ValueKind | None  # the value's syntax (its parser), None for flags
    early_pass: bool
    per_component: bool
    accumulates: bool
    since: Version
    until: Version | None
    env_var: str | None
    aliases: tuple[str, ...] = ()

    def exists_in(self, version: Version) -> bool:
        if version < self.since or (self.until is not None and version >= self.until):
            return False
        gap = _GAPS.get(self.long)
        return not (gap and gap[0] <= version < gap[1])

    def argument_in(self, version: Version) -> ArgKind:
        argument = self.argument
        for since, changed in _ARG_CHANGES.get(self.long, ()):
            if version >= since:
                argument = changed
        return argument

    @property
    def display(self) -> str:
        return f"--{self.long}"


@lru_cache(maxsize=1)
def all_options() -> tuple[OptionSpec, ...]:
    specs = []
    reverse_aliases: dict[str, list[str]] = {}
    for alias, target in _ALIASES.items():
        reverse_aliases.setdefault(target, []).append(alias)
    for row in _TABLE.splitlines():
        long, short, arg, kind, flags, since, until, env = row.split()
        specs.append(
            OptionSpec(
                long=long,
                short=None if short == "-" else short,
                argument={"N": NONE, "R": REQUIRED, "O": OPTIONAL}[arg],
                kind=None if kind == "-" else ValueKind(kind),
                early_pass="E" in flags,
                per_component="C" in flags,
                accumulates="A" in flags,
                since=_version(since),
                until=None if until == "-" else _version(until),
                env_var=None if env == "-" else env,
                aliases=tuple(reverse_aliases.get(long, ())),
            )
        )
    return tuple(specs)


@lru_cache(maxsize=1)
def by_long_name() -> dict[str, OptionSpec]:
    """Every long spelling (canonical names and aliases) to its option."""
    table: dict[str, OptionSpec] = {}
    for spec in all_options():
        table[spec.long] = spec
        for alias in spec.aliases:
            table[alias] = spec
    return table


@lru_cache(maxsize=1)
def by_short_name() -> dict[str, OptionSpec]:
    return {spec.short: spec for spec in all_options() if spec.short}


def lookup(long: str) -> OptionSpec | None:
    return by_long_name().get(long)


# Kinds that sbatch checks only after all options are read (in _opt_verify(),
# the GRES validation, or slurmctld), so only the occurrence that wins is ever
# checked; every other kind is validated as each occurrence is set (arg_set_*),
# so an invalid value fails even if a later line replaces it. Checked option by
# option against sbatch 22.05.8 with "--opt=BAD --opt=GOOD".
CHECKED_WHEN_EFFECTIVE = frozenset({
    ValueKind.HINT, ValueKind.PROPAGATE, ValueKind.GRES, ValueKind.GPUS, ValueKind.TRES_PER_TASK, ValueKind.TRES_BIND,
    ValueKind.ARRAY, ValueKind.DEPENDENCY, ValueKind.CONSTRAINT, ValueKind.EXPORT, ValueKind.NICE, ValueKind.PRIORITY,
})
