"""The headers every response of the web app carries: the report's Content-Security-Policy
(no script, nothing fetched, forms posting only to the app, never framed), ``nosniff``, no
referrer, no caching; :class:`SecurityHeaders` is the ASGI middleware that sets them."""
from __future__ import annotations

from typing import Any

__all__ = ["CSP", "META_CSP", "SECURITY_HEADERS", "SecurityHeaders"]

#: the pages' policy: no script, nothing fetched, styles inline (the report's), forms post here
#: only, never framed
CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
#: the same policy in the pages' ``<meta>``, less ``frame-ancestors``: a ``<meta>`` cannot carry
#: it (browsers ignore it there and log a console error); the header and X-Frame-Options do
META_CSP = CSP.replace("; frame-ancestors 'none'", "")
#: on every response
SECURITY_HEADERS = (("content-security-policy", CSP), ("x-content-type-options", "nosniff"),
                    ("referrer-policy", "no-referrer"), ("x-frame-options", "DENY"),
                    ("cache-control", "no-store"))
_HEADER_NAMES = {name.encode() for name, _ in SECURITY_HEADERS}
_RAW_HEADERS = [(name.encode(), value.encode()) for name, value in SECURITY_HEADERS]


class SecurityHeaders:
    """ASGI middleware: the headers of :data:`SECURITY_HEADERS` on every HTTP response (a
    handler's own values of them are replaced)."""

    def __init__(self, app: Any):
        self.app = app

    @property
    def state(self):
        return self.app.state

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in _HEADER_NAMES]
                message = {**message, "headers": kept + _RAW_HEADERS}
            await send(message)
        await self.app(scope, receive, sending)
