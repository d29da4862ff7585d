"""Malformed client input on the real server's standard input: it must answer what it can and keep going.

Bad framing, invalid JSON, JSON that is no JSON-RPC message, unknown methods,
requests with parameters of the wrong shape, binary garbage, a header line
with no end, a body larger than the server accepts, and a client that goes
away: after each, the server still answers a well-formed request, and it never
prints a traceback.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time

import pytest

from tests.lsp.lsp_client import SERVER

TIMEOUT = 20.0


class RawClient:
    """Writes bytes to the server's standard input and reads framed messages from its output."""

    def __init__(self, cwd) -> None:
        self.process = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, cwd=cwd)
        self.buffer = b""
        self.next_id = 0

    def send_raw(self, data: bytes) -> None:
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, message: dict) -> None:
        body = json.dumps(message).encode()
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def request(self, method: str, params=None) -> int:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def _read_message(self, deadline: float) -> dict:
        while True:
            header_end = self.buffer.find(b"\r\n\r\n")
            if header_end != -1:
                length = int(self.buffer[:header_end].split(b"Content-Length: ")[1].split(b"\r\n")[0])
                start = header_end + 4
                if len(self.buffer) >= start + length:
                    body, self.buffer = self.buffer[start:start + length], self.buffer[start + length:]
                    return json.loads(body)
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([self.process.stdout], [], [], remaining)[0]:
                raise AssertionError("the server sent nothing in time")
            chunk = os.read(self.process.stdout.fileno(), 65536)
            if not chunk:
                raise AssertionError(f"the server closed its output (exit {self.process.poll()})")
            self.buffer += chunk

    def wait_for(self, predicate, timeout: float = TIMEOUT) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            message = self._read_message(deadline)
            if predicate(message):
                return message

    def response(self, request_id: int) -> dict:
        return self.wait_for(lambda m: m.get("id") == request_id and "method" not in m)

    def alive(self, attempts: int = 1) -> bool:
        """True when the server answers a well-formed request (an unknown one: it must say so).

        With ``attempts`` > 1 the request is sent again while none is answered: what a client
        that waits on a swallowed request does next.
        """
        sent = set()
        for attempt in range(attempts):
            sent.add(self.request("slurmspec/ping"))
            wait = TIMEOUT if attempt == attempts - 1 else 0.3
            try:
                answer = self.wait_for(lambda m: m.get("id") in sent and "method" not in m, wait)
            except AssertionError:
                continue
            return answer["error"]["code"] == -32601
        return False

    def finish(self) -> str:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(TIMEOUT)
        return self.process.stderr.read().decode(errors="replace")


def started(folder) -> RawClient:
    client = RawClient(folder)
    client.response(client.request("initialize", {"processId": None, "rootUri": folder.as_uri(), "capabilities": {}}))
    client.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    return client


@pytest.fixture(scope="module")
def raw(tmp_path_factory):
    """One server for the whole module: every test's garbage goes to the same process."""
    client = started(tmp_path_factory.mktemp("raw"))
    yield client
    stderr = client.finish()
    assert "Traceback" not in stderr


GARBAGE = [
    b"hello world\r\n\r\n",                                     # no header at all
    b"Content-Length: 9\r\n\r\n{not json",                      # invalid JSON
    b"Content-Length: 4\r\n\r\nnull",                           # JSON, but no message
    b"Content-Length: 6\r\n\r\n[1, 2]",                         # a batch, which LSP does not have
    b'Content-Length: 2\r\n\r\n{}',                             # an object without "jsonrpc"
    b"Content-Length: 12\nbroken-header\r\n\r\n",               # a header without its \r
    b'Content-Length: 46\r\n\r\n{"jsonrpc": "2.0", "method": "$/unknown/note"}',
    bytes(range(256)) * 64 + b"\r\n",                           # binary garbage
]


@pytest.mark.parametrize("garbage", GARBAGE, ids=range(len(GARBAGE)))
def test_garbage_between_messages_is_survived(raw, garbage):
    raw.send_raw(garbage)
    assert raw.alive()


