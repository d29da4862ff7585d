"""Frozen records describing what a batch script's body launches and which variables it sets.

Values are kept as written (``$SLURM_NTASKS``, ``${GPUS:-8}``, ``gpu``) and are never
evaluated; the typed numeric fields are ``int`` only when the value is a literal.
"""

from __future__ import annotations

from typing import Iterator

import attrs

from slurmspec.frozen import frozen, to
from slurmspec.kinds import AssignmentKind, LaunchKind
from slurmspec.span import Span

__all__ = ["LaunchOption", "EnvAssignment", "Launch", "BodyInfo", "LAUNCH_KINDS"]

LAUNCH_KINDS = tuple(LaunchKind)


def _launch_kinds(kinds) -> tuple[LaunchKind, ...]:
    return tuple(map(LaunchKind, kinds))


@frozen
class LaunchOption:
    """One option on a launcher's command line, e.g. ``--nproc_per_node=8``."""

    name: str  # canonical dash form: "ntasks", "nproc-per-node", "np"
    raw: str  # spelling as written: "-n", "--nproc_per_node", "-np"
    value: str | None  # unquoted value text, expansions kept verbatim; None for flags
    span: Span  # the option and its value word(s)
    value_span: Span | None = None


@frozen
class EnvAssignment:
    """A variable set in the body: ``export X=1``, ``X=1`` or a ``X=1 cmd`` prefix."""

    name: str
    value: str | None  # unquoted text; None for ``export NAME`` without a value
    raw: str | None  # value as written
    span: Span
    value_span: Span | None
    kind: AssignmentKind
    context: tuple[str, ...] = ()  # enclosing constructs: "if", "for", "function", ...
    append: bool = False  # NAME+=value

    @property
    def exported(self) -> bool:
        return self.kind is AssignmentKind.EXPORT


@frozen
class Launch:
    """A recognised launch command; ``inner`` is the launch it runs, if it is one."""

    kind: LaunchKind = attrs.field(converter=to(LaunchKind))
    command: str  # the launcher word as written: "srun", "/opt/mpi/bin/mpirun", "python3"
    span: Span  # from the launcher word to the last argument
    command_span: Span
    statement_span: Span  # the whole simple command: prefix assignments, wrappers, redirections
    options: tuple[LaunchOption, ...] = ()
    program: str | None = None  # first word of what is run: "train.py", a module, or a command
    program_span: Span | None = None
    args: tuple[str, ...] = ()  # words after ``program``
    inner: Launch | None = None
    entry: str | None = None  # python -m module that provided the launcher, e.g. torch.distributed.run
    wrappers: tuple[str, ...] = ()  # looked through, outermost first: "exec", "apptainer exec", "bash -c"
    image: str | None = None  # apptainer/singularity image
    env: tuple[EnvAssignment, ...] = ()  # NAME=value prefixes and ``env NAME=value``
    backgrounded: bool = False
    piped: bool = False
    context: tuple[str, ...] = ()  # enclosing shell constructs, outermost first
    outer: tuple[LaunchKind, ...] = attrs.field(default=(), converter=_launch_kinds)  # enclosing launches, outermost first
    # srun
    ntasks: int | None = None
    nodes: int | None = None
    ntasks_per_node: int | None = None
    gpus: int | None = None
    gpus_per_node: int | None = None
    gpus_per_task: int | None = None
    gres: str | None = None
    cpus_per_task: int | None = None
    mpi: str | None = None
    container_image: str | None = None
    exact: bool = False
    overlap: bool = False
    # mpirun, horovodrun
    np: int | None = None
    hosts: str | None = None
    ppn: int | None = None
    hostfile: str | None = None
    # torchrun (master_addr/master_port/node_rank also deepspeed)
    nproc_per_node: int | None = None
    nnodes: int | None = None
    nnodes_range: tuple[int, int] | None = None
    node_rank: int | None = None
    rdzv_backend: str | None = None
    rdzv_endpoint: str | None = None
    rdzv_id: str | None = None
    master_addr: str | None = None
    master_port: int | None = None
    standalone: bool = False
    # accelerate
    num_processes: int | None = None
    num_machines: int | None = None
    machine_rank: int | None = None
    main_process_ip: str | None = None
    main_process_port: int | None = None
    multi_gpu: bool = False
    config_file: str | None = None
    # deepspeed
    num_gpus: int | None = None
    num_nodes: int | None = None
    launcher: str | None = None

    @property
    def heterogeneous_step(self) -> bool:
        """An ``srun A : B`` line: srun splits its words at each ``:`` into the components of one
        heterogeneous step, each with its own options and nodes (inside a one-node job 22.05.8 and
        24.11.5 fail it: "Allocation failure of 1 nodes: job size of 1, already allocated 1 nodes to
        previous components"). Its geometry is not the first component's alone."""
        return self.kind is LaunchKind.SRUN and (self.program == ":" or ":" in self.args)

    def option(self, name: str) -> LaunchOption | None:
        """The last occurrence of canonical option ``name`` (later ones win)."""
        for opt in reversed(self.options):
            if opt.name == name:
                return opt
        return None

    def value(self, name: str) -> str | None:
        """The raw value text of canonical option ``name``, e.g. ``"$SLURM_NNODES"``."""
        opt = self.option(name)
        return None if opt is None else opt.value

    def has(self, name: str) -> bool:
        return any(opt.name == name for opt in self.options)

    @property
    def under_srun(self) -> bool:
        return LaunchKind.SRUN in self.outer

    def walk(self) -> Iterator[Launch]:
        """This launch, then the launches nested inside it."""
        node: Launch | None = self
        while node is not None:
            yield node
            node = node.inner


@frozen
class BodyInfo:
    """What the body of one script launches and which variables it sets."""

    launches: tuple[Launch, ...] = ()  # outermost launches, in file order
    exports: tuple[EnvAssignment, ...] = ()  # every assignment/export, in file order
    # Every simple command's span and name (slurmspec.body.commands.CommandHeads), for the body
    # index: read in the same pass, so the body is split into commands once per script.
    heads: object = attrs.field(default=None, eq=False, repr=False)
    # The first launch statement past slurmspec.limits.MAX_LAUNCHES (None: every one is modelled).
    first_unmodelled: Span | None = None
    # What the lexer saw besides tokens in that pass (slurmspec.body.lexicon.Lexicon): the body index's
    # references, quoted ranges and here-documents. None when the pass failed.
    lexicon: object = attrs.field(default=None, eq=False, repr=False)

    def all_launches(self) -> Iterator[Launch]:
        """Every launch, nested ones right after the launch that runs them."""
        for launch in self.launches:
            yield from launch.walk()

    def assignments_of(self, name: str) -> tuple[EnvAssignment, ...]:
        return tuple(a for a in self.exports if a.name == name)
