"""Output files: written atomically, never over an input, never through a link out of place.

The rule (issue 40): no output ever replaces a file the command read, and no output follows a
symbolic link that is already where it goes.

- An output that is the same file as an input (compared by identity: the same device and
  inode, so a symbolic link to the input or a hard link of it is the input too) is refused
  with a usage error (``error [usage] refusing to write the output into the input file X``,
  exit 2) before anything is written.  The inputs are every file the command read: gold and
  system files, the files of the directories it paired, ``-w`` weights, ``--pairs`` lists,
  ``metadata.json``, MaltEval's ``-e`` evaluation files and tag lists, mooteval's rc files.
- A file is written to a temporary file beside it and renamed over its name, so a reader
  never sees half of it and a failed write leaves the old one.  The rename replaces a
  symbolic link at that name by the new file: the link's target is never written.
- ``-o FILE`` may still name a stream: a descriptor (``/dev/stdout``, ``/dev/fd/3``), or a
  path that is (or links to) a terminal, ``/dev/null`` or a pipe is written directly.
  Files written into a directory under names of our choosing (``man -o DIR``, ``analyze
  --output DIR``, ``suite --tira DIR``) never are: whatever is at the name, a link to a
  device included, is replaced.
"""
from __future__ import annotations

import errno
import os
import re
import stat
from typing import Iterable, Optional

from ..errors import UsageError

__all__ = ["OutputFailed", "os_reason", "write_atomically", "input_named", "refuse_inputs"]


class OutputFailed(Exception):
    """The results could not be written to ``target`` (what the user named: a path or stdout)."""

    def __init__(self, target: str, reason: str):
        self.target = target
        self.reason = reason
        super().__init__(f"cannot write {target}: {reason}")

    def message(self) -> str:
        return f"conll_eval: error [write-failed] cannot write the results to {self.target}: " \
               f"{self.reason}\n"


def os_reason(exc: OSError) -> str:
    """``No such file or directory`` for an OSError, without errno or file name."""
    return exc.strerror or str(exc)


def _identity(path: str) -> Optional[os.stat_result]:
    try:
        return os.stat(path)  # follows links: a link to an input is that input
    except (OSError, ValueError):  # ValueError: a NUL in the name
        return None


def input_named(path: str, inputs: Iterable[str]) -> Optional[str]:
    """The first of ``inputs`` that is the file ``path`` names (the same device and inode:
    through symbolic links, hard links and other spellings of its path), or None.  ``-``
    (stdin) is no file; a terminal or ``/dev/null`` read and written is no clash."""
    output = _identity(path)
    if output is None or stat.S_ISCHR(output.st_mode):
        return None
    for name in inputs:
        if not name or name == "-":
            continue
        found = _identity(name)
        if found is not None and not stat.S_ISDIR(found.st_mode) \
                and (found.st_dev, found.st_ino) == (output.st_dev, output.st_ino):
            return name
    return None


def refuse_inputs(path: str, inputs: Iterable[str]) -> None:
    """Raise the usage error of an output ``path`` that is one of ``inputs`` (see
    :func:`input_named`): ``refusing to write the output into the input file w.txt``, and
    ``(out.txt is the same file)`` when the output was named otherwise (a link)."""
    name = input_named(path, inputs)
    if name is not None:
        same = "" if name == path else f" ({path} is the same file)"
        raise UsageError(f"refusing to write the output into the input file {name}{same}")


#: a path that names an open descriptor of this process: written directly whatever it is
_DESCRIPTOR = re.compile(r"/(?:dev|proc/(?:self|thread-self|\d+))/fd/\d+|/dev/std(?:out|err)")
#: how many links :func:`_names_descriptor` follows (Linux's own limit is 40)
_MAX_LINKS = 40


def _names_descriptor(path: str) -> bool:
    """Whether ``path`` is, or links (possibly through other links) to, a descriptor path
    (``/dev/stdout`` -> ``/proc/self/fd/1``): the stream the caller redirected, which may be
    a regular file (``-o /dev/stdout > file``) that only the descriptor reaches."""
    current = os.path.abspath(path)
    for _ in range(_MAX_LINKS):
        if _DESCRIPTOR.fullmatch(current):
            return True
        try:
            link = os.readlink(current)
        except (OSError, ValueError):
            return False
        current = os.path.normpath(os.path.join(os.path.dirname(current), link))
    return False


