"""`slurmspec cluster import` on output cut short, wrong-typed JSON and impossible node names (issue 21).

Each is a clear error with exit 2 and nothing written, never a traceback and never a profile that
quietly holds the wrong cluster (a cut `RealMemory=512000` read as a 10 MB node).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from slurmspec.cli import main

DATA = Path(__file__).resolve().parent / "data"
NODES, PARTITIONS, CONFIG = (DATA / f"2205-{name}.txt" for name in ("node", "partition", "config"))


def import_cli(tmp_path, capsys, nodes: bytes | None, partitions: bytes | None = None,
               config: bytes | bool | None = None):
    """Import the 22.05 output, with ``nodes``/``partitions``/``config`` in its place when given (``config``
    False: no --config, as for JSON that names its release)."""
    for name, data, default in (("n", nodes, NODES), ("p", partitions, PARTITIONS), ("c", config, CONFIG)):
        (tmp_path / name).write_bytes(default.read_bytes() if data is None or data is False else data)
    args = ["--nodes", str(tmp_path / "n"), "--partitions", str(tmp_path / "p")]
    if config is not False:
        args += ["--config", str(tmp_path / "c")]
    code = main(["cluster", "import", *args])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.out, captured.err


def test_complete_output_still_imports(tmp_path, capsys):
    code, out, _ = import_cli(tmp_path, capsys, NODES.read_bytes())
    assert code == 0 and "[[shape]]" in out


def test_output_cut_in_the_middle_of_a_line_is_refused(tmp_path, capsys):
    text = NODES.read_bytes()
    cut = text[: text.index(b"RealMemory=", 2000)] + b"RealMemory=10"  # the whole line says RealMemory=384000
    code, out, err = import_cli(tmp_path, capsys, cut)
    assert code == 2 and out == ""
    assert "ends in the middle of a line, at 'RealMemory=10' (node cpu-001): it was cut short" in err


def test_multiline_output_cut_at_a_line_break_is_refused(tmp_path, capsys):
    text = (DATA / "2205-node_multiline.txt").read_bytes()
    cut = text[: text.index(b"   State=", 3000)]
    code, _, err = import_cli(tmp_path, capsys, cut)
    assert code == 2 and "stops before `State=`, which scontrol prints for every record" in err


def test_partition_output_cut_short_is_refused(tmp_path, capsys):
    text = PARTITIONS.read_bytes()
    code, _, err = import_cli(tmp_path, capsys, None, text[: text.index(b"MaxTime=", 300) + len(b"MaxTime=1")])
    assert code == 2 and "cut short; save the whole `scontrol show partition` output" in err


def test_config_output_cut_short_is_refused(tmp_path, capsys):
    text = CONFIG.read_bytes()
    cut = text[: text.index(b"MaxArraySize") + text[text.index(b"MaxArraySize"):].index(b"=") + 4]
    code, _, err = import_cli(tmp_path, capsys, None, None, cut)
    assert code == 2 and "c: the output ends in the middle of a line: it was cut short" in err


def test_a_record_missing_fields_in_the_middle_is_not_mistaken_for_a_cut(tmp_path, capsys):
    # Hand-made or edited output may lack a key; it still has the keys printed after it.
    lines = NODES.read_text().splitlines(keepends=True)
    lines[-1] = lines[-1].replace(" AllocMem=0", "")
    code, _, _ = import_cli(tmp_path, capsys, "".join(lines).encode())
    assert code == 0


NODE_JSON = json.loads((DATA / "2411-node.json").read_text())
PARTITION_JSON = json.loads((DATA / "2411-partition.json").read_text())


def _changed(document: dict, key: str, path: tuple, value) -> bytes:
    changed = copy.deepcopy(document)
    record = changed[key][0]
    for part in path[:-1]:
        record = record.setdefault(part, {})
    record[path[-1]] = value
    return json.dumps(changed).encode()


@pytest.mark.parametrize(("nodes", "partitions", "message"), [
    (_changed(NODE_JSON, "nodes", ("gres",), ["gpu:a100:8"]), None, "`gres` is not a string: a list"),
    (_changed(NODE_JSON, "nodes", ("real_memory",), {"set": True, "number": [1]}), None,
     "`real_memory` is not a number: a list"),
    (_changed(NODE_JSON, "nodes", ("effective_cpus",), 1e400), None, "`cpus` is not a number: Infinity"),
    (None, _changed(PARTITION_JSON, "partitions", ("nodes", "configured"), 5), "`nodes.configured` is not a string: 5"),
    (None, _changed(PARTITION_JSON, "partitions", ("defaults", "job"), {}),
     "`defaults.job` is not a string: an object"),
    (None, _changed(PARTITION_JSON, "partitions", ("partition", "state"), [7]), "`partition.state` is not a string: 7"),
    (None, _changed(PARTITION_JSON, "partitions", ("qos", "assigned"), True), "`qos.assigned` is not a string: true"),
    (json.dumps({**NODE_JSON, "errors": 5}).encode(), None, "`errors` is not a list: 5"),
    (b'{"nodes": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", None, "invalid JSON: nested too deeply"),
], ids=["gres-list", "memory-list", "infinity", "nodes-number", "job-object", "state-number", "qos-bool",
        "errors-number", "deep"])
def test_wrong_typed_json_is_a_clear_error(tmp_path, capsys, nodes, partitions, message):
    nodes = nodes if nodes is not None else json.dumps(NODE_JSON).encode()
    partitions = partitions if partitions is not None else json.dumps(PARTITION_JSON).encode()
    code, out, err = import_cli(tmp_path, capsys, nodes, partitions, False)
    assert code == 2 and out == "" and message in err


@pytest.mark.parametrize("name", ["a100-\x1b[2J01", "a[1-2]", "a,b", "a b"])
def test_a_node_name_no_host_list_can_hold_is_refused(tmp_path, capsys, name):
    text = NODES.read_text().replace("NodeName=a100-01 ", f"NodeName={name} ", 1)
    code, _, err = import_cli(tmp_path, capsys, text.encode())
    assert code == 2 and "not a node name" in err and "\x1b" not in err
