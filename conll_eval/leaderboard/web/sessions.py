"""The web app's sessions and CSRF tokens: a session is a cookie signed with HMAC-SHA256 under
the server's secret (kept in the database), naming a team, an organiser or an anonymous
visitor, and each form carries a CSRF token derived from that cookie.

Cookies are HttpOnly and SameSite=Strict, Secure unless the app serves plain http on a loopback
address; every comparison of a signature or a token is in constant time."""
from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass
from typing import Optional

from starlette.requests import Request
from starlette.responses import Response

__all__ = ["Session", "Sessions", "SESSION_SECONDS"]

#: how long a log-in lasts (seconds); logging out ends it sooner in that browser
SESSION_SECONDS = 12 * 3600
_KINDS = ("anonymous", "team", "organiser")
_LONGEST_COOKIE = 300


@dataclass(frozen=True)
class Session:
    """A verified session: ``kind`` (anonymous, team, organiser), the row's id (0 when
    anonymous) and the cookie's value (what its CSRF token derives from)."""
    kind: str
    subject: int
    value: str


class Sessions:
    """Issues and checks the session cookie and the CSRF tokens under ``secret``."""

    def __init__(self, secret: bytes, secure: bool, lifetime: int = SESSION_SECONDS):
        self.secret, self.secure, self.lifetime = secret, secure, lifetime
        # __Host-: the browser keeps it only from a secure origin, for the whole host, no Domain
        self.cookie = "__Host-session" if secure else "session"

    def _sign(self, purpose: str, payload: str) -> str:
        return hmac.new(self.secret, f"{purpose}|{payload}".encode(), hashlib.sha256).hexdigest()

    def issue(self, kind: str, subject: int) -> str:
        """A new session cookie value (a fresh nonce: a new log-in never reuses a CSRF token)."""
        payload = f"{kind}.{subject}.{int(time.time())}.{secrets.token_hex(16)}"
        return f"{payload}.{self._sign('session', payload)}"

    def read(self, request: Request) -> Optional[Session]:
        """The request's session when its cookie is well signed and not expired, else None."""
        value = request.cookies.get(self.cookie, "")
        parts = value.split(".")
        if len(value) > _LONGEST_COOKIE or len(parts) != 5:
            return None
        payload, signature = ".".join(parts[:4]), parts[4]
        if not hmac.compare_digest(signature.encode(), self._sign("session", payload).encode()):
            return None
        kind, subject, issued = parts[0], parts[1], parts[2]
        if kind not in _KINDS or not subject.isdigit() or not issued.isdigit():
            return None
        if not 0 <= time.time() - int(issued) < self.lifetime:
            return None
        return Session(kind, int(subject), value)

    def csrf(self, session: Session) -> str:
        """The CSRF token of ``session``'s forms."""
        return self._sign("csrf", session.value)

    def csrf_ok(self, session: Optional[Session], given: object) -> bool:
        """Is ``given`` the CSRF token of ``session``?  (No session: never.)"""
        if session is None or not isinstance(given, str):
            return False
        return hmac.compare_digest(given.encode("utf-8", "surrogateescape"), self.csrf(session).encode())

    def set(self, response: Response, value: str) -> None:
        response.set_cookie(self.cookie, value, max_age=self.lifetime, path="/", secure=self.secure,
                            httponly=True, samesite="strict")

    def clear(self, response: Response) -> None:
        response.delete_cookie(self.cookie, path="/", secure=self.secure, httponly=True, samesite="strict")