def _is_stream(mode: int) -> bool:
    """A terminal or other character device (``/dev/null``), a pipe or a socket."""
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def write_atomically(path: str, text: str, inputs: Iterable[str], errors: str = "strict",
                     chosen_name: bool = False) -> None:
    """Write ``text`` to ``path`` via a temporary file beside it renamed over its name (a
    reader never sees half a report; a failed write leaves the old file; a symbolic link at
    the name is replaced, its target never written).  The file gets the mode an ordinary
    ``open`` would give it (an existing regular file's mode, else 0666 less the umask).

    ``inputs`` are the files the command read: ``path`` naming any of them (by identity, see
    :func:`input_named`) raises :class:`UsageError` and nothing is written.  A stream
    (``/dev/stdout``, a terminal, ``/dev/null``, a FIFO, also behind links) is written
    directly, unless ``chosen_name``: the name is one the command chose inside a directory
    the user gave (``man -o DIR``), where whatever is at the name is replaced.  Raises
    :class:`OutputFailed` naming ``path`` as given (never the temporary file) when it cannot
    be written.  ``errors="surrogateescape"`` writes back the undecodable bytes of text read
    that way."""
    refuse_inputs(path, inputs)
    directory = os.path.dirname(path) or "."
    if not os.path.isdir(directory):
        raise OutputFailed(path, f"the directory {os.path.dirname(path) or '.'} does not exist")
    try:
        if not chosen_name and _stream_target(path):
            with open(path, "w", encoding="utf-8", errors=errors) as handle:
                handle.write(text)
        else:
            _replace_file(path, directory, text, errors)
    except OSError as exc:
        raise OutputFailed(path, os_reason(exc)) from exc


def _stream_target(path: str) -> bool:
    """Whether ``-o path`` means a stream to write directly rather than a file to replace:
    a descriptor path, a link to a stream, or a name that is neither a file, a directory nor
    a link (a device node, a FIFO)."""
    if _names_descriptor(path):
        return True
    try:
        own = os.lstat(path)
    except (OSError, ValueError):
        return False
    if stat.S_ISLNK(own.st_mode):
        target = _identity(path)
        return target is not None and _is_stream(target.st_mode)
    return not (stat.S_ISREG(own.st_mode) or stat.S_ISDIR(own.st_mode))


def _replace_file(path: str, directory: str, text: str, errors: str) -> None:
    try:
        existing = os.lstat(path)  # the name itself: a link is replaced, never followed
    except OSError:
        existing = None
    if existing is not None and stat.S_ISREG(existing.st_mode):
        mode = stat.S_IMODE(existing.st_mode)
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    import tempfile  # here: ~3 ms of start-up that printing to stdout does not need

    try:
        fd, tmp = tempfile.mkstemp(prefix=".conll_eval-", dir=directory)
    except OSError as exc:  # its own error names the temporary file: say why in the user's words
        raise OutputFailed(path, _no_file_made(path, directory, existing, exc)) from exc
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8", errors=errors) as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _no_file_made(path: str, directory: str, existing: Optional[os.stat_result],
                  exc: OSError) -> str:
    """Why ``path`` cannot be written when no file can be created in ``directory`` (the
    temporary file the output is renamed from): ``it is not writable, and no file can
    be created in /proc to replace it (its file system takes no new files)``.  ``/proc``
    answers ENOENT for a directory that is there, whose ``No such file or directory`` would
    send the user looking for a missing path."""
    if exc.errno == errno.ENOENT and os.path.isdir(directory):
        why = "its file system takes no new files"
    elif exc.errno in (errno.EACCES, errno.EPERM):
        why = "the directory does not allow creating files: " + os_reason(exc)
    else:
        why = os_reason(exc)
    place = "the current directory" if directory == "." else directory
    if existing is None:
        return f"no file can be created in {place} ({why})"
    not_writable = not existing.st_mode & 0o222 or not os.access(path, os.W_OK)
    state = "it is not writable, and " if not_writable else ""
    return f"{state}no file can be created in {place} to replace it ({why})"
