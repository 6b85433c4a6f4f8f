"""``conll_eval leaderboard serve``'s web app: a Starlette application where teams log in with
their token, upload and follow their submissions, and organisers freeze, hide and rescore.
Needs the leaderboard extra (Starlette, uvicorn, python-multipart); nothing else imports it."""
from .app import WebSettings, create_app, is_loopback

__all__ = ["WebSettings", "create_app", "is_loopback"]
