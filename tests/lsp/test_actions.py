"""Code actions from the real server, as Neovim 0.11 asks for them (UTF-8 columns, plain ``changes`` edits).

Every action is applied the way an editor applies it and the result sent back:
the finding it targets must be gone, and nothing new (no unused or malformed
suppression) may appear.
"""

from __future__ import annotations

# First: it skips the module, naming what to install, when the test extra is missing.
from tests.lsp.lsp_client import apply_text_edits, codes, open_document, published, replace_all

import subprocess
import sys

import pytest
from lsprotocol import types


pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    # Every rule: the actions under test come from opt-in rules too (SB219, SB205); the CLI reads the same file.
    folder = tmp_path_factory.mktemp("workspace")
    (folder / "slurmspec.toml").write_text('select = ["ALL"]\n')
    return folder
CLIENT_SPEC = "neovim@v0.11.0"

SCRIPT = (
    "#!/bin/bash\n"
    "#sbatch --time=10\n"  # a near-miss SB202 makes a directive (unsafe); `# SBATCH` alone may be switched off
    "#SBATCH --tasks-per-node=2   # ünïcode before nothing\n"
    "#SBATCH --nodes=1\n"
    "#SBATCH --nodes=1\n"
    "echo start\n"
    "#SBATCH --exclusive\n"
    "srun hostname\n"
)


async def actions_at(client, uri: str, line: int, character: int = 0, only=None, context=()) -> list[types.CodeAction]:
    position = types.Position(line=line, character=character)
    return await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=position, end=position),
        context=types.CodeActionContext(diagnostics=list(context), only=only,
                                        trigger_kind=types.CodeActionTriggerKind.Invoked),
    ))


def applied(text: str, action: types.CodeAction, uri: str) -> str:
    assert action.edit.document_changes is None  # Neovim announced no versioned edits
    return apply_text_edits(text, list(action.edit.changes[uri]), units="utf-8")


async def relint(client, uri: str, text: str) -> list[str]:
    version = replace_all(client, uri, text)
    return codes(await published(client, uri, version))


async def test_a_safe_fix_is_a_preferred_quick_fix(client, workspace):
    uri, version = open_document(client, workspace / "safe.sbatch", SCRIPT)
    assert "SB219" in codes(await published(client, uri, version))
    actions = await actions_at(client, uri, 2, 12)
    fix = next(a for a in actions if a.title.startswith("Write `--ntasks-per-node`"))
    assert fix.kind == types.CodeActionKind.QuickFix and fix.is_preferred
    assert [str(d.code) for d in fix.diagnostics] == ["SB219"]
    fixed = applied(SCRIPT, fix, uri)
    assert "#SBATCH --ntasks-per-node=2   # ünïcode" in fixed
    assert "SB219" not in await relint(client, uri, fixed)


async def test_an_unsafe_fix_says_so_and_is_not_preferred(client, workspace):
    uri, version = open_document(client, workspace / "unsafe.sbatch", SCRIPT)
    await published(client, uri, version)
    actions = await actions_at(client, uri, 1)
    fix = next(a for a in actions if "Make it a directive" in a.title)
    assert "unsafe" in fix.title and not fix.is_preferred
    assert applied(SCRIPT, fix, uri).splitlines()[1] == "#SBATCH --time=10"


async def test_the_cursor_line_diagnostics_the_client_names_get_their_actions(client, workspace):
    uri, version = open_document(client, workspace / "named.sbatch", SCRIPT)
    params = await published(client, uri, version)
    repeated = next(d for d in params.diagnostics if str(d.code) == "SB205")
    # The cursor sits at the start of the line, outside the finding's range (Neovim sends the line's diagnostics).
    actions = await actions_at(client, uri, 4, 0, context=[repeated])
    assert any(a.title == "Remove the first `--nodes=1`" for a in actions)


async def test_ignore_on_this_line_adds_a_suppression_that_works(client, workspace):
    uri, version = open_document(client, workspace / "line.sbatch", SCRIPT)
    await published(client, uri, version)
    actions = await actions_at(client, uri, 4, 9)
    ignore = next(a for a in actions if a.title == "Ignore SB205 (duplicate-directive) on this line")
    fixed = applied(SCRIPT, ignore, uri)
    assert fixed.splitlines()[4:6] == ["# slurmspec: ignore[SB205]", "#SBATCH --nodes=1"]
    after = await relint(client, uri, fixed)
    assert "SB205" not in after and "SB901" not in after and "SB903" not in after
    # On the same line again, the existing comment gains the code instead of a second comment.
    extended = fixed.replace("#SBATCH --nodes=1\necho", "#SBATCH --nodes=1 --mem=1K\necho")
    await relint(client, uri, extended)
    actions = await actions_at(client, uri, 5, len("#SBATCH --nodes=1 --mem=1"))
    more = next(a for a in actions if a.title.startswith("Ignore SB") and a.title.endswith("on this line")
                and "SB205" not in a.title)
    assert "# slurmspec: ignore[SB205, SB" in applied(extended, more, uri)


async def test_ignore_in_this_file_and_no_line_comment_above_the_shebang(client, workspace):
    uri, version = open_document(client, workspace / "file.sbatch", SCRIPT)
    await published(client, uri, version)
    actions = await actions_at(client, uri, 0)
    titles = [a.title for a in actions if "SB341" in a.title]
    assert titles == ["Ignore SB341 (missing-time-limit) in this file"]
    fixed = applied(SCRIPT, next(a for a in actions if a.title == titles[0]), uri)
    assert fixed.splitlines()[:2] == ["#!/bin/bash", "# slurmspec: file-ignore[SB341]"]
    after = await relint(client, uri, fixed)
    assert "SB341" not in after and "SB901" not in after


async def test_fix_all_is_the_cli_fix(client, workspace):
    path = workspace / "all.sbatch"
    uri, version = open_document(client, path, SCRIPT)
    await published(client, uri, version)
    actions = await actions_at(client, uri, 0, only=[types.CodeActionKind.SourceFixAll])
    assert [a.kind for a in actions] == ["source.fixAll.slurmspec"]
    cli = subprocess.run([sys.executable, "-m", "slurmspec", "lint", "--fix", "--stdin-filename", str(path), "-"],
                         input=SCRIPT.encode(), capture_output=True, cwd=workspace)
    assert applied(SCRIPT, actions[0], uri) == cli.stdout.decode()
    quick = await actions_at(client, uri, 2, 12, only=[types.CodeActionKind.QuickFix])
    assert quick and all(a.kind == types.CodeActionKind.QuickFix for a in quick)


async def test_no_actions_for_documents_that_are_not_scripts(client, workspace):
    uri, version = open_document(client, workspace / "notes.txt", "nothing to see\n", "plaintext")
    await published(client, uri, version)
    assert not await actions_at(client, uri, 0)
