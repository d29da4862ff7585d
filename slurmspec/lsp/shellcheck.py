"""ShellCheck as a child process the event loop awaits, killed as soon as the document changes again.

The CLI's bridge (``slurmspec.lint.shellcheck``) waits for ShellCheck in
``subprocess.run``; a server cannot: ShellCheck may take seconds on a long
script, and by then the text has changed. Here the same command line runs as
an asyncio subprocess, so the lint task that awaits it can be cancelled, and
cancelling kills the process. Mapping, filtering and suppression of the
findings stay the CLI's (``slurmspec.lsp.analysis``).
"""

from __future__ import annotations

import asyncio
import json

from slurmspec.lint.shellcheck import ShellCheckError, find_shellcheck

TIMEOUT_SECONDS = 120  # as the CLI's bridge


async def gather_comments(text: str, shell: str, cwd: str | None) -> list[dict]:
    """ShellCheck's ``json1`` comments for ``text`` read as ``shell``; raises ``ShellCheckError``."""
    executable = find_shellcheck()
    if executable is None:
        raise ShellCheckError(
            "the configuration turns ShellCheck on (`shellcheck = true`) but it is not installed;"
            " install it (`pip install 'slurmspec[shellcheck]'` or your system's shellcheck package)"
        )
    try:
        process = await asyncio.create_subprocess_exec(
            executable, "--format=json1", f"--shell={shell}", "-",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            cwd=cwd or None,
        )
    except OSError as exc:
        raise ShellCheckError(f"cannot run {executable}: {exc}") from None
    try:
        # "replace": a lone surrogate (an editor buffer may hold one) becomes one "?", so columns stay put.
        data = text.encode("utf-8", "replace")
        stdout, stderr = await asyncio.wait_for(process.communicate(data), TIMEOUT_SECONDS)
    except BaseException:  # cancelled (the document changed), timed out, or the loop is closing
        if process.returncode is None:
            process.kill()
            await asyncio.shield(process.wait())
        raise
    # Exit 0: no findings, 1: findings; anything else is ShellCheck's own error.
    if process.returncode not in (0, 1):
        raise ShellCheckError(f"{executable} failed: {stderr.decode(errors='replace').strip()}")
    try:
        return json.loads(stdout)["comments"]
    except (ValueError, KeyError, TypeError) as exc:
        raise ShellCheckError(f"unreadable output from {executable}: {exc}") from None
