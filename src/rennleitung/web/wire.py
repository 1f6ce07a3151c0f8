"""The server on the wire: uvicorn with limits on what a connection may hold before its request
has been read.

uvicorn's httptools protocol keeps a request's line and headers in memory until they are
complete, without a limit on their size or on how long they take; twelve clients each sending
an endless header took 220 MB. ``GuardedHttp`` answers 431 and hangs up once a head passes
``HEAD_MAX`` bytes, 408 when a head has not been completed ``HEAD_SECONDS`` after it began (or
after the connection was opened), and refuses connections beyond ``Settings.max_connections``
with 503 before reading anything. ``X-Forwarded-For`` is read only from the addresses in
``Settings.trusted_proxies`` (none by default).
"""

from __future__ import annotations

import asyncio
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from rennleitung.web.settings import Settings

HEAD_MAX = 32 * 1024
"""Bytes of request line and headers (nginx's default buffers hold 4 × 8 KB)."""
HEAD_SECONDS = 10.0
"""Seconds a request's head may take to arrive."""
KEEP_ALIVE_SECONDS = 5.0
"""An idle connection between requests is closed after this long (uvicorn's default)."""

_ANSWERS = {
    408: b"HTTP/1.1 408 Request Timeout\r\n",
    431: b"HTTP/1.1 431 Request Header Fields Too Large\r\n",
    503: b"HTTP/1.1 503 Service Unavailable\r\n",
}


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol with a size and a time limit on every request's head and
    a limit on open connections."""

    max_connections = 500

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_bytes: int | None = 0  # None: the head is complete, the body is being read
        self._head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            self._hang_up(503)
            return
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._head_bytes is None or self._head_bytes + len(data) <= HEAD_MAX:
            if self._head_bytes is not None:
                self._head_bytes += len(data)
            super().data_received(data)
            return
        room = HEAD_MAX - self._head_bytes  # a head and a body may come in one read
        self._head_bytes = HEAD_MAX
        super().data_received(data[:room])
        if not self._head_done():
            self._hang_up(431)
        elif self.parser is not None and not self.transport.is_closing():
            super().data_received(data[room:])

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._head_bytes = self._head_bytes or 0
        if self._head_timer is None:
            self._arm()

    def on_headers_complete(self) -> None:
        self._head_bytes = None
        self._disarm()
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._head_bytes = 0  # the next request on this connection starts counting afresh

    def _head_done(self) -> bool:
        """Whether the parser has read the whole head of the request now being read."""
        return self._head_bytes is None

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(HEAD_SECONDS, self._head_too_slow)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if self._head_done():
            return
        if self._head_bytes:  # begun and unfinished
            self._hang_up(408)
        elif not self.transport.is_closing():  # connected and silent: closed without a word,
            self.transport.close()  # as a browser's idle preconnection expects

    def _hang_up(self, status: int) -> None:
        self._disarm()
        if not self.transport.is_closing():
            self.transport.write(_ANSWERS[status] + b"content-length: 0\r\n"
                                 b"connection: close\r\n\r\n")
            self.transport.close()


def server_config(app: Any, settings: Settings, host: str, port: int) -> uvicorn.Config:
    """How uvicorn serves ``app``: the guarded protocol, proxy headers only from trusted
    proxies, no access log."""

    class Protocol(GuardedHttp):
        max_connections = settings.max_connections

    trusted = list(settings.trusted_proxies)
    return uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False,
                          http=Protocol, lifespan="on", proxy_headers=bool(trusted),
                          forwarded_allow_ips=trusted or None,
                          timeout_keep_alive=int(KEEP_ALIVE_SECONDS))
