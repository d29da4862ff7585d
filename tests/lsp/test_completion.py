"""Completion from the real server on ``#SBATCH`` lines: option names, then values for the target release."""

from __future__ import annotations

# First: it skips the module, naming what to install, when the test extra is missing.
from tests.lsp.lsp_client import open_document, published, replace_all

from pathlib import Path

import pytest
from lsprotocol import types


pytestmark = pytest.mark.asyncio(loop_scope="module")
PROFILE = Path(__file__).resolve().parents[1] / "cluster" / "profiles" / "lab.toml"


async def complete(client, workspace, line: str, folder: str = ".", name: str = "complete.sbatch"):
    """Items with the cursor at the end of ``line``, the second line of a script in ``folder``."""
    path = workspace / folder / name
    text = f"#!/bin/bash\n{line}\necho done\n"
    uri = path.as_uri()
    if uri not in client.opened:
        client.opened.add(uri)
        _, version = open_document(client, path, text)
    else:
        version = replace_all(client, uri, text)
    await published(client, uri, version)
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=1, character=len(line))))
    return list(result.items) if result is not None else []


@pytest.fixture(scope="module", autouse=True)
def opened(client, workspace):
    client.opened = set()
    for release in ("22.05", "26.05"):
        (workspace / release).mkdir()
        (workspace / release / "slurmspec.toml").write_text(f'slurm-version = "{release}"\n')


def labels(items) -> list[str]:
    return [item.label for item in items]


async def test_option_names_come_with_their_equals_sign(client, workspace):
    items = await complete(client, workspace, "#SBATCH --ti")
    by_label = {item.label: item for item in items}
    assert {"--time=", "--time-min="} <= set(by_label)
    assert all(label.startswith("--ti") for label in by_label)  # filtered by what was typed (issue 26)
    assert "--wrap=" not in by_label and "--help" not in by_label  # sbatch ignores them in a script
    edit = by_label["--time="].text_edit
    assert (edit.range.start.character, edit.range.end.character, edit.new_text) == (8, 12, "--time=")
    assert by_label["--time="].detail == "time limit of the job"
    assert "--ntasks=" in labels(await complete(client, workspace, "#SBATCH "))


async def test_option_names_are_filtered_by_the_typed_prefix(client, workspace):
    assert set(labels(await complete(client, workspace, "#SBATCH --gp"))) == {
        "--gpus=", "--gpus-per-node=", "--gpus-per-socket=", "--gpus-per-task=", "--gpu-bind=", "--gpu-freq="}
    assert len(labels(await complete(client, workspace, "#SBATCH --"))) > 90  # nothing typed yet: every option


async def test_option_names_follow_the_target_release(client, workspace):
    old = labels(await complete(client, workspace, "#SBATCH --oo", "22.05"))
    new = labels(await complete(client, workspace, "#SBATCH --oo", "26.05"))
    assert "--oom-kill-step" not in old and "--oom-kill-step" in new


async def test_values_of_keyword_options(client, workspace):
    mail = await complete(client, workspace, "#SBATCH --mail-type=BEGIN,E")
    assert set(labels(mail)) == {"END"}
    assert {"END", "FAIL", "TIME_LIMIT_80", "ALL"} <= set(labels(await complete(client, workspace, "#SBATCH --mail-type=BEGIN,")))
    assert mail[0].text_edit.range.start.character == len("#SBATCH --mail-type=BEGIN,")
    assert {"block", "cyclic:fcyclic", "arbitrary"} <= set(labels(await complete(client, workspace, "#SBATCH -m ")))
    assert "cyclic" in labels(await complete(client, workspace, "#SBATCH -mcy"))
    signals = await complete(client, workspace, '#SBATCH --signal="B:US')
    assert {"USR1", "USR2"} <= set(labels(signals)) and "TERM" not in labels(signals)
    assert signals[0].text_edit.range.start.character == len('#SBATCH --signal="B:')
    assert set(labels(await complete(client, workspace, "#SBATCH --open-mode "))) == {"append", "truncate"}
    assert "afterok:" in labels(await complete(client, workspace, "#SBATCH --dependency="))


async def test_values_the_target_release_refuses_are_not_offered(client, workspace):
    old = set(labels(await complete(client, workspace, "#SBATCH --exclusive=", "22.05")))
    new = set(labels(await complete(client, workspace, "#SBATCH --exclusive=", "26.05")))
    assert old == {"user", "mcs"} and new == {"user", "mcs", "topo", "allocation"}
    assert "NIL" not in labels(await complete(client, workspace, "#SBATCH --export=", "22.05"))


async def test_nothing_inside_a_comment_or_off_the_directives(client, workspace):
    assert await complete(client, workspace, "#SBATCH --time=5 # --ma") == []
    assert await complete(client, workspace, "srun --ma") == []
    assert await complete(client, workspace, "#SBATCH --partition=") == []  # no cluster profile: nothing known
    prefix = await complete(client, workspace, "#SB")
    assert [(item.label, item.text_edit.new_text) for item in prefix] == [("#SBATCH --", "#SBATCH ")]


async def test_a_cluster_profile_adds_partitions_features_and_gpu_types(client, workspace):
    site = workspace / "site"
    site.mkdir()
    (site / "lab.toml").write_text(PROFILE.read_text())
    (site / "slurmspec.toml").write_text('cluster = "lab.toml"\n')

    async def values(line: str) -> set[str]:
        return set(labels(await complete(client, workspace, line, "site")))

    assert {"debug", "cpu", "gpu", "a100"} <= await values("#SBATCH --partition=")
    assert {"debug", "cpu"} <= await values("#SBATCH -p gpu,")
    assert {"a100", "ib", "rome", "cascadelake"} <= await values("#SBATCH --constraint=ib&")
    assert await values("#SBATCH --gpus-per-node=") == {"a100:", "v100:"}
    assert await values("#SBATCH --gpus-per-node=a100:") == set()  # a count now
    assert await values("#SBATCH --gres=") == {"gpu:"}
    assert await values("#SBATCH --gres=gpu:") == {"a100", "v100"}
