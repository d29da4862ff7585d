"""Completion on ``#SBATCH`` lines: long option names, then the values sbatch knows for the option.

The line up to the cursor is split into words by sbatch's own tokeniser
(``slurmspec.parser.words``), so quotes, escapes and a trailing ``#`` comment
mean what they mean to sbatch (nothing is offered inside a comment). Option
names come from the catalogue for the target release (early-pass options,
which sbatch ignores in a script, are left out); an option that needs a value
is inserted with its ``=``. Values are offered for keyword options (mail
types, distributions, signals, hints ...) and each candidate is checked with
the option's own value parser for the target release, so a value that release
refuses (``--exclusive=topo`` before 24.05) is never offered. With a cluster
profile, partitions, GPU types and node features are offered too
(``slurmspec.lsp.cluster_values``).
"""

from __future__ import annotations

from typing import Callable, Iterable

from lsprotocol import types

from slurmspec.kinds import ArgKind, ValueKind
from slurmspec.model.catalogue.options import OptionSpec, all_options, by_short_name, lookup
from slurmspec.version import Version

PREFIX = "#SBATCH"
# Characters that separate the items of a value being typed (lists, constraint expressions, a:b:c).
_ITEM_SEPARATORS = ",&|[]()*:"


def _keyword_candidates(kind: ValueKind | None) -> tuple[str, ...]:
    from slurmspec.model.values import binding, dependency, enums, signal

    return {
        ValueKind.MAIL_TYPE: enums.MAIL_TYPES,
        ValueKind.HINT: enums.HINTS,
        ValueKind.PROFILE: enums.PROFILES,
        ValueKind.PROPAGATE: ("ALL", "NONE", *enums.RLIMITS),
        ValueKind.OPEN_MODE: ("append", "truncate"),
        ValueKind.GRES_FLAGS: ("disable-binding", "enforce-binding", "one-task-per-sharing",
                               "multiple-tasks-per-sharing"),
        ValueKind.KILL_ON_INVALID_DEP: ("yes", "no"),
        ValueKind.WAIT_ALL_NODES: ("0", "1"),
        ValueKind.EXCLUSIVE: ("user", "mcs", "topo", "allocation"),
        ValueKind.NO_KILL: ("off",),
        ValueKind.REQUEUE: ("expedite",),
        ValueKind.OOM_KILL_STEP: ("0", "1"),
        ValueKind.EXPORT: ("ALL", "NONE", "NIL"),
        ValueKind.DISTRIBUTION: ("block", "cyclic", "arbitrary", "block:block", "block:cyclic", "block:fcyclic",
                         "cyclic:block", "cyclic:cyclic", "cyclic:fcyclic", "pack", "nopack"),
        ValueKind.SIGNAL: tuple(signal.SIGNALS),
        # Every type but "singleton" is followed by job IDs.
        ValueKind.DEPENDENCY: tuple(t if t == "singleton" else f"{t}:" for t in dependency.TYPES),
        ValueKind.CPU_FREQ: ("low", "medium", "high", "highm1", *binding.GOVERNORS),
    }.get(kind, ())


def _accepted(kind: ValueKind, candidate: str, version: Version) -> bool:
    """True when the option's parser reads ``candidate`` cleanly in ``version`` (no problem at all)."""
    from slurmspec.model.values import PARSERS

    if candidate.endswith(":"):  # "afterok:" waits for a job ID; judge it with one
        candidate += "1"
    if kind is ValueKind.SIGNAL:
        candidate = f"{candidate}@60"
    parsed = PARSERS[kind](candidate, version)
    return parsed.value is not None and not parsed.problems


def keyword_values(spec: OptionSpec, version: Version) -> list[str]:
    return [c for c in _keyword_candidates(spec.kind) if _accepted(spec.kind, c, version)]


