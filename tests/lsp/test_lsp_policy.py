"""Site policy in the editor: the real server applies a configuration's `[policy]` (and a profile's) as `lint` does.

The policy comes from the configuration found for the document (`[policy]`
in `slurmspec.toml`, or `policy = "file"`), and from the `[policy]` of the
cluster profile it names; the SB46x findings must be the CLI's, and a policy
file edited while the editor is open applies on the next change.
"""

from __future__ import annotations

# First: it skips the module, naming what to install, when the test extra is missing.
from tests.lsp.lsp_client import codes, open_document, published, replace_all

import json
import subprocess
import sys
from pathlib import Path

import pytest
from lsprotocol import types

pytestmark = pytest.mark.asyncio(loop_scope="module")

LAB = Path(__file__).resolve().parents[1] / "cluster" / "profiles" / "lab.toml"
JOB = "#!/bin/bash\n#SBATCH --time=5\nsrun hostname\n"
POLICY = '[policy]\nname = "Example site"\nrequired = ["account"]\n'


def cli_findings(path: Path, text: str) -> list[tuple[int, int, str, str]]:
    """(0-based line, 0-based column, code, message) as `slurmspec lint --format json` reports them."""
    done = subprocess.run(
        [sys.executable, "-m", "slurmspec", "lint", "--format", "json", "--exit-zero", "--stdin-filename", str(path), "-"],
        input=text.encode(), capture_output=True, check=True, cwd=path.parent,
    )
    return [(d["line"] - 1, d["column"] - 1, d["code"], d["message"]) for d in json.loads(done.stdout)["diagnostics"]]


def seen(params: types.PublishDiagnosticsParams) -> list[tuple[int, int, str, str]]:
    return [(d.range.start.line, d.range.start.character, str(d.code), d.message) for d in params.diagnostics]


async def test_a_configuration_policy_table_gives_the_clis_findings(client, workspace):
    site = workspace / "table"
    site.mkdir()
    (site / "slurmspec.toml").write_text(POLICY)
    uri, version = open_document(client, site / "job.sbatch", JOB)
    params = await published(client, uri, version)
    assert codes(params) == ["SB460"]
    (diagnostic,) = params.diagnostics
    assert diagnostic.severity == types.DiagnosticSeverity.Error
    assert 'site policy "Example site": `policy.required`' in diagnostic.message and "--account" in diagnostic.message
    assert seen(params) == cli_findings(site / "job.sbatch", JOB)
    version = replace_all(client, uri, JOB.replace("--time=5", "--time=5\n#SBATCH --account=proj1"))
    assert codes(await published(client, uri, version)) == []


async def test_a_policy_file_named_by_the_configuration_applies_and_its_edits_too(client, workspace):
    site = workspace / "file"
    site.mkdir()
    (site / "slurmspec.toml").write_text('policy = "site-policy.toml"\n')
    policy = site / "site-policy.toml"
    policy.write_text(POLICY)
    uri, version = open_document(client, site / "job.sbatch", JOB)
    assert codes(await published(client, uri, version)) == ["SB460"]
    policy.write_text('[policy]\nforbidden = ["time"]\n')  # the size changes, so the server sees it
    version = replace_all(client, uri, JOB + "\n")
    params = await published(client, uri, version)
    assert codes(params) == ["SB461"] and str(policy) in params.diagnostics[0].message
    assert seen(params) == cli_findings(site / "job.sbatch", JOB + "\n")


async def test_the_profiles_policy_and_the_configurations_both_apply(client, workspace):
    site = workspace / "profile"
    site.mkdir()
    (site / "lab.toml").write_text(LAB.read_text() + '\n[policy]\nname = "Lab"\nrequired = ["qos"]\n')
    (site / "slurmspec.toml").write_text('cluster = "lab.toml"\n' + POLICY)
    text = "#!/bin/bash\n#SBATCH --time=5\n#SBATCH --partition=gpu\n#SBATCH --gres=gpu:v100:1\nsrun hostname\n"
    uri, version = open_document(client, site / "job.sbatch", text)
    params = await published(client, uri, version)
    assert sorted(codes(params)) == ["SB460", "SB460"]
    assert {m.split("site policy ")[1].split(":")[0] for m in (d.message for d in params.diagnostics)} == {
        '"Lab"', '"Example site"'}
    assert sorted(seen(params)) == sorted(cli_findings(site / "job.sbatch", text))


async def test_a_policy_naming_a_partition_the_profile_lacks_is_shown_as_the_cli_refuses_it(client, workspace):
    site = workspace / "mismatch"
    site.mkdir()
    (site / "lab.toml").write_text(LAB.read_text())
    (site / "slurmspec.toml").write_text('cluster = "lab.toml"\n[policy.partition.gpux]\nneeds-gpus = true\n')
    uri, version = open_document(client, site / "job.sbatch", JOB)
    params = await published(client, uri, version)
    assert len(params.diagnostics) == 1
    assert "has no partition `gpux`; did you mean `gpu`?" in params.diagnostics[0].message
    command = [sys.executable, "-m", "slurmspec", "lint", "--stdin-filename", str(site / "job.sbatch"), "-"]
    done = subprocess.run(command, input=JOB, capture_output=True, text=True, cwd=site)
    assert done.returncode == 2 and "has no partition `gpux`" in done.stderr
