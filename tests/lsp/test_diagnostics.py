"""Diagnostics from the real server: on open, change (full and incremental, debounced), save and close.

They must be the CLI's findings (same engine, same configuration discovery),
with code, severity, a link to the rule's doc and related information for the
other line of a two-line finding, at positions in the editor's units.
"""

from __future__ import annotations

# First: it skips the module, naming what to install, when the test extra is missing.
from tests.lsp.lsp_client import (
    codes, edit_range, open_document, published, replace_all, utf16_column,
)

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest
from lsprotocol import types


pytestmark = pytest.mark.asyncio(loop_scope="module")

SCRIPT = (
    "#!/bin/bash\n"
    "#SBATCH --job-name=demo\n"
    "#SBATCH --time=2h\n"
    "#SBATCH --nodes=1\n"
    "echo start\n"
    "#SBATCH --exclusive\n"
)
PROFILE = Path(__file__).resolve().parents[1] / "cluster" / "profiles" / "lab.toml"
RULES_DOC = "https://github.com/slurmspec/slurmspec/blob/main/docs/rules.md"


def cli_findings(path, text: str) -> list[tuple[int, int, str, str]]:
    """(0-based line, 0-based column, code, severity) as `slurmspec lint --format json` reports them."""
    done = subprocess.run(
        [sys.executable, "-m", "slurmspec", "lint", "--format", "json", "--exit-zero", "--stdin-filename", str(path), "-"],
        input=text.encode(), capture_output=True, check=True, cwd=path.parent,
    )
    return [(d["line"] - 1, d["column"] - 1, d["code"], d["severity"]) for d in json.loads(done.stdout)["diagnostics"]]


async def test_open_publishes_the_cli_findings_with_links_and_related_lines(client, workspace):
    path = workspace / "open.sbatch"
    uri, version = open_document(client, path, SCRIPT)
    params = await published(client, uri, version)
    seen = [(d.range.start.line, d.range.start.character, str(d.code), d.severity) for d in params.diagnostics]
    severity = {types.DiagnosticSeverity.Error: "error", types.DiagnosticSeverity.Warning: "warning",
                types.DiagnosticSeverity.Information: "info"}
    assert [(line, col, code, severity[sev]) for line, col, code, sev in seen] == cli_findings(path, SCRIPT)
    by_code = {str(d.code): d for d in params.diagnostics}
    assert by_code["SB110"].code_description.href == f"{RULES_DOC}#sb110-invalid-duration"
    assert by_code["SB110"].source == "slurmspec"
    late = by_code["SB201"]
    assert [(r.location.uri, r.location.range.start.line) for r in late.related_information] == [(uri, 4)]
    assert late.related_information[0].location.range.end.character == len("echo start")


async def test_incremental_and_full_changes_relint_the_latest_text(client, workspace):
    uri, _ = open_document(client, workspace / "change.sbatch", SCRIPT)
    await published(client, uri)
    version = edit_range(client, uri, (2, 15), (2, 17), "2:00:00")  # --time=2h -> --time=2:00:00
    assert "SB110" not in codes(await published(client, uri, version))
    version = replace_all(client, uri, SCRIPT.replace("--nodes=1", "--nodes=zero"))
    assert codes(await published(client, uri, version)) == ["SB110", "SB114", "SB201"]


async def test_a_burst_of_changes_is_linted_once_for_the_last_version(client, workspace):
    uri, _ = open_document(client, workspace / "burst.sbatch", SCRIPT)
    await published(client, uri)
    before = len(client.published)
    versions = [edit_range(client, uri, (1, 19), (1, 19), "x") for _ in range(20)]
    last = await published(client, uri, versions[-1])
    burst = [p for p in client.published[before:] if p.uri == uri]
    assert burst[-1] is last
    assert len(burst) < len(versions)  # debounced: not one lint per keystroke


async def test_positions_count_utf16_units_and_lsp_line_breaks(client, workspace):
    # U+1F680 is two UTF-16 units; a form feed is no line break for an editor (but is for str.splitlines).
    text = "#!/bin/bash\n# \U0001F680 launch \f page\n#SBATCH --comment=\U0001F680 --time=2h\necho go\n"
    uri, version = open_document(client, workspace / "wide.sbatch", text)
    params = await published(client, uri, version)
    bad = next(d for d in params.diagnostics if str(d.code) == "SB110")
    line = text.split("\n")[2]
    assert bad.range.start.line == 2
    assert bad.range.start.character == utf16_column(line, line.index("2h") + 1)  # the unit suffix
    # An incremental change on the line after the form feed lands where the editor meant it.
    version = edit_range(client, uri, (2, utf16_column(line, line.index("2h"))), (2, utf16_column(line, len(line))), "90")
    assert "SB110" not in codes(await published(client, uri, version))


async def test_save_relints_and_close_clears(client, workspace):
    uri, version = open_document(client, workspace / "save.sbatch", SCRIPT)
    await published(client, uri, version)
    before = len(client.published)
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    assert codes(await published(client, uri, version, after=before)) == ["SB110", "SB201"]
    before = len(client.published)
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    assert not (await published(client, uri, after=before)).diagnostics


async def test_documents_that_are_not_batch_scripts_get_no_findings(client, workspace):
    python_uri, version = open_document(client, workspace / "tool.py", "import os\nprint(os.getcwd())\n", "python")
    assert (await published(client, python_uri, version)).diagnostics == ()
    shell_uri, version = open_document(client, workspace / "plain.sh", "#!/bin/sh\necho hi\n")
    assert (await published(client, shell_uri, version)).diagnostics == ()
    # Binary garbage in a batch-script file is linted like the CLI does, without the server dying.
    garbage = bytes(range(256)).decode("latin-1") * 4 + "\udcff\x00\r\r\n"
    uri, version = open_document(client, workspace / "garbage.sbatch", garbage)
    assert (await published(client, uri, version)).diagnostics
    # A script with a directive is linted whatever its name.
    named_uri, version = open_document(client, workspace / "train.sh", "#!/bin/bash\n#SBATCH --time=2h\n")
    assert "SB110" in codes(await published(client, named_uri, version))