def option_items(version: Version, replace: types.Range, typed: str = "") -> list[types.CompletionItem]:
    """The options a word starting with ``typed`` can become (every one for ``-`` and ``--``).

    Filtered here, not only by the editor: a client that shows the list as sent (or a test, or a
    user reading the protocol log) would get all 112 options after ``--gp``."""
    from slurmspec.lsp.option_help import meaning
    from slurmspec.model.values import describe

    items = []
    for spec in all_options():
        if spec.early_pass or not spec.exists_in(version):
            continue
        if typed.startswith("--") and not f"--{spec.long}".startswith(typed):
            continue
        needs_value = spec.argument_in(version) is ArgKind.REQUIRED
        text = f"--{spec.long}=" if needs_value else f"--{spec.long}"
        items.append(types.CompletionItem(
            label=text, kind=types.CompletionItemKind.Property, detail=meaning(spec.long),
            documentation=f"Takes {describe(spec.kind)}." if needs_value and spec.kind else None,
            filter_text=f"--{spec.long}", text_edit=types.TextEdit(range=replace, new_text=text),
        ))
    return items


def _value_items(values: Iterable[str], replace: types.Range, detail: str) -> list[types.CompletionItem]:
    return [
        types.CompletionItem(label=value, kind=types.CompletionItemKind.EnumMember, detail=detail,
                             text_edit=types.TextEdit(range=replace, new_text=value))
        for value in values
    ]


def _item_start(raw_value: str) -> int:
    """Where the item being typed starts inside a value's source text (after the last separator, quotes)."""
    start = max((raw_value.rfind(sep) for sep in _ITEM_SEPARATORS), default=-1) + 1
    while start < len(raw_value) and raw_value[start] in "\"'":
        start += 1
    return start


def complete(line: str, cursor: int, version: Version,
             to_range: Callable[[int, int], types.Range],
             extra_values: Callable[[OptionSpec, str], list[str]] | None = None,
             ) -> list[types.CompletionItem]:
    """Items for the cursor at column ``cursor`` (characters) of physical ``line``.

    ``to_range(start, end)`` maps columns of the line to an LSP range;
    ``extra_values(spec, raw_value)`` adds values from a cluster profile.
    """
    before = line[:cursor]
    if not before.startswith(PREFIX):
        if before and PREFIX.startswith(before) and len(before) >= 2:
            return [types.CompletionItem(label=f"{PREFIX} --", kind=types.CompletionItemKind.Keyword,
                                         text_edit=types.TextEdit(range=to_range(0, cursor), new_text=f"{PREFIX} "))]
        return []
    from slurmspec.parser.words import tokenise

    base = len(PREFIX)
    if base == cursor:
        return []
    tokens = tokenise(before[base:], base, version)
    if tokens.comment_start is not None or tokens.dropped_start is not None or tokens.separator:
        return []
    words = list(tokens.words)
    typing = words.pop() if words and words[-1].end == cursor else None
    start = typing.start if typing else cursor
    raw = before[start:cursor]
    previous = words[-1] if words else None
    if raw.startswith("--") and "=" in raw:
        spec = lookup(raw[2:raw.index("=")])
        value_at = start + raw.index("=") + 1
    elif raw.startswith("-") and not raw.startswith("--") and len(raw) > 2:
        spec = by_short_name().get(raw[1])  # -pgpu: the value is glued to the short option
        value_at = start + 2
    elif raw.startswith("-"):
        return option_items(version, to_range(start, cursor), raw)
    else:
        spec = _option_awaiting_value(previous.value if previous else None, version)
        value_at = start
        if spec is None:
            return option_items(version, to_range(start, cursor)) if not raw else []
    if spec is None or spec.kind is None:
        return []
    raw_value = before[value_at:cursor]
    item_at = value_at + _item_start(raw_value)
    replace = to_range(item_at, cursor)
    typed = raw_value[item_at - value_at:].lower()
    values = keyword_values(spec, version)
    items = _value_items(values, replace, f"--{spec.long}")
    if extra_values is not None:
        items += _value_items(extra_values(spec, raw_value), replace, "from the cluster profile")
    return [item for item in items if item.label.lower().startswith(typed)]


def _option_awaiting_value(word: str | None, version: Version) -> OptionSpec | None:
    """The option whose value is the next word (``--partition gpu``, ``-p gpu``), if ``word`` is one."""
    if not word or not word.startswith("-") or "=" in word:
        return None
    if word.startswith("--"):
        spec = lookup(word[2:])
    elif len(word) == 2:
        spec = by_short_name().get(word[1])
    else:
        return None
    if spec is None or spec.argument_in(version) is not ArgKind.REQUIRED:
        return None
    return spec
