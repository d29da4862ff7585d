"""Option tables for the launchers and one getopt/argparse-style reader that keeps offsets.

Each table maps every accepted spelling to a canonical name (dash form, e.g.
``nproc-per-node``) and says whether the option takes a value.  Readers stop at
the first positional word (the user program) or at ``--``.  Sources: srun(1)
and the pyxis ``--container-*`` options; Open MPI mpirun(1), MPICH/Intel
mpiexec.hydra; ``torch.distributed.run --help``; ``horovodrun --help``;
``accelerate launch --help``; DeepSpeed ``launcher/runner.py``; python(1).
"""

from __future__ import annotations



from slurmspec.body.tokens import Word
from slurmspec.body.wrappers import basename
from slurmspec.frozen import frozen
from slurmspec.lazy_regex import lazy_compile

__all__ = ["Spec", "RawOption", "read_options", "SPECS", "looks_like_program"]

FLAG, VALUE, PAIR = 0, 1, 2


@frozen(slots=True)
class RawOption:
    """One option occurrence: offsets are absolute; ``value_*`` is -1 when there is no value."""

    name: str
    raw: str
    value: str | None
    start: int
    end: int
    value_start: int = -1
    value_end: int = -1


@frozen
class Spec:
    """How one launcher reads its options."""

    options: dict[str, tuple[str, int]]  # spelling -> (canonical, arity)
    short_cluster: bool = False  # getopt: -ul, -n8 (srun); otherwise only exact spellings
    prefixes: bool = False  # getopt_long accepts unambiguous abbreviations (srun)
    normalise: bool = True  # argparse tools accept both --a_b and --a-b


def _table(rows: str, arity: int, short: dict[str, str] | None = None) -> dict[str, tuple[str, int]]:
    out = {f"--{name}": (name, arity) for name in rows.split()}
    for letter, name in (short or {}).items():
        out[f"-{letter}"] = (name, arity)
    return out


# srun(1): every long option takes a value except these (optional-argument ones are
# written with "=" when given a value, getopt_long "optional_argument").
_SRUN_FLAGS = """exact overlap exclusive label unbuffered pty multi-prog kill-on-bad-exit no-kill quiet
verbose contiguous disable-status hold immediate no-allocate overcommit oversubscribe preserve-env
test-only spread-job use-min-nodes help usage version reboot whole x11 send-libs external-launcher
requeue no-requeue container-mount-home no-container-mount-home container-remap-root
no-container-remap-root container-entrypoint no-container-entrypoint container-writable
container-readonly container-entrypoint-log interactive bcast compress propagate"""
_SRUN_VALUES = """account acctg-freq begin bb bbf chdir cluster-constraint clusters comment constraint
container container-id core-spec cores-per-socket cpu-bind cpu-freq cpus-per-gpu cpus-per-task
deadline delay-boot dependency distribution epilog error export extra extra-node-info gid gpu-bind
gpu-freq gpus gpus-per-node gpus-per-socket gpus-per-task gres gres-flags het-group hint input
jobid job-name licenses mail-type mail-user mcs-label mem mem-bind mem-per-cpu mem-per-gpu
mincpus mpi network nice nodefile nodelist nodes ntasks ntasks-per-core ntasks-per-gpu
ntasks-per-node ntasks-per-socket open-mode output partition power prefer priority profile
prolog qos reservation relative resv-ports segment signal slurmd-debug sockets-per-node
switches task-epilog task-prolog thread-spec threads-per-core time time-min tmp tres-bind
tres-per-task uid wait wckey container-image container-mounts container-workdir container-name
container-save container-env cpu_bind mem_bind tasks-per-node"""
_SRUN_SHORT_VALUES = dict(
    A="account", B="extra-node-info", C="constraint", D="chdir", G="gpus", J="job-name", L="licenses",
    M="clusters", N="nodes", S="core-spec", T="threads", W="wait", b="begin", c="cpus-per-task",
    d="dependency", e="error", i="input", m="distribution", n="ntasks", o="output", p="partition",
    q="qos", r="relative", t="time", w="nodelist", x="exclude",
)
_SRUN_SHORT_FLAGS = dict(
    E="preserve-env", H="hold", I="immediate", K="kill-on-bad-exit", O="overcommit", Q="quiet",
    X="disable-status", Z="no-allocate", h="help", k="no-kill", l="label", s="oversubscribe",
    u="unbuffered", v="verbose", V="version",
)
_SRUN = {**_table(_SRUN_FLAGS, FLAG, _SRUN_SHORT_FLAGS), **_table(_SRUN_VALUES, VALUE, _SRUN_SHORT_VALUES)}
# Old spellings that srun still maps onto the current option.
_SRUN.update({"--cpu_bind": ("cpu-bind", VALUE), "--mem_bind": ("mem-bind", VALUE),
              "--tasks-per-node": ("ntasks-per-node", VALUE), "--exclude": ("exclude", VALUE)})