def test_a_wrong_content_length_costs_only_that_message(raw):
    # The rest of the body is left in front of the next header, which has no line break before it.
    raw.send_raw(b'Content-Length: 30\r\n\r\n{"jsonrpc": "2.0", "method": "initialized", "params": {}}')
    assert raw.alive()
    raw.send_raw(b'Content-Length: 300\r\n\r\n{"jsonrpc": "2.0"}')  # too long: it swallows the next message
    raw.request("slurmspec/swallowed")
    assert raw.alive(attempts=8)


def test_requests_with_parameters_of_the_wrong_shape(raw):
    hover = raw.request("textDocument/hover", {"textDocument": {"uri": 7}, "position": "top"})
    assert raw.response(hover)["error"]["code"] == -32602  # JSON-RPC "Invalid params", not silence
    raw.request("textDocument/codeAction", {"textDocument": {"uri": "file:///nowhere.sbatch"},
                                            "range": {"start": {"line": -5, "character": 0},
                                                      "end": {"line": 99, "character": 10**9}},
                                            "context": {"diagnostics": []}})
    raw.send({"jsonrpc": "2.0", "method": "textDocument/didChange",
              "params": {"textDocument": {"uri": "file:///never-opened.sbatch", "version": 3},
                         "contentChanges": [{"text": "x"}]}})
    assert raw.alive()


def test_a_header_line_without_end_and_an_oversized_body(raw):
    raw.send_raw(b"X" * (2 * 1024 * 1024) + b"\r\n\r\n")   # a "header" line of 2 MiB
    size = 64 * 1024 * 1024 + 1                             # more than the server takes in one message
    raw.send_raw(b"Content-Length: %d\r\n\r\n" % size)
    chunk = b" " * (1024 * 1024)
    for _ in range(size // len(chunk)):
        raw.send_raw(chunk)
    raw.send_raw(b" " * (size % len(chunk)))
    assert raw.alive()


def test_a_document_after_garbage_is_still_linted_and_the_session_ends_cleanly(tmp_path):
    raw = started(tmp_path)
    raw.send_raw(b"Content-Length: 3\r\n\r\n{{{" + bytes(range(200)))
    uri = (tmp_path / "job.sbatch").as_uri()
    raw.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "shellscript", "version": 1, "text": "#!/bin/bash\n#SBATCH --time=2h\n"}}})
    diagnostics = raw.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics")
    assert [d["code"] for d in diagnostics["params"]["diagnostics"]] == ["SB110"]
    raw.response(raw.request("shutdown"))
    raw.send({"jsonrpc": "2.0", "method": "exit"})
    assert raw.process.wait(TIMEOUT) == 0
    assert "Traceback" not in raw.finish()


def test_a_client_that_goes_away_ends_the_server(tmp_path):
    client = RawClient(tmp_path)
    client.send_raw(b"Content-Length: 100\r\n\r\n{\"jsonrpc\"")  # and then nothing: the editor crashed
    client.process.stdin.close()
    assert client.process.wait(TIMEOUT) is not None
    assert "Traceback" not in client.finish()


def test_without_pygls_the_command_says_what_to_install(tmp_path):
    code = ("import sys; sys.modules['pygls'] = None; from slurmspec.cli import main; "
            "raise SystemExit(main(['lsp']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=TIMEOUT)
    assert done.returncode == 2
    assert done.stderr == ("slurmspec: error: `slurmspec lsp` needs the optional dependency pygls;"
                           " install it with `pip install 'slurmspec[lsp]'`\n")


def test_a_broken_explicit_configuration_is_a_usage_error(tmp_path):
    config = tmp_path / "slurmspec.toml"
    config.write_text("select = 3\n")
    done = subprocess.run([*SERVER, "--config", str(config)], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=TIMEOUT)
    assert done.returncode == 2 and done.stderr.startswith("slurmspec: error: ") and "Traceback" not in done.stderr


def test_help_documents_the_server():
    done = subprocess.run([*SERVER, "--help"], capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0
    assert "Language Server Protocol" in done.stdout and "docs/editors.md" in done.stdout
