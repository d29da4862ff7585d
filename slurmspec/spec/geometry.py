"""Checks across keys: what each launch kind needs written in the spec, and typed-vs-raw options.

The task layout each kind needs (one task per node for torchrun/accelerate, one
task per GPU for srun/Horovod/DeepSpeed/Lightning, each seeing the GPU of its
local rank) is judged on the job model of the emitted script, in ``layout.py``;
here: [body] or [launch], the workers per node torchrun/accelerate must be told,
which launcher and ``mpi`` plugin each kind can use, raw options a typed key
covers, and a verbatim body's first lines.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterator

from slurmspec.spec.layout import PER_NODE_KINDS
from slurmspec.spec.model import Spec
from slurmspec.spec.raw import split_raw, typed_spelling



def check_spec(spec: Spec, version=None) -> Iterator[tuple[tuple, str]]:
    yield from _body_or_launch(spec)
    yield from _gpus(spec)
    yield from _launch(spec)
    yield from _raw_options(spec, version)
    yield from _body_header(spec)


def _body_or_launch(spec: Spec) -> Iterator[tuple[tuple, str]]:
    has_launch, body = spec.section("launch") is not None, spec.section("body")
    if has_launch and body is not None:
        yield ("body",), "[body] and [launch] exclude each other: the body replaces the launch block"
    elif not has_launch and body is None:
        yield (), "a spec needs a [launch] table (or a verbatim [body])"
    elif body is not None and ("script" in body) == ("file" in body):
        yield ("body",), "[body] needs exactly one of `script` and `file`"


def _gpus(spec: Spec) -> Iterator[tuple[tuple, str]]:
    res = spec.section("resources")
    if res is not None and "gpu_type" in res and not ("gpus_per_node" in res or "gpus_per_task" in res):
        yield ("resources", "gpu_type"), "`gpu_type` needs `gpus_per_node` or `gpus_per_task`"


def _launch(spec: Spec) -> Iterator[tuple[tuple, str]]:
    launch = spec.section("launch")
    if launch is None:
        return
    kind = launch.get("kind")
    get = lambda key: spec.get("resources", key)  # noqa: E731
    gpn, per_node = get("gpus_per_node"), get("ntasks_per_node")
    if kind in PER_NODE_KINDS:
        # The task layout itself (one task per node, one worker per GPU) is judged on the job model
        # (layout.py); the launch block needs the workers per node to be written at all.
        if launch.get("procs_per_node") is None and gpn is None:
            yield ("launch",), (f"{kind} needs the workers per node: set `resources.gpus_per_node`"
                                " or `launch.procs_per_node`")
    launcher = launch.get("launcher")
    allowed = {"mpi": ("srun", "mpirun"), "horovod": ("srun", "horovodrun")}.get(kind, ("srun",))
    if launcher is not None and launcher not in allowed:
        yield ("launch", "launcher"), f"kind `{kind}` can use launcher {' or '.join(allowed)}, not `{launcher}`"
    if launcher in ("mpirun", "horovodrun") and per_node is None and get("ntasks") is None:
        # Slurm sets SLURM_NTASKS only when the job asks for a task count (rule SB321).
        yield ("resources",), (f"{launcher} -np \"$SLURM_NTASKS\" needs a task count: set"
                               " `resources.ntasks` or `resources.ntasks_per_node`")
    if "procs_per_node" in launch and kind not in PER_NODE_KINDS:
        yield ("launch", "procs_per_node"), "`procs_per_node` is for torchrun and accelerate only"
    if "mpi" in launch and (kind not in ("mpi", "horovod") or launcher not in (None, "srun")):
        yield ("launch", "mpi"), "`mpi` (srun --mpi plugin) is for kinds mpi and horovod launched by srun"


def _raw_options(spec: Spec, version) -> Iterator[tuple[tuple, str]]:
    words = spec.get("sbatch", "options", ())
    context: dict = {(s.name, k): v for s in spec.sections if s.name in ("job", "resources")
                     for k, v in s.values}
    context["raw"] = {split_raw(w)[0] for w in words}
    from slurmspec.model.catalogue.options import lookup

    names = [lookup(split_raw(w)[0]) for w in words]
    context["raw_count"] = Counter(spec.long for spec in names if spec is not None)
    context["version"] = version
    for i, word in enumerate(words):
        name, value = split_raw(word)
        option = lookup(name)
        if option is None:
            continue
        typed = typed_spelling(option.long, value, context)
        if typed is not None:
            section, key, _ = typed
            yield ("sbatch", "options"), f"`sbatch.options[{i}]`: write `{word}` as `{section}.{key}`"
        elif _sets_typed(option.long, context):
            yield ("sbatch", "options"), f"`sbatch.options[{i}]`: `--{option.long}` is already set by a typed key"


def _sets_typed(option: str, context: dict) -> bool:
    from slurmspec.spec.fields import option_fields

    found = option_fields().get(option)
    return found is not None and (found[0], found[1].key) in context


def _body_header(spec: Spec) -> Iterator[tuple[tuple, str]]:
    """A verbatim body must not start with directives: sbatch would read them as part of the header."""
    script = spec.get("body", "script")
    for line in (script or "").splitlines():
        stripped = line.strip()
        if line.startswith(("#SBATCH", "#SLURM")):
            yield ("body", "script"), ("the body starts with an #SBATCH line, which sbatch would read as part of"
                                       " the header: put options in [job], [resources] or [sbatch].options")
            return
        if stripped and not stripped.startswith("#"):
            return
