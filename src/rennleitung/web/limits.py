"""What a request may send and what every answer carries, checked before a handler runs.

A plain ASGI middleware (``Guard``) in front of everything else:

- a body is refused before it is read when it is multipart (no form here takes a file, and
  Starlette would spool the parts to temporary files before the CSRF check), larger than its
  route allows by ``Content-Length``, or grows past that while it streams in (413); a body that
  does not arrive within ``BODY_SECONDS`` is cut off (408);
- every answer carries the security headers (``SECURITY_HEADERS``): a content security policy
  that lets a page run only the scripts served from here (htmx and ``app.js``), load nothing
  from elsewhere and be framed by nobody, ``nosniff`` and a referrer policy that sends no
  address (sign-in links carry their token in the path) to another site.

The head of a request (request line and headers) is limited earlier, by the protocol
(``web/wire.py``). The table of all limits is in ``docs/web.md``.
"""

from __future__ import annotations

import asyncio
import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

BODY_MAX = 64 * 1024
"""Bytes a form may send: the largest form (a driver's pit plan, a league race's drivers) is a
few hundred bytes; a pasted league table, the largest text taken, fits in the league's limit."""
BODY_LIMITS: tuple[tuple[re.Pattern[str], int], ...] = (
    (re.compile(r"^/league(/|$)"), 1024 * 1024),  # results and qualifying tables pasted in
)
"""Routes that take more than ``BODY_MAX``: first match wins."""
BODY_SECONDS = 30.0
"""A body must have arrived this long after its request began (a slow sender holds a thread)."""

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),  # for browsers older than frame-ancestors
)


def body_limit(path: str) -> int:
    """The most bytes a request to ``path`` may send."""
    return next((most for pattern, most in BODY_LIMITS if pattern.match(path)), BODY_MAX)


class TooLarge(Exception):
    """The body grew past its route's limit while it was read."""


class TooSlow(Exception):
    """The body did not arrive in time."""


REFUSALS = {
    413: b"request body too large / Anfrage zu gross",
    408: b"request body too slow / Anfrage zu langsam",
    415: b"no file uploads here / hier werden keine Dateien angenommen",
}


class Guard:
    """Body limits before the body is read, and the security headers on every answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_guarded(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message["headers"] = [*message.get("headers", ()), *SECURITY_HEADERS]
            await send(message)

        most = body_limit(scope["path"])
        status = _refused_before_reading(scope["headers"], most)
        if status:
            await _refuse(send_guarded, status)
            return
        try:
            await self.app(scope, _limited(receive, most), send_guarded)
        except (TooLarge, TooSlow) as error:
            if started:
                raise
            await _refuse(send_guarded, 413 if isinstance(error, TooLarge) else 408)


def _refused_before_reading(headers: list[tuple[bytes, bytes]], most: int) -> int:
    """415 for a multipart body, 413 for one declared larger than ``most``, else 0."""
    for name, value in headers:
        if name == b"content-type" and value.lower().lstrip().startswith(b"multipart/"):
            return 415
        if name == b"content-length":
            try:
                if int(value) > most:
                    return 413
            except ValueError:
                return 413  # uvicorn refuses such a head before; never read a body we cannot size
    return 0


def _limited(receive: Receive, most: int) -> Receive:
    """``receive`` that counts the body and gives up on a slow one; once the body is complete
    it passes through untouched (a stream listens on it for the disconnect)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + BODY_SECONDS
    seen = 0
    complete = False

    async def guarded() -> Message:
        nonlocal seen, complete
        if complete:
            return await receive()
        try:
            message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
        except TimeoutError:
            raise TooSlow from None
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > most:
                raise TooLarge
            complete = not message.get("more_body", False)
        return message

    return guarded


async def _refuse(send: Send, status: int) -> None:
    body = REFUSALS[status]
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})
