"""Hover from the real server, as Emacs' eglot asks for it (columns in UTF-32, i.e. code points)."""

from __future__ import annotations

# First: it skips the module, naming what to install, when the test extra is missing.
from tests.lsp.lsp_client import open_document, published

import pytest
import pytest_asyncio
from lsprotocol import types


pytestmark = pytest.mark.asyncio(loop_scope="module")
CLIENT_SPEC = "emacs"

SCRIPT = (
    "#!/bin/bash\n"
    "#SBATCH --time=1:30:00\n"
    "#SBATCH --mem=4G -N 2-4\n"
    "#SBATCH --time=2h\n"
    "#SBATCH --mail-type=BEGIN\n"
    "#SBATCH --mail-type=END\n"
    "#SBATCH --wrap=hostname\n"
    "#SBATCH --comment=\U0001F680 --nodes=3\n"
    "echo start\n"
    "#SBATCH --exclusive\n"
)
LINES = SCRIPT.split("\n")


async def hover(client, uri: str, line: int, text: str, nth: int = 0) -> types.Hover | None:
    """Hover on the ``nth`` occurrence of ``text`` in ``line`` (columns in code points, as eglot counts)."""
    column = -1
    for _ in range(nth + 1):
        column = LINES[line].index(text, column + 1)
    return await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=column)))


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def document(client, workspace):
    # The target release is pinned: without one it would be the installed sbatch's, as for the CLI.
    (workspace / "slurmspec.toml").write_text('slurm-version = "26.05"\n')
    uri, version = open_document(client, workspace / "hover.sbatch", SCRIPT)
    await published(client, uri, version)
    return uri


async def test_option_meaning_typed_value_releases_and_override(client, document):
    text = (await hover(client, document, 1, "--time")).contents.value
    assert text.startswith("**`--time` (`-t`)**: time limit of the job")
    assert "Value `1:30:00` is read as `90 minutes (1:30:00)`." in text
    assert "In Slurm 22.05 and later; the target is 26.05." in text
    assert "Overridden: line 4 (`--time=2h`) sets it again, and the last one wins." in text
    assert "`SBATCH_TIMELIMIT`, if set where sbatch runs, overrides this line." in text


async def test_each_option_of_a_line_and_the_range_it_covers(client, document):
    memory = await hover(client, document, 2, "4G")
    assert "Value `4G` is read as `4096 MB (4 GB)`." in memory.contents.value
    assert (memory.range.start.character, memory.range.end.character) == (8, 16)
    nodes = await hover(client, document, 2, "-N")
    assert "**`--nodes` (`-N`)**" in nodes.contents.value and "`2 to 4 nodes`" in nodes.contents.value
    prefix = await hover(client, document, 2, "#SBATCH")
    assert "**`--mem`**" in prefix.contents.value
    wide = await hover(client, document, 7, "--nodes")  # after a character outside the BMP
    assert "Value `3` is read as `3 nodes`." in wide.contents.value
    assert wide.range.start.character == LINES[7].index("--nodes")


async def test_a_finding_shows_its_rule_documentation(client, document):
    text = (await hover(client, document, 3, "h")).contents.value  # the finding's span is the unit `h`
    assert "refused by sbatch: `2h` is not a Slurm duration" in text
    assert "**SB110** invalid-duration (error)" in text
    assert "## SB110 invalid-duration" in text and "### What it does" in text
    assert "docs/rules.md#sb110-invalid-duration" in text


async def test_lines_sbatch_ignores_say_why(client, document):
    wrap = (await hover(client, document, 6, "--wrap")).contents.value
    assert "sbatch ignores this option inside a script" in wrap
    late = (await hover(client, document, 9, "--exclusive")).contents.value
    assert "sbatch never reads this line: it comes after the first command" in late
    last = (await hover(client, document, 5, "--mail-type")).contents.value
    assert "Overridden" not in last and "sets it again" not in last
    earlier = (await hover(client, document, 4, "--mail-type")).contents.value
    assert "Overridden: line 6 (`--mail-type=END`)" in earlier  # 25.05 and later: the last one wins


async def test_the_target_release_decides_availability_and_merging(client, workspace):
    folder = workspace / "slurm-24.05"
    folder.mkdir()
    (folder / "slurmspec.toml").write_text('slurm-version = "24.05"\n')
    text = "#!/bin/bash\n#SBATCH --mail-type=BEGIN\n#SBATCH --mail-type=END\n#SBATCH --oom-kill-step\n"
    uri, version = open_document(client, folder / "old.sbatch", text)
    await published(client, uri, version)

    async def at(line: int, character: int) -> str:
        found = await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=character)))
        return found.contents.value

    assert "sbatch combines the occurrences: `BEGIN, END` in effect" in await at(1, 10)  # up to 24.11 they add up
    assert "Not in Slurm 24.05 (the target release): added in 24.11." in await at(3, 10)


async def test_nothing_to_say_off_the_directives(client, document):
    body = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=document), position=types.Position(line=8, character=2)))
    assert body is None
