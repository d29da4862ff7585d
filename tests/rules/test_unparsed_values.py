"""No rule trips over an option value that did not parse.

sbatch refuses such a value and an SB1xx rule says so; the request keeps it as the raw text
(``Setting.value``), and a rule that needs the parsed record asks for it by class
(``Setting.value_as``), which gives None here. A rule that read attributes off the value
instead crashed: ``--begin=garbage`` next to ``--deadline`` made SB128 and SB123 fail (SB900).
"""

from __future__ import annotations

import pytest

from slurmspec.kinds import Role, ValueKind
from slurmspec.lint import lint_text
from slurmspec.lint.engine import code_of
from slurmspec.model.catalogue.options import all_options
from slurmspec.version import NEWEST, OLDEST
from tests.cluster.rule_profiles import profile_named

INTERNAL_ERROR = code_of(Role.INTERNAL_ERROR)

# Valid options beside the broken one, so that the rules comparing two options look at it.
_COMPANIONS = (
    "--nodes=2", "--ntasks=8", "--ntasks-per-node=4", "--cpus-per-task=2", "--time=2:00:00",
    "--time-min=1:00:00", "--begin=now+1hour", "--deadline=now+5hours", "--gpus=8", "--gpus-per-node=4",
    "--gres=gpu:4", "--mem=4G", "--array=0-3", "--signal=R:USR1@60", "--requeue", "--partition=gpu",
    "--exclusive", "--export=NONE", "--mail-type=END", "--distribution=block", "--output=job-%j.out",
)
_TYPED = sorted(option.long for option in all_options() if option.kind not in (None, ValueKind.STRING))


@pytest.mark.parametrize("name", _TYPED)
def test_an_option_whose_value_did_not_parse_trips_no_rule(name):
    words = [*(c for c in _COMPANIONS if not c.startswith(f"--{name}=")), f"--{name}=@bad@"]
    text = "#!/bin/bash\n" + "".join(f"#SBATCH {word}\n" for word in words) + "srun ./app\n"
    for version in (OLDEST, NEWEST):
        for cluster in (None, profile_named("lab")):
            found = lint_text(text, version=version, cluster=cluster)
            assert [d.message for d in found if d.code == INTERNAL_ERROR] == [], (name, version, cluster)
