"""`lint --cluster`, the configuration's `cluster` key, and which Slurm release is targeted by default.

Precedence of the target release: --slurm-version > the configuration's
slurm-version > the cluster profile's Slurm > the installed sbatch's > the newest.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from slurmspec.cli import main
from slurmspec.settings import release
from slurmspec.cluster.store import load_profile
from slurmspec.kinds import Outcome, Severity
from slurmspec.lint import lint_text
from slurmspec.lint.engine import lint_script, registry
from slurmspec.check.rule import rule
from slurmspec.parser.script import parse_script

LAB = Path(__file__).resolve().parent / "profiles" / "lab.toml"
# --tres-bind came in 23.11: SB003 says so when the target is 22.05, and is silent for a newer one.
NEW_OPTION = "#!/bin/bash\n#SBATCH --tres-bind=gres/gpu:closest\n#SBATCH --time=5\nsrun ./app\n"


@pytest.fixture
def no_sbatch(monkeypatch):
    monkeypatch.setattr(release, "installed_sbatch_version", lambda: None)


@pytest.fixture
def script(tmp_path):
    path = tmp_path / "job.sbatch"
    path.write_text(NEW_OPTION)
    return path


def codes(capsys) -> list[str]:
    return [d["code"] for d in json.loads(capsys.readouterr().out)["diagnostics"]]


def lint(*args: str) -> int:
    return main(["lint", "--format", "json", "--exit-zero", *map(str, args)])


def test_rules_see_the_profile_through_the_context():
    seen = []

    def look(ctx):
        seen.append(ctx.cluster)

    look.__doc__ = "A rule made by a test."
    probe = rule("SB499", "probe-cluster", Severity.INFO, Outcome.ADVICE)(look)
    profile = load_profile(LAB)
    lint_script(parse_script(NEW_OPTION), [probe], cluster=profile)
    lint_script(parse_script(NEW_OPTION), [probe])
    assert seen == [profile, None]
    assert "SB499" not in registry()


def test_lint_text_targets_the_profiles_release_unless_told():
    profile = load_profile(LAB)
    assert "SB003" in [d.code for d in lint_text(NEW_OPTION, cluster=profile)]
    assert "SB003" not in [d.code for d in lint_text(NEW_OPTION, version=(24, 11), cluster=profile)]
    assert "SB003" not in [d.code for d in lint_text(NEW_OPTION)]  # the library default stays the newest


def test_cluster_option_sets_the_default_release(script, capsys, no_sbatch):
    lint("--no-config", script)
    assert "SB003" not in codes(capsys)
    lint("--no-config", "--cluster", LAB, script)
    assert "SB003" in codes(capsys)
    lint("--no-config", "--cluster", LAB, "--slurm-version", "24.11", script)
    assert "SB003" not in codes(capsys)


def test_configuration_cluster_key_is_relative_to_the_configuration(tmp_path, script, capsys, no_sbatch):
    (tmp_path / "profiles").mkdir()
    (tmp_path / "profiles" / "lab.toml").write_text(LAB.read_text())
    (tmp_path / "slurmspec.toml").write_text('cluster = "profiles/lab.toml"\n')
    lint(script)
    assert "SB003" in codes(capsys)
    (tmp_path / "slurmspec.toml").write_text('cluster = "profiles/lab.toml"\nslurm-version = "24.11"\n')
    lint(script)
    assert "SB003" not in codes(capsys)  # the configuration's release beats the profile's


@pytest.mark.parametrize(("setting", "message"), [
    ('cluster = "missing.toml"\n', "missing.toml: cannot read the cluster profile: No such file or directory"),
    ("cluster = 3\n", "`cluster`: must be the path of a cluster profile"),
    ('cluster = "bad.toml"\n', "bad.toml: `config` is required"),
])
def test_a_broken_profile_is_a_usage_error(tmp_path, script, capsys, setting, message):
    (tmp_path / "bad.toml").write_text('name = "x"\n')
    (tmp_path / "slurmspec.toml").write_text(setting)
    assert main(["lint", str(script)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.startswith("slurmspec: error: ")


def test_a_broken_profile_named_on_the_command_line_is_a_usage_error(tmp_path, script, capsys):
    (tmp_path / "bad.toml").write_text("[config\n")
    assert main(["lint", "--no-config", "--cluster", str(tmp_path / "bad.toml"), str(script)]) == 2
    assert "bad.toml: invalid TOML" in capsys.readouterr().err


def test_installed_sbatch_is_the_default_without_a_profile(tmp_path, script, capsys, monkeypatch):
    sbatch = _fake_sbatch(tmp_path, monkeypatch, '#!/bin/sh\n[ "$1" = --version ] && echo "slurm 22.05.8"\n')
    try:
        assert release.installed_sbatch_version() == (22, 5)
        lint("--no-config", script)
        assert "SB003" in codes(capsys)
        lint("--no-config", "--slurm-version", "24.11", script)
        assert "SB003" not in codes(capsys)
        # sbatch that cannot answer (no slurm.conf: "Could not establish a configuration source")
        sbatch.write_text("#!/bin/sh\necho 'sbatch: fatal: Could not establish a configuration source' >&2\nexit 1\n")
        release.installed_sbatch_version.cache_clear()
        assert release.installed_sbatch_version() is None
        sbatch.write_text('#!/bin/sh\necho "slurm-wlm 24.11.5"\n')  # Debian's packages say slurm-wlm
        release.installed_sbatch_version.cache_clear()
        assert release.installed_sbatch_version() == (24, 11)
        sbatch.write_text('#!/bin/sh\necho "slurm 21.08.8"\n')  # older than any release modelled
        release.installed_sbatch_version.cache_clear()
        assert release.installed_sbatch_version() is None
    finally:
        release.installed_sbatch_version.cache_clear()


def test_target_version_says_why():
    profile = load_profile(LAB)
    assert release.target_version((24, 11), (23, 2), profile) == ((24, 11), "--slurm-version")
    assert release.target_version(None, (23, 2), profile) == ((23, 2), "configuration")
    assert release.target_version(None, None, profile) == ((22, 5), f"cluster profile {LAB}")


def test_help_says_how_the_default_is_chosen(capsys):
    with pytest.raises(SystemExit):
        main(["lint", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--cluster PROFILE" in out
    assert "(default: the configuration's, else the cluster profile's, else the installed sbatch's, else 26.05)" in out


def test_profiles_of_several_clusters_side_by_side(tmp_path, capsys, no_sbatch):
    """Each folder's configuration names its own cluster's profile; one run lints both against their own."""
    from slurmspec.cluster.importer import import_profile
    from slurmspec.cluster.store import dump_profile

    data = Path(__file__).resolve().parent / "data"
    lab24, _ = import_profile(*(((data / f"2411-{n}").read_text(), n) for n in ("node.txt", "partition.txt", "config.txt")))
    for folder, profile_text in (("old", LAB.read_text()), ("new", dump_profile(lab24))):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "cluster.toml").write_text(profile_text)
        (tmp_path / folder / "slurmspec.toml").write_text('cluster = "cluster.toml"\n')
        (tmp_path / folder / "job.sbatch").write_text(NEW_OPTION)
    lint(tmp_path)
    found = json.loads(capsys.readouterr().out)["diagnostics"]
    assert {(Path(d["path"]).parent.name, d["code"]) for d in found if d["code"] == "SB003"} == {("old", "SB003")}


def _fake_sbatch(tmp_path, monkeypatch, body: str):
    """The only sbatch on PATH runs ``body``; the version cache lives under ``tmp_path``; nothing remembered."""
    folder = tmp_path / "bin"
    folder.mkdir(exist_ok=True)
    sbatch = folder / "sbatch"
    sbatch.write_text(body)
    sbatch.chmod(0o755)
    monkeypatch.setenv("PATH", str(folder))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    release.installed_sbatch_version.cache_clear()
    return sbatch


def test_the_installed_version_is_remembered_for_the_same_binary(tmp_path, monkeypatch):
    import os

    sbatch = _fake_sbatch(tmp_path, monkeypatch, '#!/bin/sh\necho "slurm 23.11.4"\n')
    try:
        assert release.installed_sbatch_version() == (23, 11)
        cached = tmp_path / "cache" / "slurmspec" / "sbatch-version"
        assert cached.stat().st_mode & 0o077 == 0
        # Same size and modification time: the remembered answer is used, sbatch is not run.
        before = sbatch.stat()
        _same_size_and_time(sbatch, '#!/bin/sh\nexit 1 # sbatch is not run\n')
        release.installed_sbatch_version.cache_clear()
        assert release.installed_sbatch_version() == (23, 11)
        # Another binary (new modification time): asked again; it fails.
        os.utime(sbatch, ns=(before.st_atime_ns, before.st_mtime_ns + 10**9))
        release.installed_sbatch_version.cache_clear()
        assert release.installed_sbatch_version() is None
    finally:
        release.installed_sbatch_version.cache_clear()


def _same_size_and_time(sbatch, body: str) -> None:
    import os

    before = sbatch.stat()
    sbatch.write_text(body[: before.st_size].ljust(before.st_size))
    os.utime(sbatch, ns=(before.st_atime_ns, before.st_mtime_ns))


def test_a_failure_is_remembered_until_the_configuration_changes(tmp_path, monkeypatch):
    import os

    from slurmspec.settings import installed

    sbatch = _fake_sbatch(tmp_path, monkeypatch, '#!/bin/sh\necho "sbatch: fatal: no configuration" >&2; exit 1\n')
    conf = tmp_path / "slurm.conf"
    monkeypatch.setenv("SLURM_CONF", str(conf))  # absent for now
    try:
        assert release.installed_sbatch_version() is None
        # The same binary would answer now, but the failure is remembered: sbatch is not run again ...
        _same_size_and_time(sbatch, '#!/bin/sh\necho "slurm 23.11.4"\n')
        release.installed_sbatch_version.cache_clear()
        assert release.installed_sbatch_version() is None
        # ... until the configuration file appears (or changes) ...
        conf.write_text("ClusterName=x\n")
        release.installed_sbatch_version.cache_clear()
        assert release.installed_sbatch_version() == (23, 11)
        # ... or the failure is older than FAILURE_SECONDS.
        _same_size_and_time(sbatch, '#!/bin/sh\nexit 1\n')
        os.utime(sbatch, ns=(0, sbatch.stat().st_mtime_ns + 10**9))
        release.installed_sbatch_version.cache_clear()
        assert release.installed_sbatch_version() is None
        _same_size_and_time(sbatch, '#!/bin/sh\necho "slurm 24.11.5"\n')
        monkeypatch.setattr(installed, "FAILURE_SECONDS", 0)
        release.installed_sbatch_version.cache_clear()
        assert release.installed_sbatch_version() == (24, 11)
    finally:
        release.installed_sbatch_version.cache_clear()


def test_a_remembered_version_others_can_write_is_ignored(tmp_path, monkeypatch):
    _fake_sbatch(tmp_path, monkeypatch, '#!/bin/sh\necho "slurm 23.11.4"\n')
    try:
        assert release.installed_sbatch_version() == (23, 11)
        cached = tmp_path / "cache" / "slurmspec" / "sbatch-version"
        cached.write_text(cached.read_text().replace("23.11.4", "24.11.5"))  # a planted answer ...
        cached.chmod(0o666)  # ... in a file anybody could have written
        release.installed_sbatch_version.cache_clear()
        assert release.installed_sbatch_version() == (23, 11)
    finally:
        release.installed_sbatch_version.cache_clear()
