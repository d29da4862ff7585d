"""pygls' protocol, answering requests whose parameters do not fit the method instead of ignoring them.

When a request's parameters cannot be read as the method's type (a hover
whose ``position`` is a string), pygls logs the problem and sends nothing, and
the client waits for that answer forever. JSON-RPC 2.0 says to answer with an
"Invalid params" error (-32602); this does, then lets pygls carry on as before.
"""

from __future__ import annotations

from typing import Any

from pygls.exceptions import JsonRpcException
from pygls.protocol import LanguageServerProtocol


class AnsweringProtocol(LanguageServerProtocol):
    def structure_message(self, data: dict[str, Any]):
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if isinstance(data, dict) and "method" in data and isinstance(data.get("id"), (int, str)):
                # pygls has no public way to send an error response outside a handler.
                self._send_response(data["id"], error=exc.to_response_error())
            raise
