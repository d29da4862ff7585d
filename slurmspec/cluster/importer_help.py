"""The options a site's SPANK plugins add to sbatch, read from ``sbatch --help``.

sbatch's help ends its built-in options with the plugins' own (``spank_print_options`` in
src/common/spank.c, 22.05's src/common/plugstack.c): a line ``Options provided by plugins:``,
then each option padded by six spaces as ``--name`` or ``--name=ARG`` with its usage beside it
(or, when ``--name=ARG`` is 30 characters or more, on its own line after a blank one and the
usage under it, indented by 30). The section ends at the next heading (``GPU scheduling
options:``), a line that does not start with a space. No such line: the site has no plugin
options.
"""

from __future__ import annotations

import re
import shutil
import subprocess

from slurmspec.cluster.errors import ProfileError

HEADING = "Options provided by plugins:"
_OPTION = re.compile(r"^ {1,8}(--[A-Za-z0-9][A-Za-z0-9_.-]*(?:=\S*)?)")


def plugin_options_in_help(text: str) -> tuple[str, ...]:
    """``--name`` / ``--name=ARG`` of every option under "Options provided by plugins:", in order."""
    found: list[str] = []
    inside = False
    for line in text.splitlines():
        if line.strip() == HEADING:
            inside = True
            continue
        if not inside:
            continue
        if line.strip() and not line[:1].isspace():
            break  # the next heading
        match = _OPTION.match(line)
        if match and match.group(1) not in found:
            found.append(match.group(1).rstrip("+"))  # a name longer than the terminal ends in "+"
    return tuple(found)


def run_sbatch_help(sbatch: str | None = None) -> str:
    """The output of ``sbatch --help`` here (the site's plugins are loaded from its plugstack.conf)."""
    program = sbatch or shutil.which("sbatch")
    if program is None:
        raise ProfileError("sbatch is not on PATH")
    try:
        done = subprocess.run([program, "--help"], capture_output=True, text=True, timeout=60,
                              stdin=subprocess.DEVNULL, errors="replace", env=_wide_terminal())
    except (OSError, subprocess.SubprocessError) as exc:
        raise ProfileError(f"`sbatch --help` could not run: {exc}") from None
    if done.returncode != 0:
        raise ProfileError(f"`sbatch --help` failed: exit status {done.returncode}")
    return done.stdout


def _wide_terminal() -> dict[str, str]:
    import os

    # spank.c truncates `--name=ARG` to $COLUMNS (default 80) with a "+": ask for a wide terminal
    return {**os.environ, "COLUMNS": "400"}
