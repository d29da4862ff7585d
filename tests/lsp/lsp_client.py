"""Helpers for the LSP tests: the server command, the recording client, and what a test sends and awaits."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

try:
    from lsprotocol import types
    from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
    from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features
except ImportError as exc:  # pragma: no cover - the test extra installs them
    if os.environ.get("CI", "").strip().lower() in ("true", "1"):
        raise
    pytest.skip(f"the LSP tests need pygls and pytest-lsp (pip install -e '.[test]'): {exc}",
                allow_module_level=True)

SERVER = [sys.executable, "-m", "slurmspec", "lsp"]
TIMEOUT = 20.0


def _recording_client() -> LanguageClient:
    """pytest-lsp's client, also keeping every publishDiagnostics with its version, in order,
    and accepting the server's ``client/registerCapability`` (file watchers) as editors do."""
    client = LanguageClient()
    client.published = []

    def publish(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        client.diagnostics[params.uri] = params.diagnostics
        client.published.append(params)

    client.registrations = []

    def register(client: LanguageClient, params: types.RegistrationParams) -> None:
        client.registrations.extend(params.registrations)  # as an editor would: accepted

    register_lsp_features(client, {
        **DEFAULT_CLIENT_FEATURES,
        types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: publish,
        types.CLIENT_REGISTER_CAPABILITY: register,
    })
    return client


def server_config(env: dict[str, str] | None = None) -> ClientServerConfig:
    return ClientServerConfig(server_command=SERVER, client_factory=_recording_client, server_env=env)


async def start_session(client: LanguageClient, request, workspace: Path) -> None:
    spec = getattr(request.module, "CLIENT_SPEC", "visual-studio-code")
    await client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities(spec),
        root_uri=workspace.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=workspace.as_uri(), name="workspace")],
    ))


_versions = iter(range(1, 10**9))


def next_version() -> int:
    return next(_versions)


def open_document(client: LanguageClient, path: Path, text: str, language: str = "shellscript") -> tuple[str, int]:
    """Send ``didOpen`` for ``path`` with ``text`` (the file need not exist); return its URI and version."""
    uri, version = path.as_uri(), next_version()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id=language, version=version, text=text)))
    return uri, version


def replace_all(client: LanguageClient, uri: str, text: str) -> int:
    """A full-text ``didChange``; returns the new version."""
    version = next_version()
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
    return version


def edit_range(client: LanguageClient, uri: str, start: tuple[int, int], end: tuple[int, int], text: str) -> int:
    """An incremental ``didChange`` replacing (line, character) ``start``..``end``; returns the new version."""
    version = next_version()
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(*start), end=types.Position(*end)), text=text)]))
    return version


async def published(client: LanguageClient, uri: str, version: int | None = None,
                    timeout: float = TIMEOUT, after: int = 0) -> types.PublishDiagnosticsParams:
    """The first diagnostics published for ``uri`` (at ``version``, if given; from the ``after``-th
    publication on), waiting for them."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        for params in client.published[after:]:
            if params.uri == uri and (version is None or params.version == version):
                return params
        if loop.time() > deadline:
            seen = [(p.uri.rsplit("/", 1)[-1], p.version) for p in client.published]
            raise AssertionError(f"no diagnostics for {uri} version {version}; published: {seen}")
        await asyncio.sleep(0.01)


def codes(params: types.PublishDiagnosticsParams) -> list[str]:
    return [str(d.code) for d in params.diagnostics]


def utf16_column(line: str, characters: int) -> int:
    """Characters of ``line`` as UTF-16 code units (an independent check of the server's arithmetic)."""
    return len(line[:characters].encode("utf-16-le")) // 2


def apply_text_edits(text: str, edits: list[types.TextEdit], units: str = "utf-16") -> str:
    """What an editor does with ``edits`` on ``text`` (``\\n`` line breaks; columns in ``units``)."""
    def width(ch: str) -> int:
        if units == "utf-8":
            return len(ch.encode("utf-8"))
        return 1 if units == "utf-32" else len(ch.encode("utf-16-le")) // 2

    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)

    def offset(position: types.Position) -> int:
        if position.line >= len(lines):
            return len(text)
        line = lines[position.line]
        counted = 0
        for index, ch in enumerate(line):
            if counted >= position.character:
                return starts[position.line] + index
            counted += width(ch)
        return starts[position.line] + len(line)

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[:offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end):]
    return text
