"""Checks of the workflow keys: the names the script exports, the stop signal and what can carry it, the chain.

The contract these keys build on (docs/spec.md, "Stopping before the time
limit"): Slurm signals the batch shell (``--signal=B:...``), the emitted script
traps the signal and passes it on to the launch, the program saves its state
and exits 0, and a ``[chain]`` queues the next link only after such a stop.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

from slurmspec.spec.model import Spec

# A `[chain]` without `job.signal` is stopped by SIGUSR1 five minutes before its limit.
DEFAULT_CHAIN_SIGNAL = "B:USR1@300"

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Variables bash or the emitted script give a meaning to: PATH finds every command, IFS splits
# words, SECONDS times the signal's grace (slurmspec/spec/writer/stop.py), SLURM_* are Slurm's own
# (srun reads them), CHAIN_INDEX, CHAIN_DONE, slurmspec_* and SLURMSPEC_* are the emitted script's.
_TAKEN = frozenset({"PATH", "IFS", "SECONDS", "CHAIN_INDEX", "CHAIN_DONE"})
_TAKEN_PREFIXES = ("SLURM_", "SLURMSPEC_", "slurmspec_")
# SIGKILL and SIGSTOP cannot be caught (signal(7)), so no trap or program handler ever sees them.
_UNCATCHABLE = {9: "KILL", 19: "STOP"}
# Open MPI's mpirun passes SIGUSR1 and SIGUSR2 on to the processes it started, and acts on the
# others itself (mpirun(1), "Signal Propagation").
_MPIRUN_PASSES = frozenset({10, 12})


def with_default_signal(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with ``job.signal`` set to `DEFAULT_CHAIN_SIGNAL` when a generated body has a ``[chain]`` but no signal.

    A link continues only when the signal stopped it, so a chain always has one; the
    loaded spec holds it, so ``convert(emit(spec)) == spec`` still holds.
    """
    job = data.get("job", {})
    if "chain" not in data or "launch" not in data or not isinstance(job, dict) or "signal" in job:
        return data
    return {**data, "job": {**job, "signal": DEFAULT_CHAIN_SIGNAL}}


def check_workflow(spec: Spec) -> Iterator[tuple[tuple, str]]:
    yield from _names(spec)
    if spec.section("launch") is not None:
        yield from _signal(spec)
    if spec.section("chain") is not None and spec.get("job", "array") is not None:
        yield ("chain",), ("[chain] cannot be used with `job.array`: each array task would resubmit the"
                           " whole array")


def _names(spec: Spec) -> Iterator[tuple[tuple, str]]:
    """``export_as`` is written bare in ``export NAME=...``, so it must be a name, and not one already taken."""
    seen: dict[str, str] = {}
    for section, default in (("staging", "STAGE_DIR"), ("checkpoint", "CHECKPOINT_DIR")):
        if spec.section(section) is None:
            continue
        name = spec.get(section, "export_as", default)
        where = (section, "export_as")
        if not _NAME.fullmatch(name):
            yield where, (f"`{section}.export_as` must be a shell variable name (a letter or `_`, then letters,"
                          f" digits and `_`), not {_shown(name)}")
        elif name in _TAKEN or name.startswith(_TAKEN_PREFIXES):
            yield where, (f"`{section}.export_as` cannot be `{name}`: the shell, Slurm or the emitted script"
                          " already use that variable")
        elif name in seen:
            yield where, f"`{section}.export_as` is `{name}`, as `{seen[name]}.export_as`: use another name"
        seen[name] = section


def _shown(text: str) -> str:
    """A refused value in a message: its repr when it holds control characters, else in backticks."""
    return repr(text) if any(ord(ch) < 32 or ord(ch) == 127 for ch in text) else f"`{text}`"


def _signal(spec: Spec) -> Iterator[tuple[tuple, str]]:
    job = spec.section("job")
    sig = None if job is None else job.typed.get("signal")
    if sig is None:
        return
    text = job.get("signal")
    if "B" not in sig.flags:
        yield ("job", "signal"), (
            f"`job.signal = \"{text}\"` has no `B:`: Slurm would signal the job steps and not the batch"
            " shell, so the emitted script could neither pass it on to the launch nor tell that the run"
            f" was stopped; write `B:{text.split(':')[-1]}`")
    elif sig.signal in _UNCATCHABLE:
        yield ("job", "signal"), (f"`job.signal`: SIG{_UNCATCHABLE[sig.signal]} cannot be caught, so no"
                                  " program can save its state on it; use `B:USR1@...`")
    launcher = spec.get("launch", "launcher")
    if launcher == "horovodrun":
        yield ("launch", "launcher"), ("horovodrun does not pass `job.signal` on to the processes it starts:"
                                       " leave `launcher` out so srun starts them (srun passes signals on)")
    elif launcher == "mpirun" and sig.signal not in _MPIRUN_PASSES:
        yield ("job", "signal"), ("mpirun passes only SIGUSR1 and SIGUSR2 on to its processes: use"
                                  " `B:USR1@...` or `B:USR2@...`")
