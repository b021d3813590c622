"""The console's one secret: a random token, needed by every request.

``screenpilot console`` prints ``http://127.0.0.1:PORT/?token=...``. The first
request with the token in its query is answered with a redirect to the same path
without it, setting an HTTP-only, same-site-strict cookie for this port; the page's
own requests then carry the cookie, and scripts may send the ``X-Screenpilot-Token``
header instead. Anything else gets 403. A request that changes something and says
where it comes from (``Origin``) must come from the console's own page.
"""

from __future__ import annotations

import hmac
import secrets
from urllib.parse import urlencode

from starlette.datastructures import URL
from starlette.requests import HTTPConnection
from starlette.responses import PlainTextResponse, RedirectResponse
from starlette.types import ASGIApp, Receive, Scope, Send

HEADER = "x-screenpilot-token"
QUERY = "token"
SAFE_METHODS = frozenset({"GET", "HEAD"})


def new_token() -> str:
    return secrets.token_urlsafe(24)


def cookie_name(port: int) -> str:
    """Cookies are per host, not per port: each console names its own."""
    return f"screenpilot_console_{port}"


class TokenGate:
    """ASGI middleware: 403 for every request without the token."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.token = token

    def _ok(self, given: str | None) -> bool:
        return given is not None and hmac.compare_digest(given.encode(), self.token.encode())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":  # the console speaks none
            await send({"type": "websocket.close", "code": 1008})
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        conn = HTTPConnection(scope)
        port = conn.url.port or 80
        method = scope.get("method", "GET")
        if self._ok(conn.query_params.get(QUERY)) and method in SAFE_METHODS:
            rest = [(k, v) for k, v in conn.query_params.multi_items() if k != QUERY]
            target = URL(scope=scope).replace(query=urlencode(rest))
            response = RedirectResponse(
                f"{target.path}?{target.query}" if rest else target.path, status_code=303
            )
            response.set_cookie(
                cookie_name(port), self.token, httponly=True, samesite="strict", path="/"
            )
            await response(scope, receive, send)
            return
        given = conn.headers.get(HEADER) or conn.cookies.get(cookie_name(port))
        origin = conn.headers.get("origin")
        foreign = (
            method not in SAFE_METHODS
            and origin is not None
            and origin != f"{conn.url.scheme}://{conn.url.netloc}"
        )
        if not self._ok(given) or foreign:
            response_403 = PlainTextResponse(
                "forbidden: open the URL that `screenpilot console` printed (it carries the "
                "token)\n",
                status_code=403,
            )
            await response_403(scope, receive, send)
            return
        await self.app(scope, receive, send)