async def test_the_script_is_never_run(client, workspace):
    marker = workspace / "was-run"
    text = f"#!/bin/bash\n#SBATCH --time=5\ntouch {marker}\n$(touch {marker})\n"
    uri, version = open_document(client, workspace / "run.sbatch", text)
    await published(client, uri, version)
    assert not marker.exists()


async def test_configuration_is_discovered_like_the_cli(client, workspace):
    project = workspace / "project"
    (project / "jobs").mkdir(parents=True)
    (project / "slurmspec.toml").write_text('ignore = ["SB201"]\n[severity]\nSB110 = "warning"\n')
    uri, version = open_document(client, project / "jobs" / "job.sbatch", SCRIPT)
    params = await published(client, uri, version)
    assert "SB201" not in codes(params)
    assert next(d for d in params.diagnostics if str(d.code) == "SB110").severity == types.DiagnosticSeverity.Warning
    # An edited configuration takes effect on the next lint, without restarting the server.
    (project / "slurmspec.toml").write_text('ignore = ["SB110"]\n')
    version = replace_all(client, uri, SCRIPT + "\n")
    assert codes(await published(client, uri, version)) == ["SB201"]


async def test_a_broken_configuration_is_reported_not_fatal(client, workspace):
    broken = workspace / "broken"
    broken.mkdir()
    (broken / "slurmspec.toml").write_text('ignore = ["SB2O1"]\n')
    uri, version = open_document(client, broken / "job.sbatch", SCRIPT)
    params = await published(client, uri, version)
    assert len(params.diagnostics) == 1 and "did you mean `SB201`" in params.diagnostics[0].message
    assert any("SB2O1" in m.message for m in client.messages)
    (broken / "slurmspec.toml").write_text('ignore = ["SB201"]  # fixed\n')
    version = replace_all(client, uri, SCRIPT)
    assert "SB110" in codes(await published(client, uri, version))


async def test_target_release_comes_from_the_configuration(client, workspace):
    old = workspace / "old-slurm"
    old.mkdir()
    (old / "slurmspec.toml").write_text('slurm-version = "22.05"\n')
    text = "#!/bin/bash\n#SBATCH --time=5\n#SBATCH --oom-kill-step\n"
    uri, version = open_document(client, old / "job.sbatch", text)
    old_codes = codes(await published(client, uri, version))
    new = workspace / "new-slurm"
    new.mkdir()
    (new / "slurmspec.toml").write_text('slurm-version = "26.05"\n')
    new_uri, version = open_document(client, new / "job.sbatch", text)
    new_codes = codes(await published(client, new_uri, version))
    assert "SB003" in old_codes and "SB003" not in new_codes  # --oom-kill-step is new in 24.11



async def test_vscode_gets_edits_tied_to_the_document_version(client, workspace):
    uri, version = open_document(client, workspace / "versioned.sbatch", SCRIPT)
    await published(client, uri, version)
    position = types.Position(line=5, character=0)
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=types.Range(start=position, end=position),
        context=types.CodeActionContext(diagnostics=[])))
    move = next(a for a in actions if a.title.startswith("Move the directives"))
    assert move.edit.changes is None
    assert [(c.text_document.uri, c.text_document.version) for c in move.edit.document_changes] == [(uri, version)]


async def test_configuration_files_are_watched_when_the_editor_can(client):
    for _ in range(500):  # the server registers the watchers right after `initialized`
        watched = [r for r in client.registrations if r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES]
        if watched:
            break
        await asyncio.sleep(0.01)
    options = watched[0].register_options  # the client leaves registration options as plain JSON
    assert {w["globPattern"] for w in options["watchers"]} == {
        "**/slurmspec.toml", "**/pyproject.toml", "**/.shellcheckrc"}


async def test_a_changed_configuration_file_relints_the_open_documents(client, workspace):
    project = workspace / "watched"
    project.mkdir()
    config = project / "slurmspec.toml"
    config.write_text("ignore = []\n")
    uri, version = open_document(client, project / "job.sbatch", SCRIPT)
    assert codes(await published(client, uri, version)) == ["SB110", "SB201"]
    before = len(client.published)
    config.write_text('ignore = ["SB110"]\n')
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=config.as_uri(), type=types.FileChangeType.Changed)]))
    assert codes(await published(client, uri, version, after=before)) == ["SB201"]


async def test_the_configurations_cluster_profile_is_checked(client, workspace):
    site = workspace / "site"
    site.mkdir()
    (site / "lab.toml").write_text(PROFILE.read_text())
    (site / "slurmspec.toml").write_text('cluster = "lab.toml"\n')
    text = "#!/bin/bash\n#SBATCH --time=5\n#SBATCH --partition=gpuu\nsrun hostname\n"
    uri, version = open_document(client, site / "job.sbatch", text)
    params = await published(client, uri, version)
    assert codes(params) == ["SB401"] and "did you mean `gpu`?" in params.diagnostics[0].message
    (site / "lab.toml").write_text("name = \n")  # a broken profile: shown, as the CLI's exit 2 would be
    version = replace_all(client, uri, text + "\n")
    params = await published(client, uri, version)
    assert len(params.diagnostics) == 1 and "lab.toml" in params.diagnostics[0].message
