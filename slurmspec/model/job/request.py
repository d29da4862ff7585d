"""The effective job request of one hetjob component, after sbatch's precedence rules.

Within the ``#SBATCH`` lines of a component the last occurrence of an option
wins (each ``arg_set_*`` replaces the previous value), except where Slurm
accumulates: ``--mail-type`` ORs its types up to 24.11 (last wins from 25.05),
``--signal`` ORs its R/B flags, ``--kill-on-invalid-dep`` ORs yes/no
(slurm-semantics.md §4.2). Options that Slurm does not reset per component
(``reset_each_pass`` unset: ``--time``, ``--mem``, ``--job-name``...) are
inherited by later hetjob components unless they set them again.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any, Iterable, TypeVar

import attrs

from slurmspec.frozen import as_tuple, frozen
from slurmspec.gates import HINT_DROPPED_BY_MORE_OPTIONS, MAIL_TYPE_LAST_WINS
from slurmspec.model.syntax.script import Directive
from slurmspec.model.values.counts import Count
from slurmspec.model.values.enums import Choice, MailTypes
from slurmspec.model.values.signal import SignalSpec
from slurmspec.version import Version

if TYPE_CHECKING:  # pragma: no cover - typing only
    from slurmspec.model.values import Value

V = TypeVar("V")


@frozen
class Setting:
    """The effective value of one option in one component."""

    name: str
    directive: Directive  # the occurrence that decided the value
    overridden: tuple[Directive, ...] = attrs.field(converter=as_tuple)  # earlier ones it replaced
    value: Value  # the parsed value; the raw text when untyped or invalid; True for flags
    inherited: bool = False  # carried over from an earlier hetjob component

    @property
    def raw(self) -> str | None:
        return self.directive.value

    def value_as(self, kind: type[V]) -> V | None:
        """The value if it parsed as a ``kind``; None when it did not (kept raw), is a placeholder or a flag."""
        return self.value if isinstance(self.value, kind) else None

    def count(self) -> int | None:
        """The whole number of a count option (``--ntasks=4`` gives 4); None when the value did not parse."""
        count = self.value_as(Count)
        return None if count is None else count.value


@frozen
class JobRequest:
    """Everything one component asks for, by canonical long option name."""

    component: int
    settings: tuple[Setting, ...] = attrs.field(converter=as_tuple)

    def get(self, name: str) -> Setting | None:
        return self._by_name.get(name)

    @cached_property
    def _by_name(self) -> dict[str, Setting]:
        # Rules ask for settings by name tens of times per script; the first of a name answers.
        found: dict[str, Setting] = {}
        for setting in self.settings:
            found.setdefault(setting.name, setting)
        return found

    def has(self, name: str) -> bool:
        return self.get(name) is not None

    def value(self, name: str) -> Value | None:
        setting = self.get(name)
        return None if setting is None else setting.value

    def value_as(self, name: str, kind: type[V]) -> V | None:
        """Option ``name``'s parsed value if it is a ``kind``: None when unset, invalid or a placeholder."""
        setting = self.get(name)
        return None if setting is None else setting.value_as(kind)

    def count(self, name: str) -> int | None:
        """The whole number of a count option (``--ntasks=4`` gives 4); None when unset or invalid."""
        setting = self.get(name)
        return None if setting is None else setting.count()

    # Shortcuts to the values asked for most often, as ``value`` gives them (raw text when invalid);
    # a rule that needs the record asks for it by class (``value_as``) or for a count (``count``).
    nodes = property(lambda self: self.value("nodes"))
    ntasks = property(lambda self: self.value("ntasks"))
    ntasks_per_node = property(lambda self: self.value("ntasks-per-node"))
    cpus_per_task = property(lambda self: self.value("cpus-per-task"))
    gpus = property(lambda self: self.value("gpus"))
    gpus_per_node = property(lambda self: self.value("gpus-per-node"))
    gpus_per_task = property(lambda self: self.value("gpus-per-task"))
    gres = property(lambda self: self.value("gres"))
    mem = property(lambda self: self.value("mem"))
    mem_per_cpu = property(lambda self: self.value("mem-per-cpu"))
    mem_per_gpu = property(lambda self: self.value("mem-per-gpu"))
    time = property(lambda self: self.value("time"))
    partition = property(lambda self: self.value("partition"))
    constraint = property(lambda self: self.value("constraint"))
    output = property(lambda self: self.value("output"))
    error = property(lambda self: self.value("error"))
    array = property(lambda self: self.value("array"))
    job_name = property(lambda self: self.value("job-name"))

    def to_dict(self) -> dict[str, Any]:
        from slurmspec.model.syntax.serialize import request_to_dict

        return request_to_dict(self)


