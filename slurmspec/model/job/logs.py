"""Where a job's standard streams go: the effective `--output`/`--error`/`--input` of each component.

sbatch keeps the names as written; a relative name is prefixed with the
`--chdir` folder, else sbatch's working folder (``src/sbatch/opt.c``,
``_fullpath()``). Without `--output` the batch output goes to ``slurm-%j.out``
(``slurm-%A_%a.out`` for an array), without `--error` standard error goes to the
`--output` file, without `--input` standard input is ``/dev/null`` (``man
sbatch``). The `%` patterns are expanded by slurmstepd when the job starts
(``src/slurmd/common/fname.c``, ``fname_create()``): before that only ``%%`` and
``%x`` (the job name: `--job-name`, else the script's file name) have a value
here; ``%j``, ``%u``, ``%N``... stay as placeholders. A folder part holding
``%j``, ``%J``, ``%A`` or ``%S`` is named after the job, so it cannot exist
before the job is submitted: Slurm 22.05 then fails the job without a log
(``src/slurmd/slurmstepd/io.c``), 23.02 and newer create it.

The linter cannot know where `sbatch` will run: relative names are resolved
against the folder of the script file and the linter's own working folder, asked
of ``fs`` (``slurmspec.check.context.FileSystem`` or anything with ``cwd``,
``isdir`` and ``isfile``); a folder counts as missing only when it exists in
neither.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Iterable, Protocol

import attrs

from slurmspec.frozen import as_tuple, frozen
from slurmspec.model.values.filename import FilenamePattern, parse_filename

if TYPE_CHECKING:  # pragma: no cover - typing only
    from slurmspec.model.job.request import Setting
    from slurmspec.model.syntax.script import Component, Script

STREAMS = ("output", "error", "input")
DEFAULT_OUTPUT = "slurm-%j.out"
DEFAULT_ARRAY_OUTPUT = "slurm-%A_%a.out"
DEFAULT_INPUT = "/dev/null"
# Patterns named after the job itself (job id, array master id, SLUID): no folder can carry one beforehand.
FRESH_SPECS = frozenset("jJAS")
_SHELL_CHARS = ("$", "~", "`")
_NO_SCRIPT_NAME = ("-", "<stdin>")  # standard input: 22.05 expands `%x` to "(null)"


class FileSystemLike(Protocol):
    def cwd(self) -> str | None: ...
    def isdir(self, path: str) -> bool: ...
    def isfile(self, path: str) -> bool: ...


@frozen
class Piece:
    """A stretch of an expanded name: literal text, or one `%` pattern."""

    text: str  # the value, or the pattern as written when it is only known once the job runs
    spec: str | None = None  # the pattern's letter ("%" for `%%`); None for literal text
    known: bool = True  # False: a placeholder (`%j`, `%u`, `%N`, ...)
    width: int | None = None  # zero padding asked for (`%4j`)


@frozen
class Base:
    """Where a component's relative names resolve: folders that exist here, best first."""

    dirs: tuple[str, ...]
    via_chdir: bool  # relative to `--chdir` (else to the submit folder)
    known: bool  # False: `--chdir` cannot be resolved here, so nothing relative can be checked
    absolute: bool = False  # `--chdir` is an absolute path


