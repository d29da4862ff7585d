"""Site plugin options in the cluster profile (issue 23): read from `sbatch --help`, kept in the profile,
and what SB001/SB007 say with them.

The real test builds a SPANK plugin (tests/cluster/data/spank_siteopt.c: it registers `--uenv=<file>`,
a long `--site-long-option-name=<...>` and the flag `--site-flag`), installs it in a throwaway
cluster of each release, reads that sbatch's `--help`, imports the cluster with it and checks that
slurmspec refuses exactly the scripts that sbatch refuses there.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from slurmspec.cli import main
from slurmspec.cluster.importer import COMMANDS, import_profile
from slurmspec.cluster.importer_help import plugin_options_in_help
from slurmspec.cluster.profile import ProfileError
from slurmspec.cluster.store import dump_profile, load_profile, loads_profile
from slurmspec.lint import lint_text, refuses
from tests.conftest import _skip_or_fail
from tests.slurm_cluster import SlurmCluster

HERE = Path(__file__).resolve().parent
DATA, PROFILES = HERE / "data", HERE / "profiles"
PLUGIN_SOURCE = DATA / "spank_siteopt.c"
LAB = (PROFILES / "lab.toml").read_text()

# As src/common/spank.c prints them (22.05's plugstack.c the same): six spaces, `--name[=ARG]` padded to 30,
# and a name of 30 or more characters on its own line after a blank one.
HELP = """\
      --ntasks-per-socket=n   number of tasks to invoke on each socket

Options provided by plugins:
      --uenv=<file>           mount this user environment

      --site-long-option-name=<some-long-argument>
                              an option whose help line is too long
      --site-flag             a flag

GPU scheduling options:
      --cpus-per-gpu=n        number of CPUs required per allocated GPU
"""
LISTED = ("--uenv=<file>", "--site-long-option-name=<some-long-argument>", "--site-flag")


def with_plugins(options: tuple[str, ...]) -> str:
    listing = ", ".join(f'"{o}"' for o in options)
    return LAB.replace('name = "lab"\n', f'name = "lab"\nplugin-options = [{listing}]\n', 1)


def test_help_section_is_read_up_to_the_next_heading():
    assert plugin_options_in_help(HELP) == LISTED
    assert plugin_options_in_help(HELP.replace("Options provided by plugins:", "Other options:")) == ()


def test_profile_keeps_the_list_and_tells_taking_a_value():
    profile = loads_profile(with_plugins(LISTED), "lab.toml")
    assert profile.plugin_options == LISTED
    assert profile.plugin_option("uenv") and profile.plugin_takes_value("uenv")
    assert profile.plugin_option("site-flag") and not profile.plugin_takes_value("site-flag")
    assert profile.plugin_option("view") is False
    assert loads_profile(LAB, "lab.toml").plugin_option("uenv") is None  # the profile does not say
    assert loads_profile(dump_profile(profile), "again.toml").plugin_options == LISTED


@pytest.mark.parametrize("entry", ["uenv", "--", "--a b", "-x"])
def test_an_entry_not_written_as_the_help_writes_it_is_an_error(entry):
    with pytest.raises(ProfileError, match="plugin-options"):
        loads_profile(with_plugins((entry,)), "bad.toml")


SCRIPTS = {
    "#!/bin/bash\n#SBATCH --uenv prgenv\n#SBATCH -n 1\nhostname\n": True,
    "#!/bin/bash\n#SBATCH --uenv=prgenv --site-flag\nhostname\n": True,
    "#!/bin/bash\n#SBATCH --site-long-option-name x\nhostname\n": True,
    "#!/bin/bash\n#SBATCH --view=default\nhostname\n": False,
    "#!/bin/bash\n#SBATCH --image docker:ubuntu\nhostname\n": False,
}


def test_sb001_with_the_profile_is_silent_for_listed_options_and_exact_for_the_rest():
    profile = loads_profile(with_plugins(LISTED), "lab.toml")
    for script, accepted in SCRIPTS.items():
        found = lint_text(script, cluster=profile)
        codes = [d.code for d in found if d.code in ("SB001", "SB007")]
        assert codes == ([] if accepted else ["SB001"]), (script, found)
        assert refuses(found) == (not accepted), (script, found)
    without = lint_text("#!/bin/bash\n#SBATCH --view=default\nhostname\n")
    assert [d.severity.value for d in without if d.code == "SB001"] == ["warning"]  # the plugin caveat


def test_import_reads_a_saved_help_and_reimport_keeps_the_list(tmp_path, capsys):
    files = [DATA / f"2205-{n}.txt" for n in ("node", "partition", "config")]
    (tmp_path / "help.txt").write_text(HELP)
    out = tmp_path / "hpc.toml"
    base = ["cluster", "import", "--nodes", str(files[0]), "--partitions", str(files[1]), "--config", str(files[2]),
            "-o", str(out)]
    assert main([*base, "--sbatch-help", str(tmp_path / "help.txt")]) == 0
    assert load_profile(out).plugin_options == LISTED
    capsys.readouterr()
    assert main(base) == 0  # again, without the help: the site's list is kept
    assert load_profile(out).plugin_options == LISTED
    assert "kept the plugin-options" in capsys.readouterr().err


@pytest.mark.slurm
def test_real_sbatch_with_a_site_plugin(slurm_cluster: SlurmCluster, tmp_path: Path):
    """A real SPANK plugin in each release: `sbatch --help` lists its options as read above, and with the
    imported profile slurmspec refuses exactly what that sbatch refuses."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        _skip_or_fail("no C compiler to build the test SPANK plugin")
    major, minor = slurm_cluster.version
    plugin = tmp_path / "siteopt.so"
    # SPANK plugins must match sbatch's major and minor release (src/common/plugin.c, mask 0xffff00)
    subprocess.run([compiler, "-shared", "-fPIC", "-O2", f"-DPLUGIN_VERSION_NUMBER=(({major}<<16)|({minor}<<8))",
                    "-o", str(plugin), str(PLUGIN_SOURCE)], check=True, capture_output=True, timeout=120)
    with SlurmCluster(slurm_cluster.release) as cluster:  # its own cluster: the session's has no plugin
        installed = cluster.workdir / "siteopt.so"
        shutil.copy(plugin, installed)
        (cluster.workdir / "plugstack.conf").write_text(f"required {installed}\n")
        shown = cluster.run(["sbatch", "--help"], timeout=30)
        assert shown.returncode == 0, shown.stderr
        assert plugin_options_in_help(shown.stdout) == LISTED
        texts = {what: (cluster.scontrol(*argv), what) for what, argv in COMMANDS.items()}
        profile, _notes = import_profile(texts["nodes"], texts["partitions"], texts["config"], "lab", shown.stdout)
        assert profile.plugin_options == LISTED
        for script, accepted in SCRIPTS.items():
            outcome = cluster.test_only(script)
            assert outcome.accepted == accepted, (script, outcome.output)
            found = lint_text(script, cluster=profile)
            assert refuses(found) == (not accepted), (script, found)
