"""Drive the real ``python -m slurmspec lsp`` process over stdio with pytest-lsp's LSP client.

One server per test module (``client`` is module-scoped); a module picks the
editor whose recorded capabilities the client announces with ``CLIENT_SPEC``
(pytest-lsp ships them: ``visual-studio-code``, ``neovim``, ``emacs``). Each
module gets its own workspace folder (``workspace``), where tests write
configuration files; documents are sent with ``didOpen``, never read from disk.
Helpers live in ``tests/lsp/lsp_client.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

try:
    import pytest_lsp
    from pytest_lsp import LanguageClient
except ImportError:  # pragma: no cover - the test extra installs them
    # Each test module then skips with the reason when it imports tests/lsp/lsp_client.py.
    if os.environ.get("CI", "").strip().lower() in ("true", "1"):
        raise
else:
    from tests.lsp.lsp_client import server_config, start_session

    @pytest.fixture(scope="module")
    def workspace(tmp_path_factory) -> Path:
        return tmp_path_factory.mktemp("workspace")

    @pytest_lsp.fixture(scope="module", config=server_config())
    async def client(lsp_client: LanguageClient, request, workspace: Path):
        await start_session(lsp_client, request, workspace)
        yield
        await lsp_client.shutdown_session()
