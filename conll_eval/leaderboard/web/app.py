"""The web app's factory: :func:`create_app` gives the Starlette application of a leaderboard
database (the JSON API of :mod:`.api`, the pages of :mod:`.views`), wrapped in the middleware
that puts the security headers on every response, errors included.

It never scores: uploads are queued, and workers (``leaderboard serve --workers K`` or
``leaderboard work``) score them."""
from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from typing import Optional

from sqlalchemy.engine import Engine
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ... import limits
from ..db import open_engine, require_current
from ..organisers import session_secret
from . import api, views
from .data import LeaderboardCache, TokenCache, WebError
from .headers import CSP, SECURITY_HEADERS, SecurityHeaders
from .sessions import SESSION_SECONDS, Sessions

__all__ = ["WebSettings", "create_app", "is_loopback", "CSP", "SECURITY_HEADERS"]

def is_loopback(host: str) -> bool:
    """Is ``host`` a loopback address (127.0.0.0/8, ::1) or ``localhost``?"""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class WebSettings:
    """The app's settings: the database, whether cookies are ``Secure`` (off only for plain
    http on loopback), the largest request body, how long a log-in lasts."""
    url: str
    secure_cookies: bool = True
    max_upload_bytes: int = field(default_factory=lambda: limits.MAX_UPLOAD_BYTES)
    session_seconds: int = SESSION_SECONDS


@dataclass
class WebState:
    """What every request handler reaches as ``request.app.state.web``."""
    settings: WebSettings
    engine: Engine
    sessions: Sessions
    cache: LeaderboardCache
    tokens: TokenCache


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/")


async def _web_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, WebError)
    if _wants_json(request):
        return api.error_response(exc)
    return views.error_page(request, exc)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = {404: "not-found", 405: "method-not-allowed"}.get(exc.status_code, "bad-request")
    return await _web_error(request, WebError(exc.status_code, code, "no such page or method"
                                              if exc.status_code in (404, 405) else "bad request"))


async def _internal_error(request: Request, exc: Exception) -> Response:
    return await _web_error(request, WebError(500, "internal", "the server failed on this request; "
                                                               "tell the organisers"))


def create_app(settings: WebSettings, engine: Optional[Engine] = None) -> SecurityHeaders:
    """The app serving ``settings.url``'s leaderboard (refused, as every command refuses it,
    when its schema is not the newest: :class:`~conll_eval.leaderboard.db.SchemaError`).
    The engine is made here unless given; its secret is made on the first start."""
    engine = engine or open_engine(settings.url)
    require_current(engine)
    secret = session_secret(engine)
    state = WebState(settings, engine, Sessions(secret, settings.secure_cookies, settings.session_seconds),
                     LeaderboardCache(engine), TokenCache(engine, secret))
    routes = [
        Route("/api/submissions", api.post_submission, methods=["POST"]),
        Route("/api/submissions/{id}", api.get_submission, methods=["GET"]),
        Route("/api/leaderboard", api.get_leaderboard, methods=["GET"]),
        *views.ROUTES,
    ]
    app = Starlette(routes=routes, exception_handlers={WebError: _web_error, HTTPException: _http_error,
                                                       Exception: _internal_error})
    app.state.web = state
    return SecurityHeaders(app)