@frozen
class LogFile:
    """One standard stream of one hetjob component."""

    component: int
    stream: str  # "output", "error" or "input" (the option's long name)
    written: str  # the name as written, or Slurm's default
    setting: Setting | None  # the option that decides it; None for a default
    follows_output: bool  # `--error` not given: standard error goes to the `--output` file
    pieces: tuple[Piece, ...] = attrs.field(converter=as_tuple)
    job_name: str | None  # the value of `%x` (None: unknown, e.g. a script read from standard input)
    named: bool  # True: `%x` comes from `--job-name`; False: from the script's file name
    base: Base
    null: bool = False  # /dev/null (`none`, or the default input)
    task_number: bool = False  # only digits: a task number ("single task" I/O), not a file name
    escaped: bool = False  # a backslash turns every `%` into literal text (backslashes removed)

    @property
    def default(self) -> bool:
        return self.setting is None and not self.follows_output

    @property
    def expanded(self) -> str:
        """The name with `%x` and `%%` filled in; the other patterns kept as written."""
        return "".join(piece.text for piece in self.pieces)

    @property
    def folder(self) -> str:
        """The folder part of ``expanded`` ("" when the name has none)."""
        return os.path.dirname(self.expanded)

    @property
    def written_folder(self) -> str:
        return os.path.dirname(self.written)

    def folder_patterns(self, trust_script_name: bool = True) -> tuple[str, ...]:
        """The `%` letters whose value is unknown here in the folder part (in order).

        ``trust_script_name=False`` counts `%x` as unknown too when it comes from the
        script's file name (`sbatch -J` or ``SBATCH_JOB_NAME`` may well name the job).
        """
        pieces = self._folder_pieces()
        return tuple(piece.spec for piece in pieces if not self._settled(piece, trust_script_name))

    @property
    def fresh(self) -> str | None:
        """The first pattern of the folder part named after the job (`%j`...), or None."""
        return next((spec for spec in self.folder_patterns() if spec in FRESH_SPECS), None)

    def known_folder(self, trust_script_name: bool = True) -> str:
        """The leading folder part whose every character is known here ("" for none).

        ``logs/%x/%u/out`` with `--job-name=train` gives ``logs/train``.
        """
        text = ""
        for piece in self._folder_pieces():
            if not self._settled(piece, trust_script_name):
                cut = text.rfind("/")
                return "/" if cut == 0 else text[:max(cut, 0)]
            text += piece.text
        return self.folder

    def fill(self, values: dict[str, str]) -> str:
        """The name with placeholders replaced from ``values`` (``{"j": "42"}``), numbers zero-padded."""
        parts = []
        for piece in self.pieces:
            value = values.get(piece.spec) if piece.spec is not None and not piece.known else None
            if value is None:
                parts.append(piece.text)
            elif piece.width and value.isdigit():
                parts.append(value.zfill(min(piece.width, 10)))
            else:
                parts.append(value)
        return "".join(parts)

    def _settled(self, piece: Piece, trust_script_name: bool) -> bool:
        if piece.spec is None or piece.spec == "%":
            return True
        if piece.spec == "x" and piece.known:
            return trust_script_name or self.named
        return piece.known

    def _folder_pieces(self) -> Iterable[Piece]:
        """The pieces (cut where needed) that make up ``folder``."""
        remaining = len(self.folder)
        for piece in self.pieces:
            if remaining <= 0:
                return
            yield piece if len(piece.text) <= remaining else attrs.evolve(piece, text=piece.text[:remaining])
            remaining -= len(piece.text)


def log_files(script: Script, fs: FileSystemLike) -> tuple[LogFile, ...]:
    """`--output`, `--error` and `--input` of every hetjob component, in that order."""
    found = []
    for component in script.components:
        base = component_base(script, fs, component)
        job_name, named = _job_name(script, component)
        output = _log_file(script, component, "output", base, job_name, named)
        found += [output, _log_file(script, component, "error", base, job_name, named, output),
                  _log_file(script, component, "input", base, job_name, named)]
    return tuple(found)


def _job_name(script: Script, component: Component) -> tuple[str | None, bool]:
    setting = component.request.get("job-name")
    if setting is not None and isinstance(setting.raw, str):
        return setting.raw, True
    path = script.path
    if not path or path in _NO_SCRIPT_NAME:
        return None, False
    return os.path.basename(path), False


def _log_file(script: Script, component: Component, stream: str, base: Base, job_name: str | None,
              named: bool, output: LogFile | None = None) -> LogFile:
    setting = component.request.get(stream)
    pattern = setting.value if setting is not None else None
    if setting is not None and not isinstance(pattern, FilenamePattern):  # empty or unparsed: Slurm's default
        setting, pattern = None, None
    common = dict(component=component.index, stream=stream, job_name=job_name, named=named, base=base)
    if pattern is None and output is not None:
        return attrs.evolve(output, stream=stream, setting=None, follows_output=True)
    if pattern is None:
        if stream == "input":
            return LogFile(written=DEFAULT_INPUT, setting=None, follows_output=False,
                           pieces=(Piece(DEFAULT_INPUT),), null=True, **common)
        array = component.request.get("array") is not None
        pattern = parse_filename(DEFAULT_ARRAY_OUTPUT if array else DEFAULT_OUTPUT, script.version).value
    text = pattern.text
    return LogFile(written=text, setting=setting, follows_output=False, pieces=_pieces(pattern, job_name),
                   null=pattern.is_none, task_number=text.isascii() and text.isdigit(),
                   escaped=pattern.escaped, **common)


