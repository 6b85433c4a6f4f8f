"""Reading a request's form with a cap on its body: the bytes are counted as they stream in and
the read stops at the cap (HTTP 413, ``upload-too-large``), so no body is held whole in memory;
an uploaded archive is spooled to a temporary file (Starlette's parser) and copied to a private
temporary directory, whose path :func:`.data.accept_upload` takes.

Forms without a file (log in, the organiser's buttons) get a small cap of their own."""
from __future__ import annotations

import os
import shutil
import tempfile
from typing import Callable, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException
from starlette.requests import Request

from .data import WebError

__all__ = ["read_form", "use_upload", "SMALL_FORM_BYTES"]

T = TypeVar("T")

#: the body of a form without a file
SMALL_FORM_BYTES = 64 << 10
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")


class _TooLarge(Exception):
    """The body went past the cap while it was read."""


def _too_large(cap: int) -> WebError:
    return WebError(413, "upload-too-large", f"the request is larger than {cap} bytes, the server's "
                                             "limit (CONLL_EVAL_MAX_UPLOAD_BYTES)")


async def read_form(request: Request, cap: int, files: int = 0) -> FormData:
    """The request's form (multipart or URL-encoded), its body capped at ``cap`` bytes (a
    ``Content-Length`` above it is refused before anything is read) and at ``files`` files;
    the caller closes it.  Raises :class:`WebError` (413 too large, 400 unreadable)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > cap:
        raise _too_large(cap)
    seen = 0
    receive = request.receive

    async def counted():
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > cap:
                raise _TooLarge()
        return message
    capped = Request(request.scope, counted)
    try:
        return await capped.form(max_files=files, max_fields=8, max_part_size=SMALL_FORM_BYTES)
    except _TooLarge:
        raise _too_large(cap) from None
    except (HTTPException, MultiPartException) as exc:
        raise WebError(400, "bad-form", f"the form cannot be read ({getattr(exc, 'detail', exc)})") from exc


def _copy(upload: UploadFile, directory: str) -> str:
    source = upload.file
    source.seek(0)
    head = source.read(4)
    source.seek(0)
    # the archive module tells the kind by its first bytes; the name's suffix only has to be one it takes
    path = os.path.join(directory, "upload.zip" if head in _ZIP_MAGIC else "upload.tar.gz")
    with open(path, "xb") as target:
        shutil.copyfileobj(source, target, 1 << 20)
    return path


def _saved_and_used(upload: UploadFile, use: Callable[[str], T]) -> T:
    directory = tempfile.mkdtemp(prefix="conll_eval-upload-")
    try:
        return use(_copy(upload, directory))
    finally:
        shutil.rmtree(directory, ignore_errors=True)


async def use_upload(form: FormData, field: str, use: Callable[[str], T]) -> T:
    """``use(path)`` in a worker thread, ``path`` the form's file ``field`` copied into a
    private temporary directory (removed after); 400 ``missing-field`` when the form has no
    such file."""
    upload = form.get(field)
    if not isinstance(upload, UploadFile):
        raise WebError(400, "missing-field", f"the form has no file field {field!r} (multipart/form-data: "
                                             "the archive of <treebank>.conllu files)")
    return await run_in_threadpool(_saved_and_used, upload, use)