def _mpi() -> dict[str, tuple[str, int]]:
    # Open MPI and MPICH/Intel accept long names after one or two dashes.
    rows = {
        "np": ("np", VALUE), "n": ("np", VALUE), "c": ("np", VALUE),
        "H": ("host", VALUE), "host": ("host", VALUE), "hosts": ("host", VALUE),
        "hostfile": ("hostfile", VALUE), "machinefile": ("hostfile", VALUE), "f": ("hostfile", VALUE),
        "default-hostfile": ("hostfile", VALUE), "rankfile": ("rankfile", VALUE),
        "ppn": ("ppn", VALUE), "perhost": ("ppn", VALUE), "npernode": ("npernode", VALUE),
        "N": ("npernode", VALUE), "npersocket": ("npersocket", VALUE),
        "map-by": ("map-by", VALUE), "rank-by": ("rank-by", VALUE), "bind-to": ("bind-to", VALUE),
        "x": ("x", VALUE), "genvlist": ("genvlist", VALUE), "envlist": ("envlist", VALUE),
        "genv": ("genv", PAIR), "env": ("env", PAIR), "mca": ("mca", PAIR), "gmca": ("gmca", PAIR),
        "prtemca": ("prtemca", PAIR), "pmixmca": ("pmixmca", PAIR),
        "wdir": ("wdir", VALUE), "wd": ("wdir", VALUE), "prefix": ("prefix", VALUE),
        "launcher": ("launcher", VALUE), "bootstrap": ("bootstrap", VALUE), "iface": ("iface", VALUE),
        "cpus-per-proc": ("cpus-per-proc", VALUE), "cpus-per-rank": ("cpus-per-proc", VALUE),
        "output-filename": ("output-filename", VALUE), "configfile": ("configfile", VALUE),
        "app": ("app", VALUE), "am": ("am", VALUE), "tune": ("tune", VALUE), "rmk": ("rmk", VALUE),
        "report-bindings": ("report-bindings", FLAG), "display-map": ("display-map", FLAG),
        "oversubscribe": ("oversubscribe", FLAG), "allow-run-as-root": ("allow-run-as-root", FLAG),
        "tag-output": ("tag-output", FLAG), "timestamp-output": ("timestamp-output", FLAG),
        "l": ("label", FLAG), "genvall": ("genvall", FLAG), "genvnone": ("genvnone", FLAG),
        "v": ("verbose", FLAG), "verbose": ("verbose", FLAG), "print-rank-map": ("print-rank-map", FLAG),
        "prepend-rank": ("prepend-rank", FLAG), "merge-stderr-to-stdout": ("merge-stderr-to-stdout", FLAG),
    }
    out = {}
    for name, spec in rows.items():
        out["-" + name] = spec
        if len(name) > 1:
            out["--" + name] = spec
    return out


_TORCHRUN = {
    **_table("""nnodes nproc-per-node node-rank master-addr master-port rdzv-backend rdzv-endpoint
        rdzv-id rdzv-conf max-restarts monitor-interval start-method role log-dir redirects tee
        local-addr logs-specs local-ranks-filter event-log-handler signals-to-handle""", VALUE,
             {"r": "redirects", "t": "tee"}),
    **_table("standalone module no-python run-path use-env help", FLAG, {"m": "module", "h": "help"}),
}
_HOROVOD = {
    **_table("""num-proc hosts hostfile ssh-port ssh-identity-file network-interface network-interfaces
        start-timeout log-level output-filename timeline-filename mpi-args min-np max-np slots-per-host
        slots host-discovery-script reset-limit config-file fusion-threshold-mb cycle-time-ms
        cache-capacity autotune-log-file gloo-timeout-seconds binding-args num-nccl-streams
        thread-affinity elastic-timeout""", VALUE, {"np": "num-proc", "H": "hosts", "p": "ssh-port",
                                                    "i": "ssh-identity-file"}),
    **_table("""gloo mpi jsrun verbose disable-cache check-build version tcp autotune
        hierarchical-allreduce hierarchical-allgather no-hierarchical-allreduce
        no-hierarchical-allgather timeline-mark-cycles no-stall-check mpi-threads-disable
        log-with-timestamp help""", FLAG, {"cb": "check-build", "h": "help"}),
}
_HOROVOD["-hostfile"] = ("hostfile", VALUE)
_ACCELERATE = {
    **_table("""config-file num-processes num-machines machine-rank main-process-ip main-process-port
        mixed-precision gpu-ids rdzv-backend dynamo-backend deepspeed-config-file deepspeed-hostfile
        deepspeed-multinode-launcher zero-stage num-cpu-threads-per-process main-training-function
        max-restarts monitor-interval gradient-accumulation-steps fsdp-config-file
        offload-optimizer-device offload-param-device gradient-clipping tpu-cluster""", VALUE),
    **_table("""multi-gpu cpu tpu use-deepspeed use-fsdp use-megatron-lm use-xpu same-network module
        no-python debug quiet enable-cpu-affinity help""", FLAG, {"m": "module", "q": "quiet", "h": "help"}),
}
_DEEPSPEED = {
    **_table("""num-gpus num-nodes hostfile launcher master-addr master-port include exclude node-rank
        launcher-args autotuning ssh-port bind-core-list venv-script min-elastic-nodes
        max-elastic-nodes comment enable-each-rank-log""", VALUE,
             {"H": "hostfile", "i": "include", "e": "exclude"}),
    **_table("""module no-python no-local-rank force-multi elastic-training bind-cores-to-rank no-ssh
        no-ssh-check save-pid help""", FLAG, {"h": "help"}),
}
# python(1): -m/-c end the interpreter options; -W and -X take a value.
_PYTHON = {
    **{f"-{c}": (c, FLAG) for c in "bBdEhiIOPqsSuvVxR"},
    "-m": ("module", VALUE), "-c": ("command", VALUE), "-W": ("W", VALUE), "-X": ("X", VALUE),
    "--check-hash-based-pycs": ("check-hash-based-pycs", VALUE),
}

