"""``slurmspec emit --cluster``: write the GPU request the cluster accepts, and refuse a spec that does not fit it.

Measured with sbatch/slurmctld 22.05.8 ``--test-only`` (a throwaway cluster,
``SelectType`` switched between the two):

- a typed request (``--gpus-per-node=a100:1``, ``--gres=gpu:a100:1``) for a
  partition whose nodes have no GPU of that type, or untyped GPUs only, is
  refused: "Requested node configuration is not available";
- with ``SelectType=select/cons_res`` ``--gres=gpu:N`` and ``--gpus-per-node``
  are accepted, but ``--gpus``, ``--gpus-per-task``, ``--cpus-per-gpu`` and
  ``--mem-per-gpu`` are refused: "Requested GRES option unsupported by
  configured SelectType plugin" (they need ``select/cons_tres``, ``man
  slurm.conf`` SelectType). Emit writes ``--gres=gpu[:type]:N`` there: every
  select plugin takes it, while the ``--gpus*`` options came with
  ``select/cons_tres`` (Slurm 19.05).

A site policy that refuses untyped GPU requests (``untyped-gpus = "refused"``)
gets the partition's one GPU model written in, or the spec is refused when the
partition has several. Everything else is judged by the cluster rules on the
emitted script (``cluster_refusals``): an error of the cluster family (a
refusal, a job that would pend forever, an enforced policy) refuses the spec at
the key that wrote the offending line.
"""

from __future__ import annotations

from typing import Iterator

import attrs

from slurmspec.frozen import frozen
from slurmspec.kinds import Family, Role, Severity, UntypedGpus
from slurmspec.spec.model import Spec

# Spec keys whose options need select/cons_tres, with what to write instead.
_CONS_TRES_ONLY = {
    "gpus_per_task": "`gpus_per_node` (and `ntasks_per_node`)",
    "cpus_per_gpu": "`cpus_per_task`",
    "mem_per_gpu": "`mem` (memory per node)",
}


@frozen
class GpuForm:
    """How the spec's GPUs are written: ``gpus-per-node`` (and ``gpus-per-task``) or ``gres``, and the type."""

    option: str = "gpus-per-node"
    gpu_type: str | None = None


def _partition(spec: Spec, profile):
    name = spec.get("job", "partition")
    return profile.default_partition() if name is None else profile.partition(name)


def _models(profile, partition) -> list:
    """The GPU types of the partition's nodes (None for untyped GPUs), in profile order."""
    found: list = []
    for shape in profile.shapes_in(partition):
        for gres in shape.gres:
            if gres.name == "gpu" and gres.count and gres.type not in found:
                found.append(gres.type)
    return found


def _untyped_policy(policies, partition_name: str | None):
    """(policy, scope) deciding untyped GPU requests in the partition, or None."""
    for policy in policies:
        scope = next((s for s in reversed(policy.scopes(partition_name)) if s.untyped_gpus is not None), None)
        if scope is not None:
            return policy, scope
    return None


def gpu_form(spec: Spec, profile, policies=()) -> tuple[GpuForm, list[tuple[tuple, str]]]:
    """The GPU form to write for ``profile`` and the spec keys the cluster refuses, as (key path, message)."""
    problems: list[tuple[tuple, str]] = []
    res = spec.section("resources")
    values = res.as_dict() if res is not None else {}
    cons_tres = profile.config.select_type.endswith("cons_tres")
    form = GpuForm("gpus-per-node" if cons_tres else "gres", values.get("gpu_type"))
    if not cons_tres:
        for key, instead in _CONS_TRES_ONLY.items():
            if key in values:
                problems.append((("resources", key), (
                    f"`resources.{key}` needs `SelectType=select/cons_tres`, and cluster `{profile.name}` uses"
                    f" `{profile.config.select_type}`: slurmctld refuses it (\"Requested GRES option unsupported by"
                    f" configured SelectType plugin\"). Use {instead} instead")))
    if "gpus_per_node" not in values and "gpus_per_task" not in values:
        return form, problems
    partition = _partition(spec, profile)
    if partition is None:
        return form, problems  # an unknown partition: the cluster rules say so on the emitted script
    models = _models(profile, partition)
    where = f"partition `{partition.name}` of cluster `{profile.name}`"
    shown = ", ".join(f"`{m}`" for m in models if m) or "GPUs without a type"
    if form.gpu_type is not None:
        if form.gpu_type not in models:
            problems.append((("resources", "gpu_type"), (
                f"`resources.gpu_type = \"{form.gpu_type}\"`: the nodes of {where} have "
                + (f"no such GPU (they have {shown})" if models else "no GPU")
                + "; slurmctld refuses the job (\"Requested node configuration is not available\")")))
        return form, problems
    decided = _untyped_policy(policies, partition.name)
    if decided is None or decided[1].untyped_gpus is not UntypedGpus.REFUSED:
        return form, problems
    policy, scope = decided
    typed = [m for m in models if m]
    if len(typed) == 1 and None not in models:
        return attrs.evolve(form, gpu_type=typed[0]), problems
    problems.append((("resources", "gpu_type"), (
        f"the site refuses GPU requests without a model ({policy.where(f'{scope.key}.untyped-gpus')}); set"
        f" `resources.gpu_type` to one of the models of {where}: {shown}")))
    return form, problems


def required_options(spec: Spec, policies, profile) -> Iterator[tuple[tuple, str]]:
    """Options the policies require that the spec does not set, at the key that would set them."""
    from slurmspec.spec.fields import option_fields
    from slurmspec.spec.requests import raw_names

    fields = option_fields()
    raw = raw_names(spec.get("sbatch", "options", ()))
    name = spec.get("job", "partition")
    if name is None and profile is not None:
        default = profile.default_partition()
        name = default.name if default is not None else None
    for policy in policies:
        for scope in policy.scopes(name):
            for option in scope.required:
                place = fields.get(option)
                if option in raw or (place is not None and spec.get(place[0], place[1].key) is not None):
                    continue
                key = f"`{place[0]}.{place[1].key}`" if place else f"`--{option}` in `sbatch.options`"
                yield ((place[0], place[1].key) if place else ("sbatch", "options")), (
                    f"the site requires {key} ({policy.where(f'{scope.key}.required')}); set it")


def cluster_refusals(script_text: str, diagnostics, spec: Spec | None = None) -> Iterator[tuple[tuple, str]]:
    """The cluster-family errors on the emitted script, each at the spec key that wrote its line.

    A required option that is missing (the rule of ``Role.REQUIRED_OPTION``) is left out:
    ``required_options`` says it in the spec's words.
    """
    from slurmspec.lint.engine import code_of
    from slurmspec.parser.script import parse_script
    from slurmspec.spec.fields import option_fields

    script = parse_script(script_text)
    by_line = {d.span.line: d for d in script.directives}
    fields = option_fields()
    required = code_of(Role.REQUIRED_OPTION)
    for finding in diagnostics:
        if finding.family is not Family.CLUSTER or finding.severity is not Severity.ERROR or finding.code == required:
            continue
        directive = by_line.get(finding.span.line)
        path: tuple = ("job",)
        if directive is not None:
            option = directive.option.long
            if option == "gres" and spec is not None and spec.get("resources", "gpus_per_node") is not None:
                option = "gpus-per-node"  # emit writes the spec's GPUs as --gres for cons_res clusters
            place = fields.get(option)
            path = (place[0], place[1].key) if place else ("sbatch", "options")
        yield path, f"`{'.'.join(path)}`: {finding.message} [{finding.code}]"
