"""The language server: pygls speaks the protocol, these handlers answer it.

pygls does the JSON-RPC framing, the initialize/shutdown/exit lifecycle,
request cancellation and the capability negotiation (position encoding
included). Everything slurmspec-specific lives in the modules each handler
calls: ``documents`` (the text), ``linting`` (when and where the engine runs),
``diagnostics``, ``actions``, ``hover`` and ``completion``.
"""

from __future__ import annotations

import asyncio
import logging
import os

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from slurmspec.lsp.actions import FIX_ALL, ActionBuilder, wants
from slurmspec.lsp.documents import Documents, uri_to_path
from slurmspec.lsp.linting import DEBOUNCE_SECONDS, Linter
from slurmspec.lsp.settings import ConfigSource

log = logging.getLogger("slurmspec.lsp")
CONFIG_FILES = ("slurmspec.toml", "pyproject.toml", ".shellcheckrc")
COMPLETION_TRIGGERS = ["-", "=", ",", ":"]


def _encoding(server: LanguageServer) -> str:
    encoding = server.workspace.position_encoding
    return getattr(encoding, "value", encoding) or "utf-16"


def _capability(server: LanguageServer, *path: str):
    value = server.client_capabilities
    for name in path:
        value = getattr(value, name, None)
        if value is None:
            return None
    return value


def build_server(configs: ConfigSource) -> LanguageServer:
    from slurmspec import __version__

    from slurmspec.lsp.protocol import AnsweringProtocol

    server = LanguageServer("slurmspec", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
                            protocol_cls=AnsweringProtocol)
    documents = Documents()

    def publish(params: types.PublishDiagnosticsParams) -> None:
        server.text_document_publish_diagnostics(params)

    def warn(message: str) -> None:
        from slurmspec.printable import printable

        message = printable(message)  # names files and settings: shown text, as the CLI prints it
        log.warning("%s", message)
        server.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=f"slurmspec: {message}"))

    linter = Linter(documents, configs, publish, warn)

    @server.feature(types.INITIALIZE)
    def initialize(params: types.InitializeParams) -> None:
        documents.encoding = _encoding(server)
        folders = params.workspace_folders or []
        root = uri_to_path(folders[0].uri) if folders else (uri_to_path(params.root_uri) if params.root_uri else None)
        configs.root = root or params.root_path or configs.root

    @server.feature(types.INITIALIZED)
    def initialized(params: types.InitializedParams) -> None:
        if _capability(server, "workspace", "did_change_watched_files", "dynamic_registration"):
            watchers = [types.FileSystemWatcher(glob_pattern=f"**/{name}") for name in CONFIG_FILES]
            server.client_register_capability(types.RegistrationParams(registrations=[types.Registration(
                id="slurmspec-config-files", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
            )]))

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        item = params.text_document
        documents.open(item.uri, item.text, item.version)
        linter.schedule(item.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        if documents.change(uri, params.text_document.version, params.content_changes) is not None:
            linter.schedule(uri, DEBOUNCE_SECONDS)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    def did_save(params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        if uri.rsplit("/", 1)[-1] in CONFIG_FILES:
            linter.relint_all()
        elif documents.get(uri) is not None:
            linter.schedule(uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        documents.close(params.text_document.uri)
        linter.forget(params.text_document.uri)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched_files(params: types.DidChangeWatchedFilesParams) -> None:
        linter.relint_all()

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def configuration(params: types.DidChangeConfigurationParams) -> None:
        linter.relint_all()

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(params: types.HoverParams) -> types.Hover | None:
        from slurmspec.lsp.hover import hover_markdown

        document = documents.get(params.text_document.uri)
        if document is None:
            return None
        result = await linter.result(document)
        if result.script is None or result.snapshot.text != document.text:
            return None
        found = hover_markdown(result.script, result.diagnostics, document.positions.offset(params.position))
        if found is None:
            return None
        text, (start, end) = found
        formats = _capability(server, "text_document", "hover", "content_format") or [types.MarkupKind.Markdown]
        kind = types.MarkupKind.Markdown if types.MarkupKind.Markdown in formats else types.MarkupKind.PlainText
        return types.Hover(contents=types.MarkupContent(kind=kind, value=text),
                           range=document.positions.range(start, end))

    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=COMPLETION_TRIGGERS))
    async def completion(params: types.CompletionParams) -> types.CompletionList | None:
        from slurmspec.lsp.completion import complete

        document = documents.get(params.text_document.uri)
        if document is None or not document.snapshot().is_script:
            return None
        settings = await linter.settings_of(document)
        positions = document.positions  # after the wait: the text may have changed meanwhile
        line = params.position.line
        start, end = positions.line_start(line), positions.line_end(line)
        cursor = positions.offset(params.position) - start
        extra = None
        if settings.cluster is not None:
            from slurmspec.lsp.cluster_values import profile_values

            extra = profile_values(settings.cluster)
        items = complete(document.text[start:end], cursor, settings.version,
                         lambda a, b: positions.range(start + a, start + b), extra)
        return types.CompletionList(is_incomplete=False, items=items)

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL]))
    async def code_action(params: types.CodeActionParams) -> list[types.CodeAction] | None:
        document = documents.get(params.text_document.uri)
        if document is None:
            return None
        result = await linter.result(document)
        if result.script is None or result.snapshot.text != document.text:
            return []
        versioned = bool(_capability(server, "workspace", "workspace_edit", "document_changes"))
        builder = ActionBuilder(result, documents.encoding, versioned)
        only = [str(getattr(kind, "value", kind)) for kind in (params.context.only or [])]
        positions = document.positions
        actions = builder.for_range(positions.offset(params.range.start), positions.offset(params.range.end), only,
                                    params.context.diagnostics)
        asked = params.context.trigger_kind != types.CodeActionTriggerKind.Automatic or only
        if asked and wants(only, FIX_ALL):
            # The fix rounds lint several times: off the event loop, as every lint.
            fix_all = await asyncio.get_running_loop().run_in_executor(linter.executor, builder.fix_all)
            if fix_all is not None and linter.is_current(result):
                actions.append(fix_all)
        return actions

    @server.feature(types.SHUTDOWN)
    def shutdown(params: None) -> None:
        linter.shutdown()

    return server


def serve(configs: ConfigSource) -> None:
    """Speak LSP on standard input and output until the client says ``exit`` or goes away."""
    import sys

    from slurmspec.lsp.stdio import BoundedInput

    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    # Only protocol messages may reach standard output: anything else printed goes to the log.
    sys.stdout = sys.stderr
    if configs.root is None:
        configs.root = os.getcwd()
    build_server(configs).start_io(BoundedInput(stdin), stdout)
