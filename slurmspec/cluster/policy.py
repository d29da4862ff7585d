"""A site's submission policy as data: the ``[policy]`` table of a cluster profile or configuration.

HPC centres publish rules that a submit plugin (``job_submit.lua``) or the
staff enforce and that Slurm's own limits cannot express: options every job
must give, options a partition forbids, the values it allows, CPUs and memory
per GPU by GPU model, GPU requests that must name a type, GPU partitions that
only take GPU jobs. ``parse_policy(table, source)`` reads such a table strictly
(an unknown key, option or value is a ``ProfileError`` naming the file and the
key, with a did-you-mean), and the SB46x rules check scripts against it.
The schema is documented in docs/policy.md.
"""

from __future__ import annotations

from typing import Any

import attrs

from slurmspec.cluster.profile import ProfileError
from slurmspec.frozen import frozen
from slurmspec.hints import did_you_mean
from slurmspec.kinds import UntypedGpus

# Keys of the top level and of each [policy.partition.NAME] table.
SCOPE_KEYS = ("required", "forbidden", "allowed", "untyped-gpus", "untyped-gpus-become")
TOP_KEYS = ("name", "enforced", *SCOPE_KEYS, "gpu-partitions-need-gpus", "partition", "gpu")
PARTITION_KEYS = (*SCOPE_KEYS, "needs-gpus")
GPU_KEYS = ("cpus-per-gpu", "mem-per-gpu")
BOUND_KEYS = ("min", "max")
ANY_MODEL = "*"


@frozen
class Bound:
    """``min``/``max`` of an amount per GPU (CPUs, or memory in MB); ``text`` as the policy wrote it."""

    minimum: int | None
    maximum: int | None
    text: str


@frozen
class GpuModelRule:
    """``[policy.gpu.MODEL]``: bounds on CPUs and memory per GPU of one model (``*``: any model)."""

    model: str
    key: str  # "policy.gpu.a100"
    cpus_per_gpu: Bound | None = None
    mem_per_gpu: Bound | None = None


@frozen
class Scope:
    """The rules of the whole policy (``partition`` None) or of one partition."""

    key: str  # "policy" or "policy.partition.gpu": where a rule sits, for messages
    partition: str | None = None
    required: tuple[str, ...] = ()  # canonical long option names
    forbidden: tuple[str, ...] = ()
    allowed: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (option, values)
    untyped_gpus: UntypedGpus | None = None
    untyped_gpus_become: str | None = None
    needs_gpus: bool = False


@frozen
class Policy:
    source: str  # the file the table came from
    everywhere: Scope
    partitions: tuple[Scope, ...] = ()
    gpu_models: tuple[GpuModelRule, ...] = ()
    name: str | None = None
    enforced: bool = True  # False: published guidelines, reported as warnings
    gpu_partitions_need_gpus: bool = False

    def scopes(self, partition: str | None) -> tuple[Scope, ...]:
        """The scopes that apply to a job in ``partition`` (None: unknown): the top level, then the partition's."""
        own = tuple(s for s in self.partitions if partition is not None and s.partition == partition)
        return (self.everywhere, *own)

    def partition_scope(self, partition: str) -> Scope | None:
        return next((s for s in self.partitions if s.partition == partition), None)

    def gpu_rule(self, model: str | None) -> GpuModelRule | None:
        """The bounds for GPUs of ``model`` (its own table, else ``*``)."""
        exact = next((r for r in self.gpu_models if model is not None and r.model == model), None)
        return exact or next((r for r in self.gpu_models if r.model == ANY_MODEL), None)

    def where(self, key: str) -> str:
        """How a finding names the rule it comes from: "`policy.required` in lab.toml"."""
        label = f"site policy \"{self.name}\": " if self.name else "site policy: "
        return f"{label}`{key}` in {self.source}"


def parse_policy(table: dict, source: str, *, prefix: str = "") -> Policy:
    """Read a ``[policy]`` table; raise ``ProfileError`` on any unknown key, option or bad value.

    ``prefix`` is what comes before ``policy`` in the file (``tool.slurmspec.`` in pyproject.toml),
    so messages and findings name the key as it is written.
    """
    return _Reader(source, prefix).policy(table)


