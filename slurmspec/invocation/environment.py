"""Read sbatch's input environment variables (``SBATCH_PARTITION``, ``SBATCH_TIMELIMIT`` ...) as sbatch does.

``src/sbatch/opt.c:_opt_env()`` walks its ``env_vars[]`` table in order and
hands the value of each variable that is set to ``slurm_process_option()``
with ``set_by_env`` true, for every hetjob component (man sbatch, "INPUT
ENVIRONMENT VARIABLES"). Facts this module relies on, checked against sbatch
22.05.8 (``--test-only -v``):

- The value is the option's argument as it is, never split into words: an
  empty ``SBATCH_TIMELIMIT=`` is the argument ``""`` (sbatch: "Invalid --time
  specification"); an empty value of an optional-argument option
  (``SBATCH_EXCLUSIVE=``) means "no argument".
- A flag option (no argument) is set by an empty value, ``yes`` (any case) or
  a non-zero integer (``2``, ``-1``); any other value (``no``, ``0``, ``1x``)
  *resets* the option, cancelling an ``#SBATCH`` line (``SBATCH_REQUEUE=no``
  undoes ``#SBATCH --requeue``). ``Reset`` records that.
- Where two variables set one option the later in the table wins:
  ``SBATCH_HINT`` beats ``SLURM_HINT``, ``SLURM_CLUSTERS`` beats
  ``SBATCH_CLUSTERS``, and ``SBATCH_REQUEUE`` beats ``SBATCH_NO_REQUEUE``
  (they share one field). Only such pairs make the order matter; the rest of
  the order below is the option catalogue's.

Not read here: ``SBATCH_DEBUG`` (``-v``; a number, it changes only what sbatch
prints), ``SBATCH_IGNORE_PBS`` (``#PBS`` lines are not modelled),
``SBATCH_REQ_SWITCH``/``SBATCH_WAIT4SWITCH`` (halves of ``--switches``), and
variables sbatch reads outside that table (``SLURM_HOSTFILE``,
``SLURM_EXIT_ERROR``, ``SLURM_CONF``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Mapping

from slurmspec.frozen import frozen
from slurmspec.kinds import ArgKind
from slurmspec.model.catalogue.options import OptionSpec, all_options, lookup
from slurmspec.model.syntax.script import Directive
from slurmspec.span import Span
from slurmspec.version import Version

# Variables of env_vars[] that are not an option's own SBATCH_ name, placed where the table has them.
_READ_BEFORE = {"SBATCH_HINT": ("SLURM_HINT", "hint")}
_READ_AFTER = {"SBATCH_CLUSTERS": ("SLURM_CLUSTERS", "clusters")}
_NOT_MODELLED = frozenset({"SBATCH_DEBUG"})

# strtol(value, &end, 10) reaching the end: optional blanks, a sign, digits.
_INTEGER = re.compile(r"[ \t\n\v\f\r]*[+-]?[0-9]+")


@frozen
class Reset:
    """A flag variable whose value unsets the option (``SBATCH_REQUEUE=no``)."""

    option: OptionSpec
    name: str
    value: str
    span: Span


@lru_cache(maxsize=1)
def variable_order() -> tuple[tuple[str, str], ...]:
    """(variable, option) for every variable this module reads, in the order sbatch applies them."""
    order: list[tuple[str, str]] = []
    for spec in all_options():
        name = spec.env_var
        if name is None or name in _NOT_MODELLED:
            continue
        if name in _READ_BEFORE:
            order.append(_READ_BEFORE[name])
        order.append((name, spec.long))
        if name in _READ_AFTER:
            order.append(_READ_AFTER[name])
    return tuple(order)


def read_variables(environ: Mapping[str, str], version: Version) -> list[tuple[str, str, OptionSpec]]:
    """(name, value, option) of each variable set in ``environ`` that sbatch ``version`` reads, in its order."""
    found = []
    for name, long in variable_order():
        value = environ.get(name)
        spec = lookup(long)
        if value is None or spec is None or not spec.exists_in(version):
            continue
        found.append((name, value, spec))
    return found


def sbatch_variables(environ: Mapping[str, str]) -> dict[str, str]:
    """Only the variables of ``environ`` that some Slurm release's sbatch reads as options."""
    names = {name for name, _ in variable_order()}
    return {name: value for name, value in environ.items() if name in names}


def environment_text(variables: list[tuple[str, str, OptionSpec]]) -> str:
    return "".join(f"{name}={value}\n" for name, value, _ in variables)


def environment_settings(
    variables: list[tuple[str, str, OptionSpec]], version: Version, make_span,
) -> list[Directive | Reset]:
    """One ``Directive`` (component 0) or ``Reset`` per variable; ``make_span`` takes offsets into the text."""
    settings: list[Directive | Reset] = []
    at = 0
    for name, value, spec in variables:
        start, name_end = at, at + len(name)
        value_start, value_end = name_end + 1, name_end + 1 + len(value)
        line = make_span(start, value_end)
        at = value_end + 1  # past the line's "\n"
        argument = spec.argument_in(version)
        if argument is ArgKind.NONE:
            if not _flag_is_set(value):
                settings.append(Reset(spec, name, value, line))
                continue
            value_text, value_span = None, None
        elif argument is ArgKind.OPTIONAL and value == "":
            value_text, value_span = None, None
        else:
            value_text, value_span = value, make_span(value_start, value_end)
        settings.append(
            Directive(
                option=spec,
                spelling=f"--{spec.long}",  # canonical: messages quote `raw`, the variable as set
                raw=f"{name}={value}",
                value=value_text,
                span=line,
                name_span=make_span(start, name_end),
                value_span=value_span,
                component=0,
                ignored=False,
            )
        )
    return settings


def _flag_is_set(value: str) -> bool:
    """``slurm_process_option()`` for a flag set by the environment: empty, ``yes`` or a non-zero integer."""
    if value == "" or value.lower() == "yes":
        return True
    return bool(_INTEGER.fullmatch(value)) and int(value) != 0
