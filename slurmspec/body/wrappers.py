"""Look through command wrappers (``exec``, ``time``, ``env X=1``, ``apptainer exec IMG``...) to the real command.

A wrapper runs its argument command in the same place, so ``exec srun ...``,
``time mpirun ...`` or ``apptainer exec --nv img.sif torchrun ...`` launch the
same thing as the bare command.  Each wrapper's option table only needs to know
which options take a separate value, so that the value is not mistaken for the
command.  Unknown options are assumed to be flags.
"""

from __future__ import annotations

import os.path


from slurmspec.body.commands import Assignment, assignment_of
from slurmspec.body.tokens import Word
from slurmspec.frozen import frozen
from slurmspec.kinds import AssignmentKind

__all__ = ["Unwrapped", "unwrap", "basename", "quoted_content"]


@frozen(slots=True)
class Unwrapped:
    """Where the real command starts in a word list, and what was looked through."""

    index: int  # index of the real command word; == len(words) when there is none
    wrappers: tuple[str, ...] = ()
    env: tuple[Assignment, ...] = ()  # from ``env NAME=value``
    image: Word | None = None  # apptainer/singularity image


def basename(word: str) -> str:
    """``/usr/bin/python3`` -> ``python3``; quoting already removed."""
    return os.path.basename(word.rstrip("/")) if "/" in word else word


# wrapper name -> (options taking a separate value, number of positional words before the command)
# Option sets come from each tool's --help: coreutils env/nice/stdbuf/timeout,
# numactl(8), taskset(1), shifter, apptainer/singularity exec|run, conda/mamba run, uv run.
_SIMPLE: dict[str, tuple[frozenset[str], int]] = {
    "exec": (frozenset({"-a"}), 0),
    "time": (frozenset(), 0),
    "nohup": (frozenset(), 0),
    "unbuffer": (frozenset(), 0),
    "command": (frozenset(), 0),
    "nice": (frozenset({"-n", "--adjustment"}), 0),
    "ionice": (frozenset({"-c", "-n", "--class", "--classdata"}), 0),
    "stdbuf": (frozenset({"-i", "-o", "-e", "--input", "--output", "--error"}), 0),
    "timeout": (frozenset({"-s", "-k", "--signal", "--kill-after"}), 1),
    "taskset": (frozenset(), 1),
    "numactl": (
        frozenset({
            "-N", "-m", "-C", "-i", "-p", "-w", "-P", "--cpunodebind", "--membind", "--physcpubind",
            "--interleave", "--preferred", "--preferred-many", "--weighted-interleave",
        }),
        0,
    ),
    "env": (frozenset({"-u", "-C", "--unset", "--chdir"}), 0),
    # NERSC shifter: shifter --image=IMG [--volume=...] cmd
    "shifter": (frozenset({"--image", "--module", "-V", "--volume", "--workdir", "-w", "--env", "-e"}), 0),
}
_CONTAINER_VALUES = frozenset({
    "-B", "--bind", "--mount", "-H", "--home", "-W", "--workdir", "-o", "--overlay", "--pwd",
    "-S", "--scratch", "--security", "--network", "--network-args", "--app", "--env", "--env-file",
    "--dns", "--hostname", "--fusemount", "--apply-cgroups", "--drop-caps", "--add-caps",
    "--pem-path", "--passphrase", "--cwd",
})
_RUNNER_VALUES = {
    # conda / mamba / micromamba run -n ENV cmd
    "conda": frozenset({"-n", "--name", "-p", "--prefix", "--cwd"}),
    "mamba": frozenset({"-n", "--name", "-p", "--prefix", "--cwd"}),
    "micromamba": frozenset({"-n", "--name", "-p", "--prefix", "--cwd"}),
    "uv": frozenset({
        "--with", "--python", "-p", "--project", "--directory", "--env-file", "--extra", "--group",
        "--index", "--package", "--with-requirements", "--only-group", "--no-group",
    }),
    "poetry": frozenset(),
    "pipenv": frozenset(),
}
# Forms that print something instead of running a command.
_NOT_WRAPPING = {"command": ("-v", "-V"), "numactl": ("-s", "--show", "-H", "--hardware"), "taskset": ("-p", "--pid")}