def check_policy(policy: Policy, profile) -> None:
    """Raise ``ProfileError`` when the policy names a partition or GPU model the cluster profile lacks.

    A misspelt name would make its rules silently never apply.
    """
    known = [p.name for p in profile.partitions]
    for scope in policy.partitions:
        if scope.partition not in known:
            raise ProfileError(f"{policy.source}: `{scope.key}`: the cluster profile {profile.source} has no partition"
                               f" `{scope.partition}`{_hint(scope.partition, known)}")
    models = sorted({g.type for shape in profile.shapes for g in shape.gres if g.name == "gpu" and g.type})
    for rule in policy.gpu_models:
        if rule.model != ANY_MODEL and rule.model not in models:
            raise ProfileError(f"{policy.source}: `{rule.key}`: the cluster profile {profile.source} has no GPU of"
                               f" type `{rule.model}`{_hint(rule.model, models)}")


def _hint(word: str, known: list[str]) -> str:
    return did_you_mean(word, known, otherwise=f" (it has {', '.join(f'`{k}`' for k in known)})" if known else "")


class _Reader:
    def __init__(self, source: str, prefix: str = "") -> None:
        self.source = source
        self.prefix = prefix

    def fail(self, key: str, message: str) -> ProfileError:
        return ProfileError(f"{self.source}: `{self.prefix}{key}`: {message}")

    def table(self, value: Any, key: str, known: tuple[str, ...]) -> dict:
        if not isinstance(value, dict):
            raise self.fail(key, "must be a table")
        for name in value:
            if name not in known:
                hint = did_you_mean(str(name).replace("_", "-"), known, otherwise=f"; known keys: {', '.join(known)}")
                raise ProfileError(f"{self.source}: unknown key `{self.prefix}{key}.{name}`{hint}")
        return value

    def mapping(self, value: Any, key: str) -> dict:
        """A table whose keys are names (partitions, GPU models, options), not a fixed set."""
        if not isinstance(value, dict):
            raise self.fail(key, "must be a table")
        return value

    def policy(self, raw: Any) -> Policy:
        data = self.table(raw, "policy", TOP_KEYS)
        name = data.get("name")
        if name is not None and (not isinstance(name, str) or not name.strip()):
            raise self.fail("policy.name", "must be a non-empty string")
        partitions = self.mapping(data.get("partition", {}), "policy.partition")
        models = self.mapping(data.get("gpu", {}), "policy.gpu")
        return Policy(
            source=self.source,
            everywhere=self.scope(data, "policy", None),
            partitions=tuple(self.partition(name_, value) for name_, value in partitions.items()),
            gpu_models=tuple(self.gpu_model(model, value) for model, value in models.items()),
            name=name,
            enforced=self.boolean(data, "enforced", "policy", True),
            gpu_partitions_need_gpus=self.boolean(data, "gpu-partitions-need-gpus", "policy", False),
        )

    def partition(self, name: str, raw: Any) -> Scope:
        key = f"policy.partition.{_quoted(name)}"
        data = self.table(raw, key, PARTITION_KEYS)
        scope = self.scope(data, key, name)
        return attrs.evolve(scope, needs_gpus=self.boolean(data, "needs-gpus", key, False))

    def scope(self, data: dict, key: str, partition: str | None) -> Scope:
        untyped = data.get("untyped-gpus")
        if untyped is not None:
            choices = [kind.value for kind in UntypedGpus]
            if untyped not in choices:
                raise self.fail(f"{key}.untyped-gpus", f"must be one of {', '.join(map(repr, choices))}")
            untyped = UntypedGpus(untyped)
        become = data.get("untyped-gpus-become")
        if become is not None:
            if untyped is not UntypedGpus.REWRITTEN:
                raise self.fail(f"{key}.untyped-gpus-become", "only goes with `untyped-gpus = \"rewritten\"`")
            if not isinstance(become, str) or not become or not become.replace("_", "").replace("-", "").isalnum():
                raise self.fail(f"{key}.untyped-gpus-become", "must be a GPU type name such as \"a100\"")
        allowed = self.mapping(data.get("allowed", {}), f"{key}.allowed")
        return Scope(
            key=self.prefix + key, partition=partition,
            required=self.options(data.get("required", []), f"{key}.required"),
            forbidden=self.options(data.get("forbidden", []), f"{key}.forbidden"),
            allowed=tuple((self.option(option, f"{key}.allowed"), self.values(values, f"{key}.allowed.{option}"))
                          for option, values in allowed.items()),
            untyped_gpus=untyped, untyped_gpus_become=become,
        )

    def options(self, value: Any, key: str) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail(key, 'must be a list of sbatch options, e.g. ["time", "account"]')
        return tuple(dict.fromkeys(self.option(v, key) for v in value))

    def option(self, text: str, key: str) -> str:
        """The canonical long name of ``text`` (``--time``, ``time``, ``-t`` all give ``time``)."""
        from slurmspec.model.catalogue.options import by_long_name, by_short_name

        word = text.strip()
        if len(word) == 2 and word.startswith("-") and word[1:] in by_short_name():
            return by_short_name()[word[1:]].long
        name = word[2:] if word.startswith("--") else word
        found = by_long_name().get(name)
        if found is None:
            hint = did_you_mean(name, by_long_name(), show=lambda found: f"`--{found}`")
            raise self.fail(key, f"`{text}` is not an sbatch option{hint}")
        return found.long

    def values(self, value: Any, key: str) -> tuple[str, ...]:
        if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
            raise self.fail(key, 'must be a non-empty list of the values allowed, e.g. ["normal", "long"]')
        return tuple(value)

    def boolean(self, data: dict, name: str, key: str, default: bool) -> bool:
        value = data.get(name, default)
        if not isinstance(value, bool):
            raise self.fail(f"{key}.{name}", "must be true or false")
        return value

    def gpu_model(self, model: str, raw: Any) -> GpuModelRule:
        key = f"policy.gpu.{_quoted(model)}"
        data = self.table(raw, key, GPU_KEYS)
        if not data:
            raise self.fail(key, f"says nothing: give {' or '.join(GPU_KEYS)}")
        return GpuModelRule(
            model=model, key=self.prefix + key,
            cpus_per_gpu=self.bound(data.get("cpus-per-gpu"), f"{key}.cpus-per-gpu", _cpus),
            mem_per_gpu=self.bound(data.get("mem-per-gpu"), f"{key}.mem-per-gpu", _megabytes),
        )

    def bound(self, value: Any, key: str, read) -> Bound | None:
        """An exact amount (``8``, ``"64G"``) or a table ``{ min = ..., max = ... }``."""
        if value is None:
            return None
        if isinstance(value, dict):
            self.table(value, key, BOUND_KEYS)
            if not value:
                raise self.fail(key, "needs `min`, `max` or both")
            low = None if "min" not in value else self.amount(read, value["min"], f"{key}.min")
            high = None if "max" not in value else self.amount(read, value["max"], f"{key}.max")
            if low is not None and high is not None and low > high:
                raise self.fail(key, "`min` is more than `max`")
            parts = [f"at least {value['min']}" if low is not None else "",
                     f"at most {value['max']}" if high is not None else ""]
            return Bound(low, high, " and ".join(p for p in parts if p))
        exact = self.amount(read, value, key)
        return Bound(exact, exact, f"exactly {value}")

    def amount(self, read, value: Any, key: str) -> int:
        amount = read(value)
        if amount is None:
            what = "a whole number of CPUs" if read is _cpus else "a memory size such as \"64G\" (units K, M, G, T)"
            raise self.fail(key, f"`{value}` is not {what}")
        return amount


def _cpus(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _megabytes(value: Any) -> int | None:
    """A memory amount in MB, read as sbatch reads ``--mem`` (no unit: megabytes)."""
    from slurmspec.model.values.memory import parse_memory

    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        return None
    parsed = parse_memory(value)
    megabytes = getattr(parsed.value, "megabytes", None) if parsed.ok else None
    return megabytes if megabytes else None


def _quoted(name: str) -> str:
    """A table name as TOML writes it in a dotted key."""
    bare = name.replace("-", "").replace("_", "").isalnum()
    return name if bare else f'"{name}"'
