"""Team tokens: a new token (shown once), its salted scrypt hash (what the database keeps),
and the check of a token against that hash in constant time."""
from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Tuple

__all__ = ["new_token", "token_hash", "token_matches", "token_hint", "SALT_BYTES"]

SALT_BYTES = 16
#: scrypt's cost (RFC 7914's interactive setting: about 16 MiB and a few tens of ms a check)
_SCRYPT = {"n": 2 ** 14, "r": 8, "p": 1, "dklen": 32, "maxmem": 64 * 1024 * 1024}


def new_token() -> Tuple[str, bytes, bytes]:
    """A fresh token (URL-safe, 256 bits), a fresh salt and the token's hash under it."""
    token = secrets.token_urlsafe(32)
    salt = secrets.token_bytes(SALT_BYTES)
    return token, salt, token_hash(token, salt)


def token_hash(token: str, salt: bytes) -> bytes:
    """scrypt of the token under ``salt``."""
    return hashlib.scrypt(token.encode("utf-8", "surrogateescape"), salt=salt, **_SCRYPT)


def token_matches(token: str, salt: bytes, expected: bytes) -> bool:
    """Is ``token`` the one hashed to ``expected``?  Compared in constant time."""
    return hmac.compare_digest(token_hash(token, salt), expected)


def token_hint(token: str) -> str:
    """The first 16 hex digits of the token's SHA-256: kept beside the hash, it finds the one
    row whose scrypt hash to check (a token is 256 random bits, so 64 of them tell nothing
    usable about it)."""
    return hashlib.sha256(token.encode("utf-8", "surrogateescape")).hexdigest()[:16]
