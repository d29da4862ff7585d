"""When documents are linted, where the work runs, and what is published.

- ``didOpen`` and ``didSave`` lint at once; ``didChange`` waits ``DEBOUNCE_SECONDS``
  of quiet first, so typing a word lints once, not once per key.
- A new change cancels the document's pending lint; a lint that finishes for a
  version the editor has already replaced publishes nothing.
- Parsing and the rules run on one worker thread, never on the event loop, so
  the server keeps reading messages (cancellations, hovers) meanwhile.
- ShellCheck, when the configuration asks for it, runs afterwards as a child
  process the loop awaits (``slurmspec.lsp.shellcheck``): the rules' findings
  are published first, the full set when ShellCheck is done; the next change
  kills a ShellCheck still running.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

from lsprotocol import types

from slurmspec.lsp.analysis import LintResult, lint_document, lint_snapshot
from slurmspec.lsp.diagnostics import all_to_lsp, configuration_problem
from slurmspec.lsp.documents import Document, Documents
from slurmspec.lint.pipeline import LintSettings
from slurmspec.lsp.settings import ConfigSource

DEBOUNCE_SECONDS = 0.2
log = logging.getLogger("slurmspec.lsp")


class Linter:
    def __init__(self, documents: Documents, configs: ConfigSource,
                 publish: Callable[[types.PublishDiagnosticsParams], None],
                 warn: Callable[[str], None]) -> None:
        self.documents, self.configs = documents, configs
        self._publish, self._warn = publish, warn
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="slurmspec-lint")
        self._tasks: dict[str, asyncio.Task] = {}
        self._results: dict[str, LintResult] = {}
        self._warned: set[str] = set()

    def schedule(self, uri: str, delay: float = 0.0) -> None:
        """Lint ``uri`` after ``delay`` seconds, replacing any lint of it still pending or running."""
        self.cancel(uri)
        self._tasks[uri] = asyncio.get_running_loop().create_task(self._lint(uri, delay))

    def cancel(self, uri: str) -> None:
        task = self._tasks.pop(uri, None)
        if task is not None:
            task.cancel()

    def forget(self, uri: str) -> None:
        """The document was closed: stop its work and clear what the editor shows for it."""
        self.cancel(uri)
        self._results.pop(uri, None)
        self._publish(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def relint_all(self) -> None:
        for document in self.documents:
            self.schedule(document.uri)

    async def result(self, document: Document) -> LintResult:
        """The findings for the document's current version, linting now if there are none yet."""
        cached = self._results.get(document.uri)
        if cached is not None and cached.snapshot.version == document.version and cached.snapshot.text == document.text:
            return cached
        snapshot = document.snapshot()
        result = await asyncio.get_running_loop().run_in_executor(self.executor, lint_document, snapshot, self.configs)
        if self.is_current(result):
            self._results[document.uri] = result
        return result

    async def settings_of(self, document: Document) -> LintSettings:
        """The settings the document was last linted with, else found now (off the event loop)."""
        cached = self._results.get(document.uri)
        if cached is not None:
            return cached.settings
        path = document.snapshot().path
        return await asyncio.get_running_loop().run_in_executor(self.executor, self.configs.settings_for, path)

    def is_current(self, result: LintResult) -> bool:
        document = self.documents.get(result.snapshot.uri)
        return document is not None and document.version == result.snapshot.version \
            and document.text == result.snapshot.text

    async def _lint(self, uri: str, delay: float) -> None:
        try:
            if delay:
                await asyncio.sleep(delay)
            document = self.documents.get(uri)
            if document is None:
                return
            snapshot = document.snapshot()
            loop = asyncio.get_running_loop()
            result = await loop.run_in_executor(self.executor, lint_document, snapshot, self.configs)
            if not self.is_current(result):
                return
            self._results[uri] = result
            self._send(document, result)
            if result.settings.shellcheck and result.script is not None:
                await self._with_shellcheck(document, result)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - a lint that fails must not take the server down
            log.exception("linting %s failed", uri)
        finally:
            if self._tasks.get(uri) is asyncio.current_task():
                del self._tasks[uri]

    async def _with_shellcheck(self, document: Document, result: LintResult) -> None:
        from slurmspec.lint.shellcheck import ShellCheckError, shell_of
        from slurmspec.lsp.shellcheck import gather_comments

        shell = shell_of(result.script)
        if shell is None:
            return  # no shebang, or not a shell ShellCheck reads: the CLI skips it too
        snapshot, settings = result.snapshot, result.settings
        try:
            comments = await gather_comments(snapshot.text, shell, settings.shellcheck_for(snapshot.path).cwd)
        except ShellCheckError as exc:
            self._warn_once(str(exc))
            return
        loop = asyncio.get_running_loop()
        full = await loop.run_in_executor(self.executor, lint_snapshot, snapshot, settings, comments)
        if self.is_current(full):
            self._results[document.uri] = full
            self._send(document, full)

    def _send(self, document: Document, result: LintResult) -> None:
        if result.settings.error is not None:
            diagnostics = []
            if result.snapshot.is_script:  # a broken configuration matters to the scripts it governs
                self._warn_once(result.settings.error)
                diagnostics = [configuration_problem(result.settings.error)]
        else:
            diagnostics = all_to_lsp(result.diagnostics, result.snapshot.version, result.script,
                                     document.positions, document.uri)
        self._publish(types.PublishDiagnosticsParams(
            uri=document.uri, diagnostics=diagnostics, version=result.snapshot.version,
        ))

    def _warn_once(self, message: str) -> None:
        if message not in self._warned:
            self._warned.add(message)
            self._warn(message)

    def shutdown(self) -> None:
        for uri in list(self._tasks):
            self.cancel(uri)
        self.executor.shutdown(wait=False, cancel_futures=True)
