"""Raw sbatch options (``[sbatch].options``, ``[[hetjob]].options``): checking them, and when a typed key must be used instead.

One rule decides typed-or-raw for both directions: convert writes a value as
a typed key exactly when ``typed_spelling`` gives one, and the loader refuses a
raw option that has one, so ``convert(emit(spec)) == spec``.
"""

from __future__ import annotations

from typing import Any, Iterator

from slurmspec.spec.fields import option_fields
from slurmspec.hints import did_you_mean_any_spelling as did_you_mean
from slurmspec.spec.values import from_option, gpu_from_option
from slurmspec.version import Version

_GPU_KEYS = {"gpus-per-node": "gpus_per_node", "gpus-per-task": "gpus_per_task"}


def split_raw(word: str) -> tuple[str, str | None]:
    """``--name=value`` -> ("name", "value"); ``--flag`` -> ("flag", None)."""
    name, eq, value = word[2:].partition("=")
    return name, (value if eq else None)


def check_raw_options(words: list[str], version: Version) -> Iterator[tuple[int, str]]:
    from slurmspec.model.catalogue.options import NONE, REQUIRED, by_long_name, lookup
    seen: set[str] = set()
    for i, word in enumerate(words):
        if not word.startswith("--") or len(word) < 3:
            yield i, f"`{word}` must be a long option, `--name=value` or `--flag`"
            continue
        name, value = split_raw(word)
        spec = lookup(name)
        if spec is None or not spec.exists_in(version):
            known = [n for n, s in by_long_name().items() if s.exists_in(version)]
            yield i, f"sbatch has no option `--{name}`{did_you_mean(name, known)}"
            continue
        if spec.long in seen and not spec.accumulates:
            yield i, f"`--{spec.long}` is given twice; only the last one counts, so keep that one"
            continue
        seen.add(spec.long)
        if spec.early_pass:
            yield i, f"`--{name}` is ignored inside #SBATCH lines (sbatch reads it from the command line only)"
            continue
        argument = spec.argument_in(version)
        if argument == NONE and value is not None:
            yield i, f"`--{name}` takes no value"
        elif argument == REQUIRED and value is None:
            yield i, f"`--{name}` needs a value: `--{name}=...`"


def canonical_options(words: list[str]) -> tuple[str, ...]:
    """Canonical names (aliases resolved), grouped by name in name order.

    The order of different options on #SBATCH lines does not change the request;
    repeats of one option keep their order (the last wins, or they accumulate).
    """
    from slurmspec.model.catalogue.options import lookup

    named = []
    for word in words:
        name, value = split_raw(word)
        spec = lookup(name)
        canon = spec.long if spec is not None else name
        named.append((canon, f"--{canon}" if value is None else f"--{canon}={value}"))
    return tuple(word for _, word in sorted(named, key=lambda item: item[0]))


def typed_spelling(option: str, value: str | None, context: dict[str, Any]) -> tuple[str, str, Any] | None:
    """(section, key, spec value) when ``--option[=value]`` has a typed key, else None.

    ``context`` is what the typed keys already decide: the values set so far
    (``(section, key) -> value``), ``raw`` (the raw option names) and
    ``version``. A value sbatch would refuse has no typed spelling: it stays a
    raw option (raw values are not judged here; `slurmspec lint` reports them).
    """
    if option in ("requeue", "no-requeue"):
        if ("job", "requeue") in context or {"requeue", "no-requeue"} <= context.get("raw", set()):
            return None
        return "job", "requeue", option == "requeue"
    fields = option_fields()
    if option not in fields or context.get("raw_count", {}).get(option, 0) > 1:
        return None  # repeated raw occurrences of an accumulating option have no single typed spelling
    section, field = fields[option]
    if (section, field.key) in context or _excluded(section, field.key, context):
        return None
    if option in _GPU_KEYS:
        parsed = gpu_from_option(value)
        if parsed is None:
            return None
        gpu_type = context.get(("resources", "gpu_type"))
        has_gpu_key = any((section, k) in context for k in _GPU_KEYS.values())
        if parsed[0] != gpu_type and (has_gpu_key or gpu_type is not None):
            return None
        if not _valid(option, value, context.get("version")) or not _accepted(section, field.key, parsed[1], context):
            return None
        if parsed[0] is not None and not _accepted(section, "gpu_type", parsed[0], context):
            return None
        return section, field.key, parsed
    spelled = from_option(field, value)
    if spelled is None or not _valid(option, value, context.get("version")) \
            or not _accepted(section, field.key, spelled, context):
        return None
    return section, field.key, spelled


def _excluded(section: str, key: str, context: dict[str, Any]) -> bool:
    """Does a typed key already set exclude this one (``mem`` and ``mem_per_gpu``...)?

    Then the option stays raw, and the loader reports the pair (spec/requests.py).
    """
    from slurmspec.spec.requests import EXCLUSIVE_GROUPS

    return any(key in group and any((section, other) in context for other in group if other != key)
               for group in EXCLUSIVE_GROUPS)


def _accepted(section: str, key: str, value: Any, context: dict[str, Any]) -> bool:
    """Only a value the loader takes for the key is a typed spelling (else it stays raw)."""
    from slurmspec.spec.load import accepts
    from slurmspec.version import NEWEST

    return accepts(section, key, value, context.get("version") or NEWEST)


def _valid(option: str, value: str | None, version: Version | None) -> bool:
    from slurmspec.model.catalogue.options import lookup
    from slurmspec.model.values import PARSERS
    from slurmspec.version import NEWEST

    spec = lookup(option)
    if value is None or spec is None or spec.kind is None:
        return True
    return PARSERS[spec.kind](value, version or NEWEST).ok