SPECS: dict[str, Spec] = {
    "srun": Spec(_SRUN, short_cluster=True, prefixes=True, normalise=False),
    "mpirun": Spec(_mpi(), normalise=False),
    "torchrun": Spec(_TORCHRUN),
    "horovodrun": Spec(_HOROVOD),
    "accelerate": Spec(_ACCELERATE),
    "deepspeed": Spec(_DEEPSPEED),
    "python": Spec(_PYTHON, short_cluster=True, normalise=False),
}

_PROGRAMS = lazy_compile(
    r"(python[0-9.]*|srun|mpirun|mpiexec(\.hydra)?|orterun|prterun|torchrun|horovodrun|accelerate"
    r"|deepspeed|bash|sh|apptainer|singularity|env|numactl|.*\.(py|sh|bash))"
)


def looks_like_program(word: Word) -> bool:
    """A heuristic for unknown options: is ``word`` more likely the program than a value?"""
    v = word.value
    return v.startswith(("./", "/", "~")) or bool(_PROGRAMS.fullmatch(basename(v)))


def _lookup(spec: Spec, spelling: str) -> tuple[str, int] | None:
    hit = spec.options.get(spelling)
    if hit is None and spec.normalise and "_" in spelling:
        hit = spec.options.get(spelling.replace("_", "-"))
    if hit is None and spec.prefixes and spelling.startswith("--") and len(spelling) > 3:
        matches = {v for k, v in spec.options.items() if k.startswith(spelling) and k.startswith("--")}
        if len(matches) == 1:
            hit = matches.pop()
    return hit


def read_options(words: tuple[Word, ...], i: int, spec: Spec, stop: frozenset[str] = frozenset()) -> tuple[list[RawOption], int]:
    """Read options from ``words[i]``; return them and the index of the first non-option word.

    ``stop`` lists canonical names that end option parsing after their value
    (python's ``-m``/``-c``).
    """
    out: list[RawOption] = []
    n = len(words)
    while i < n:
        w = words[i]
        t = w.value
        if t == "--":
            return out, i + 1
        if not t.startswith("-") or t == "-" or _is_number(t):
            return out, i
        name, eq, val = t.partition("=") if t.startswith("--") else (t, "", "")
        hit = _lookup(spec, name)
        if hit is None and spec.short_cluster and not t.startswith("--"):
            hit = _lookup(spec, t[:2])
            if hit is not None and hit[1] == VALUE and len(t) > 2:  # -n8: value attached
                out.append(RawOption(hit[0], t[:2], t[2:], w.start, w.end, min(w.start + 2, w.end), w.end))
                i += 1
                if hit[0] in stop:
                    return out, i
                continue
            if hit is not None and all(spec.options.get("-" + c, (0, VALUE))[1] == FLAG for c in t[1:]):
                for c in t[1:]:  # -ul: a cluster of flags
                    out.append(RawOption(spec.options["-" + c][0], "-" + c, None, w.start, w.end))
                i += 1
                continue
            hit = None
        unknown = name.lstrip("-").replace("_", "-") if spec.normalise else name.lstrip("-")
        canonical, arity = hit if hit is not None else (unknown, -1)
        if eq:  # --name=value
            cut = w.text.find("=")
            vs = w.start + cut + 1 if cut >= 0 else w.end
            out.append(RawOption(canonical, name, val, w.start, w.end, min(vs, w.end), w.end))
            i += 1
        elif arity == -1:  # unknown: take a value unless the next word looks like an option or program
            nxt = words[i + 1] if i + 1 < n else None
            if nxt is None or nxt.value.startswith("-") or looks_like_program(nxt):
                out.append(RawOption(canonical, name, None, w.start, w.end))
                i += 1
            else:
                out.append(RawOption(canonical, name, nxt.value, w.start, nxt.end, nxt.start, nxt.end))
                i += 2
        elif arity == FLAG or i + 1 >= n:
            out.append(RawOption(canonical, name, None, w.start, w.end))
            i += 1
        else:
            last = words[min(i + arity, n - 1)]
            value = " ".join(x.value for x in words[i + 1 : i + 1 + arity])
            out.append(RawOption(canonical, name, value, w.start, last.end, words[i + 1].start, last.end))
            i += 1 + arity
        if canonical in stop:
            return out, i
    return out, i


def _is_number(t: str) -> bool:
    return t[1:].replace(".", "", 1).isdigit()
