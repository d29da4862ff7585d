"""pygls' protocol, with two repairs: requests with unreadable parameters are answered, and
finished notifications are forgotten.

- When a request's parameters cannot be read as the method's type (a hover
  whose ``position`` is a string), pygls logs the problem and sends nothing, and
  the client waits for that answer forever. JSON-RPC 2.0 says to answer with an
  "Invalid params" error (-32602); this does, then lets pygls carry on as before.
- pygls (2.x, ``JsonRPCProtocol._execute_handler``) keeps the future of every
  handler it runs through a generator, a coroutine or a thread in
  ``_request_futures``, under the request's id -- and, for a notification, under
  a fresh uuid nobody ever removes: ``didOpen``/``didChange``/``didClose`` go
  through pygls' own generator handlers, so each one left about 2 KB behind for
  good (+39 MB after 20,000 ``didChange``). A request's entry is removed when its
  answer is sent; here every entry is removed once its handler is done.
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

    def _execute_handler(self, msg_id, handler, callback, args=None, kwargs=None):
        futures = self._request_futures

        def settled(future) -> None:
            try:
                callback(future)
            finally:
                if futures.get(msg_id) is future:  # a request's was already taken when it was answered
                    del futures[msg_id]

        return super()._execute_handler(msg_id, handler, settled, args, kwargs)
