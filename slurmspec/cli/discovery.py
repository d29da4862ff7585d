"""Which files ``slurmspec lint`` reads: the paths named, and the batch scripts in named folders.

In a folder, hidden entries are skipped, and so is whatever the exclusion
settings name (``exclude``, else a default list like ruff's, plus
``extend-exclude``) or git ignores (``.gitignore``, unless
``respect-gitignore = false`` / ``--no-respect-gitignore``). Excluded paths
stay silent: saying so for each would bury the report. A path named on the
command line is read even when a pattern excludes it, unless
``--force-exclude`` is given (pre-commit names every staged file itself).
"""

from __future__ import annotations

import os
from functools import cached_property
from typing import Callable, Iterator, NamedTuple, Sequence

# Files picked up when a folder is given: batch-script suffixes always, shell
# scripts only when they contain a directive (linting every shell script
# blindly would be noise).
SCRIPT_SUFFIXES = (".sbatch", ".slurm", ".sub", ".job")
SHELL_SUFFIXES = (".sh", ".bash")

# Folders of tools, environments and build output, never a project's job scripts (ruff's list,
# with __pycache__ and build). Hidden ones only matter for a path named with --force-exclude:
# the walk skips hidden entries anyway.
DEFAULT_EXCLUDE = (
    ".bzr", ".direnv", ".eggs", ".git", ".git-rewrite", ".hg", ".mypy_cache", ".nox", ".pants.d",
    ".pytest_cache", ".pytype", ".ruff_cache", ".svn", ".tox", ".venv", ".vscode", "__pycache__",
    "__pypackages__", "_build", "buck-out", "build", "dist", "node_modules", "site-packages", "venv",
)


class _Glob(NamedTuple):
    root: str  # absolute folder a pattern with a "/" is relative to
    regex: object
    has_slash: bool  # matched against the path below ``root``, else against any name
    folders_only: bool


class Exclusion:
    """The exclusion settings for one walk: glob patterns, and whether ``.gitignore`` counts."""

    def __init__(self, patterns: Sequence[tuple[str, str]], respect_gitignore: bool = True,
                 force: bool = False) -> None:
        """``patterns`` are (glob, the folder it is relative to) pairs (compiled when first matched:
        a run that names only files, without ``--force-exclude``, never matches them)."""
        self.patterns = tuple(patterns)
        self.respect_gitignore = respect_gitignore
        self.force = force

    @cached_property
    def globs(self) -> list[_Glob]:
        from slurmspec.settings.config import glob_regex

        globs = []
        for pattern, root in self.patterns:
            folders_only = pattern.endswith("/")
            body = pattern.rstrip("/").lstrip("/") if pattern.strip("/") else pattern
            globs.append(_Glob(os.path.abspath(root), glob_regex(body), "/" in pattern.rstrip("/"), folders_only))
        return globs

    def excludes(self, path: str, is_folder: bool) -> bool:
        """Whether a pattern names ``path``."""
        absolute = os.path.abspath(path)
        name = os.path.basename(absolute)
        for glob in self.globs:
            if glob.folders_only and not is_folder:
                continue
            if glob.has_slash:
                relative = os.path.relpath(absolute, glob.root)
                if relative.startswith("..") or not glob.regex.fullmatch(relative.replace(os.sep, "/")):
                    continue
                return True
            if glob.regex.fullmatch(name):
                return True
        return False

    def excludes_named(self, path: str) -> bool:
        """With ``--force-exclude``: whether a pattern names ``path`` or a folder it is in."""
        if not self.force:
            return False
        current = os.path.abspath(path)
        is_folder = os.path.isdir(current)
        while True:
            if self.excludes(current, is_folder):
                return True
            parent = os.path.dirname(current)
            if parent == current:
                return False
            current, is_folder = parent, True


# The exclusion that applies to a named path (the configuration found from it, and the flags).
ExclusionFor = Callable[[str], Exclusion]