def _skip_options(words: tuple[Word, ...], i: int, takes_value: frozenset[str]) -> int:
    """Skip ``-x``/``--long[=v]`` options from ``i``; return the first non-option index."""
    n = len(words)
    while i < n:
        t = words[i].value
        if t == "--":
            return i + 1
        if not t.startswith("-") or t == "-":
            return i
        name = t.split("=", 1)[0]
        if name in takes_value and "=" not in t:
            i += 2
        elif not name.startswith("--") and len(name) > 2 and name[:2] in takes_value:
            i += 1  # -oL, -n10: value attached
        else:
            i += 1
    return i


def unwrap(words: tuple[Word, ...], i: int = 0) -> Unwrapped:
    """Skip wrappers from ``words[i]`` on; never raises."""
    n = len(words)
    wrappers: list[str] = []
    env: list[Assignment] = []
    image: Word | None = None
    while i < n:
        name = basename(words[i].value)
        if name in _SIMPLE:
            takes_value, positionals = _SIMPLE[name]
            nxt = words[i + 1].value if i + 1 < n else ""
            if nxt in _NOT_WRAPPING.get(name, ()):
                return Unwrapped(n, tuple(wrappers), tuple(env), image)
            j = _skip_options(words, i + 1, takes_value)
            if name == "nice" and j == i + 1 and nxt[1:].isdigit() and nxt.startswith("-"):
                j += 1  # nice -10 cmd
            if name == "env":
                while j < n and assignment_of(words[j], AssignmentKind.PREFIX) is not None:
                    env.append(assignment_of(words[j], AssignmentKind.PREFIX))
                    j += 1
            wrappers.append(name)
            i = j + positionals
        elif name in ("apptainer", "singularity") and i + 1 < n and words[i + 1].value in ("exec", "run"):
            j = _skip_options(words, i + 2, _CONTAINER_VALUES)
            if j < n:
                image = words[j]
            wrappers.append(f"{name} {words[i + 1].value}")
            i = j + 1
        elif name in _RUNNER_VALUES and i + 1 < n and words[i + 1].value == "run":
            wrappers.append(f"{name} run")
            i = _skip_options(words, i + 2, _RUNNER_VALUES[name])
        else:
            break
    return Unwrapped(min(i, n), tuple(wrappers), tuple(env), image)


def quoted_content(word: Word) -> tuple[str, list[int]] | None:
    """The inside of a word that is one quoted string, with each character's absolute offset.

    Used to look into ``bash -c '...'``.  Returns None unless the whole word is a
    single '...' or "..." string.  Offsets assume ``word.text`` is the original
    source text of the word (true outside nested quoting; otherwise they are
    clamped into the word's own span).
    """
    text, start = word.text, word.start
    if len(text) < 2 or text[0] not in "'\"" or text[-1] != text[0]:
        return None
    q = text[0]
    if q == "'":
        body = text[1:-1]
        if "'" in body:
            return None
        return body, [min(start + 1 + k, word.end) for k in range(len(body))]
    chars: list[str] = []
    offsets: list[int] = []
    j, last = 1, len(text) - 1
    while j < last:
        c = text[j]
        if c == '"':
            return None
        if c == "\\" and j + 1 < last:
            nxt = text[j + 1]
            if nxt == "\n":
                j += 2
                continue
            if nxt in '$`"\\':
                chars.append(nxt)
                offsets.append(min(start + j + 1, word.end))
                j += 2
                continue
        chars.append(c)
        offsets.append(min(start + j, word.end))
        j += 1
    return "".join(chars), offsets
