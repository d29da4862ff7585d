"""``job_spec_data()`` (tests/strategies.py) restricted to specs the loader takes.

The shared strategy draws hostile program names, some of which start with `-`
(`--x`); the loader refuses those (a launcher would read them as its own
options), and refuses torchrun/accelerate arguments that use a variable only
set in each worker (`$LOCAL_RANK`). Those refusals have their own tests
(test_spec_load.py); the property tests need specs that load.

The emitted script passes the stop signal on itself, so a signal must be for the
batch shell (`B:`), and horovodrun cannot pass it on (slurmspec/spec/workflow.py):
a drawn `USR2@60` becomes `B:USR2@60`, and a horovodrun job has no signal or chain.
"""

from __future__ import annotations

from slurmspec.spec.launch_words import WORKER_VARIABLES, variables
from tests.strategies import job_spec_data


def _loadable(data: dict) -> bool:
    launch = data["launch"]
    if launch["program"].startswith("-"):
        return False
    if launch["kind"] in ("torchrun", "accelerate"):
        return not any(name in WORKER_VARIABLES for arg in launch.get("args", ()) for name in variables(arg))
    return True


def _stoppable(data: dict) -> dict:
    job = data["job"]
    if data["launch"].get("launcher") == "horovodrun":
        job.pop("signal", None)
        data.pop("chain", None)
    elif "signal" in job and not job["signal"].startswith("B:"):
        job["signal"] = "B:" + job["signal"]
    return data


def spec_data():
    return job_spec_data().filter(_loadable).map(_stoppable)