def _pieces(pattern: FilenamePattern, job_name: str | None) -> tuple[Piece, ...]:
    text = pattern.text
    if pattern.is_none:
        return (Piece("/dev/null"),)
    if pattern.escaped:
        return (Piece(text.replace("\\", "")),)
    pieces = []
    at = 0
    for token in pattern.tokens:
        if token.start > at:
            pieces.append(Piece(text[at:token.start]))
        raw = text[token.start:token.end]
        if token.spec == "%":
            pieces.append(Piece("%", "%"))
        elif not token.known:  # Slurm leaves what it does not know as literal text
            pieces.append(Piece(raw))
        elif token.spec == "x" and job_name is not None:
            pieces.append(Piece(job_name, "x", width=token.width))
        else:
            pieces.append(Piece(raw, token.spec, known=False, width=token.width))
        at = token.end
    if at < len(text):
        pieces.append(Piece(text[at:]))
    return tuple(pieces)


# --- where relative names resolve ---------------------------------------------------


def shell_free(text: str) -> bool:
    """True when ``text`` has nothing a reader could take for shell syntax or a pattern."""
    return not any(c in text for c in _SHELL_CHARS) and "%" not in text and "\\" not in text


def submit_dirs(script: Script, fs: FileSystemLike) -> list[str]:
    """Folders that stand in for sbatch's working folder, best first (absolute paths).

    The folder of the script file is the usual one; the linter's own working
    folder is the other (``sbatch jobs/train.sbatch`` from the project root).
    For standard input only the working folder is left.
    """
    dirs: list[str] = []
    path = script.path
    cwd = fs.cwd()
    if path and fs.isfile(path):
        if not os.path.isabs(path) and cwd is None:
            return dirs
        dirs.append(os.path.dirname(os.path.normpath(os.path.join(cwd or "", path))))
    if cwd is None:
        return dirs
    if cwd not in dirs:
        dirs.append(cwd)
    return dirs


def component_base(script: Script, fs: FileSystemLike, component: Component) -> Base:
    """Where the relative names of ``component`` resolve (its `--chdir`, else the submit folder)."""
    submit = tuple(submit_dirs(script, fs))
    chdir = component.request.get("chdir")
    if chdir is None or not isinstance(chdir.raw, str):
        return Base(submit, False, bool(submit))
    value = chdir.raw
    if not value or not shell_free(value):
        return Base((), True, False)
    if os.path.isabs(value):
        return Base((value,), True, fs.isdir(value), absolute=True)
    found = tuple(os.path.join(d, value) for d in submit if fs.isdir(os.path.join(d, value)))
    return Base(found, True, bool(found))


def absolute_missing(fs: FileSystemLike, directory: str) -> bool:
    """True when absolute ``directory`` is missing but its parent exists here.

    When more than the last component is missing (``/scratch/alice/logs`` on a
    laptop) the linter is most likely not running on the cluster's file
    system, so saying "missing" would be noise.
    """
    directory = os.path.normpath(directory)
    if fs.isdir(directory):
        return False
    parent = os.path.dirname(directory)
    return parent not in ("/", "", directory) and fs.isdir(parent)


def folder_missing(fs: FileSystemLike, base: Base, folder: str) -> bool:
    """True when ``folder`` (of a name resolved against ``base``) surely does not exist here."""
    if not folder or not shell_free(folder):
        return False
    if os.path.isabs(folder):
        return absolute_missing(fs, folder)
    if not base.known or not base.dirs:
        return False
    return not any(fs.isdir(os.path.join(d, folder)) for d in base.dirs)
