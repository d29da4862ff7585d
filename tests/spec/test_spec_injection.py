"""Every key of the spec x shell metacharacters: the loader refuses the value, or the emitted script runs it as data.

For each key of ``fields.SECTIONS`` (nested container keys, ``[env]`` names and
values, hetjob components included) and each payload below, the spec is
loaded; a refused spec is fine (``emit`` exits 2), an accepted one is emitted
and the whole script run by bash with stub Slurm commands
(tests/spec/stub_slurm.py), after which no file named CANARY may exist. The
``[chain]`` keys run the stop path (the stub program asks for the signal and
the script queues the next link), so the resubmission line runs too. ``[body]``
is left out: its script is the user's own shell code, run as written.
"""

from __future__ import annotations

import copy

import pytest

from slurmspec.emit import emit
from slurmspec.spec import SpecError, spec_from_data
from slurmspec.spec.fields import BOOL, INT, LIST, SECTIONS, TABLE
from tests.examples import sampled
from tests.spec.stub_slurm import calls, finish_script, make_stubs, start_script

PAYLOADS = (
    "$(touch CANARY)", "`touch CANARY`", "x; touch CANARY", "x\ntouch CANARY", "x\r\ntouch CANARY",
    "x & touch CANARY", "x | touch CANARY", "x > CANARY", "x && touch CANARY", "${X:-$(touch CANARY)}",
    "$((1 + $(touch CANARY)))", "a[$(touch CANARY)]", "'; touch CANARY; '", '"; touch CANARY; "',
    '\\"; touch CANARY; #', "$'\\x27'; touch CANARY", "-x; touch CANARY", "$HOME$(touch CANARY)",
    "${HOME}`touch CANARY`", "x\ttouch CANARY",
)
# How each key gets its value, and the spec around it (a key of a kind or a table needs them).
CONTEXT = {
    ("launch", "mpi"): {"launch": {"kind": "mpi"}},
    ("launch", "launcher"): {"launch": {"kind": "mpi"}},
    ("launch", "procs_per_node"): {"launch": {"kind": "torchrun"}},
    ("launch", "python"): {"launch": {"program": "train.py"}},
}


def _base(chain: bool) -> dict:
    """A spec with every workflow section; with ``chain`` the program is stopped by the signal."""
    data = {
        "job": {"name": "inject", "time": "00:01:00"},
        "resources": {"ntasks": 1},
        "launch": {"kind": "plain", "program": "prog", "args": ["done"]},
        "env": {"A": "b"},
        "staging": {"inputs": ["in.txt"]},
        "checkpoint": {"persistent": "persistent", "interval": 600},
        "monitor": {"gpu": True, "tensorboard": "runs"},
    }
    if chain:
        data["job"]["signal"] = "B:USR1@30"
        data["launch"]["args"] = ["stop"]
        data["chain"] = {"count": 2, "script": "next.sbatch"}
    return data


def _cases():
    for section, fields in SECTIONS.items():
        if section == "body":
            continue
        if section == "env":
            yield "env (name)", lambda data, p: data["env"].update({p: "v"})
            yield "env (value)", lambda data, p: data["env"].update({"A": p})
            continue
        for field in fields:
            if field.type == TABLE:
                for child in field.children:
                    yield f"{section}.{field.key}.{child.key}", _setter(section, child, field.key)
            else:
                yield f"{section}.{field.key}", _setter(section, field)


def _setter(section: str, field, table: str | None = None):
    def put(data: dict, payload: str) -> None:
        for name, values in CONTEXT.get((section, field.key), {}).items():
            data[name].update(values)
        value = [("# " + payload) if field.key == "lines" else payload] if field.type == LIST else payload
        if section == "hetjob":
            data["hetjob"] = [{"options": ["--ntasks=1"], field.key: value}]
        elif table is not None:
            data[section][table] = {"image": "img", field.key: value}
        else:
            data.setdefault(section, {})[field.key] = value
    return put


CASES = list(_cases())


def test_the_matrix_covers_every_key():
    named = {name.split(" ")[0] for name, _ in CASES}
    expected = {f"{s}.{f.key}" for s, fields in SECTIONS.items() if s not in ("body", "env") for f in fields
                if f.type != TABLE}
    expected |= {f"launch.container.{c.key}" for c in dict((f.key, f) for f in SECTIONS["launch"])["container"].children}
    assert named == expected | {"env"}


@pytest.mark.parametrize(("name", "put"), CASES, ids=[name for name, _ in CASES])
def test_no_value_runs_as_code(tmp_path, name, put):
    stubs = make_stubs(tmp_path / "stubs")
    chain = name.startswith("chain.")
    started, refused = [], 0
    payloads = sampled(PAYLOADS)  # every payload under CI; a random half of them in the dev profile
    for i, payload in enumerate(payloads):
        data = copy.deepcopy(_base(chain))
        put(data, payload)
        try:
            spec = spec_from_data(data)
        except SpecError:
            refused += 1
            continue
        work = tmp_path / str(i)
        work.mkdir()
        (work / "in.txt").write_text("input")
        started.append((payload, work, start_script(emit(spec), stubs, work)))
    for payload, work, job in started:  # all at once: the stop path polls for a second or two
        result = finish_script(job, work)
        hits = [str(p.relative_to(work)) for p in work.rglob("CANARY")]
        assert not hits, f"{name} = {payload!r} ran as code ({hits}):\n{result.stderr}"
        if name == "chain.script":  # the resubmission ran, with the payload as one word ($HOME expanded)
            expected = payload.replace("${HOME}", str(work)).replace("$HOME", str(work))
            assert [c[-2:] for c in calls(work, "sbatch")] == [["--", expected]], result.stderr
    if name.endswith("export_as") or name == "env (name)":
        assert refused == len(payloads)  # a name must be a name: every payload is refused at the key