def _typed(directive: Directive) -> Any:
    if directive.option.kind is None:
        return True
    if directive.typed is not None and directive.typed.value is not None:
        return directive.typed.value
    return directive.value


def _merge(name: str, earlier: Value, later: Value, version: Version) -> Value:
    """Combine repeated values where Slurm accumulates instead of replacing (both must have parsed)."""
    if name == "mail-type" and version < MAIL_TYPE_LAST_WINS:
        if isinstance(earlier, MailTypes) and isinstance(later, MailTypes):
            merged = tuple(dict.fromkeys((*earlier.types, *later.types)))
            return attrs.evolve(later, types=merged)
    if name == "signal":
        if isinstance(earlier, SignalSpec) and isinstance(later, SignalSpec):
            flags = "".join(sorted(set(earlier.flags) | set(later.flags)))
            return attrs.evolve(later, flags=flags)
    if name == "kill-on-invalid-dep":
        # Each occurrence ORs its flag in; with both set Slurm reports "yes".
        if isinstance(later, Choice) and isinstance(earlier, Choice) and earlier.value.lower() == "yes":
            return attrs.evolve(later, value="yes")
    return later


def build_request(
    component: int,
    directives: Iterable[Directive],
    version: Version,
    inherited_from: JobRequest | None = None,
) -> JobRequest:
    """The effective request of one component from its (non-ignored) directives.

    O(directives): each option's earlier occurrences are collected in a list and made
    into its ``overridden`` tuple once, at the end (a tuple grown per repetition made
    100,000 repeated lines cost O(n²)).
    """
    settings: dict[str, Setting] = {}
    if inherited_from is not None:
        for setting in inherited_from.settings:
            spec = setting.directive.option
            if not spec.per_component:
                settings[setting.name] = attrs.evolve(setting, inherited=True)
    # name -> (deciding directive, value, the occurrences it replaced) for the component's own lines
    own: dict[str, tuple[Directive, Any, list[Directive]]] = {}
    for directive in directives:
        if directive.ignored:
            continue
        name = directive.option.long
        value = _typed(directive)
        previous = own.get(name)
        if previous is not None:
            earlier_directive, earlier_value, overridden = previous
            value = _merge(name, earlier_value, value, version)
            overridden.append(earlier_directive)
            own[name] = (directive, value, overridden)
        else:
            own[name] = (directive, value, [])
    for name, (directive, value, overridden) in own.items():
        settings[name] = Setting(name, directive, overridden, value)
    return JobRequest(component, tuple(sorted(settings.values(), key=lambda s: s.name)))


# --hint is dropped unchecked when these are set (src/sbatch/opt.c:_opt_verify(), warning "Ignoring --hint");
# 25.11 added --cores-per-socket and --sockets-per-node to the list.
_HINT_DROPPED_BY = ("ntasks-per-core", "threads-per-core", "extra-node-info")
_HINT_ALSO_DROPPED_BY = ("cores-per-socket", "sockets-per-node")


def hint_dropped_by(request: JobRequest, version: Version) -> list[str]:
    """The layout options set in ``request`` that make sbatch drop ``--hint`` unchecked."""
    names = _HINT_DROPPED_BY + (_HINT_ALSO_DROPPED_BY if version >= HINT_DROPPED_BY_MORE_OPTIONS else ())
    return [name for name in names if request.has(name)]


def hint_is_dropped(request: JobRequest, version: Version) -> bool:
    return bool(hint_dropped_by(request, version))