def discover(paths: Sequence[str], errors: list[str], require_sbatch: bool = False,
             exclusion_for: ExclusionFor | None = None) -> Iterator[str]:
    """The inputs to lint. A path named on the command line is read even when it is a pipe
    (``<(generate-job)``); in a folder only regular files are, others are skipped with a note
    (a FIFO would block the run forever, a device never end).

    Nothing is left out silently but what the exclusion settings name: what cannot be read is an
    error (exit 2) when the user named it, and a note naming it when it was met in a folder.
    """
    for path in paths:
        exclusion = None if path == "-" or exclusion_for is None else exclusion_for(path)
        if exclusion is not None and exclusion.excludes_named(path):
            continue
        if path == "-" or os.path.isfile(path):
            if not require_sbatch or path == "-" or path.endswith(SCRIPT_SUFFIXES) or has_directive(path, True):
                yield path
        elif os.path.isdir(path):
            yield from _walk(path, errors, exclusion or Exclusion(()))
        elif os.path.exists(path):
            yield path  # a FIFO, a device, /dev/fd/N: the user asked for it; reading is bounded
        else:
            errors.append(f"{path}: {_why_missing(path)}")


def _why_missing(path: str) -> str:
    import errno

    try:
        os.stat(path)
    except OSError as exc:  # a dangling symlink, a link loop, no permission, a name over PATH_MAX
        if (exc.errno != errno.ENOENT or os.path.islink(path)) and exc.strerror:
            return f"cannot read: {exc.strerror}"
    return "no such file or folder"


def _walk(folder: str, errors: list[str], exclusion: Exclusion) -> Iterator[str]:
    from slurmspec.cli import gitignore
    from slurmspec.limits import file_kind

    def unlisted(exc: OSError) -> None:
        # os.walk passes over a folder it cannot list (no permission, a path beyond PATH_MAX).
        where = exc.filename if isinstance(exc.filename, str) else folder
        if where == folder:
            errors.append(f"{folder}: cannot read: {exc.strerror or exc}")
        else:
            _note(f"{where}: skipped, cannot read: {exc.strerror or exc}")

    # Folder -> the git patterns that apply in it (its parent's, then its own .gitignore).
    ignores: dict[str, list] = {}
    if exclusion.respect_gitignore:
        ignores[os.path.abspath(folder)] = gitignore.inherited(folder)

    def skipped(path: str, is_folder: bool, patterns: list) -> bool:
        return exclusion.excludes(path, is_folder) or (
            exclusion.respect_gitignore and gitignore.ignored(patterns, os.path.abspath(path), is_folder))

    for root, dirs, files in os.walk(folder, onerror=unlisted):
        patterns: list = []
        if exclusion.respect_gitignore:
            here = os.path.abspath(root)
            patterns = ignores.pop(here, [])
            if os.path.isfile(os.path.join(root, ".gitignore")):
                patterns = [*patterns, *gitignore.read(os.path.join(root, ".gitignore"), here)]
        dirs[:] = sorted(d for d in dirs if not d.startswith(".")
                         and not skipped(os.path.join(root, d), True, patterns))
        if exclusion.respect_gitignore:
            for name in dirs:
                ignores[os.path.abspath(os.path.join(root, name))] = patterns
        for name in sorted(files):
            full = os.path.join(root, name)
            if not name.endswith(SCRIPT_SUFFIXES) and not name.endswith(SHELL_SUFFIXES):
                continue
            if skipped(full, False, patterns):
                continue
            try:
                kind = file_kind(full)
            except OSError as exc:
                _note(f"{full}: skipped, cannot read: {exc.strerror or exc}")
                continue
            if kind is not None:
                _note(f"{full}: skipped, {kind} is not a script file")
            elif name.endswith(SCRIPT_SUFFIXES) or has_directive(full, False):
                yield full


def _note(message: str) -> None:
    from slurmspec.cli.common import note

    note(message)


def has_directive(path: str, named: bool) -> bool:
    """Whether ``path`` holds a directive. One that cannot be read is linted when the user ``named``
    it (reading it again fails: an error, exit 2), and skipped with a note when met in a folder."""
    from slurmspec.limits import read_bounded

    try:
        return b"#SBATCH" in read_bounded(path)
    except OSError as exc:
        if not named:
            _note(f"{path}: skipped, cannot read: {exc.strerror or exc}")
        return named
