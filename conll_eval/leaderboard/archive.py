"""Unpacks a team's submission (a .zip, a tar archive compressed with gzip, xz or bzip2 or not,
or a directory) into a fresh directory of its own, as the flat ``<treebank>.conllu`` files that
``suite`` pairs with the gold files.  Every member's name, type, size, expansion and first word
line is checked before or while it streams, and nothing is ever written outside that directory:
a hostile upload is a :class:`SubmissionRefused` with a stable code, and the directory is removed.

Never ``extractall``: each member's output name is its base name, checked, under the directory;
each is written by streaming with running counts (sizes in headers are never trusted), opened
with ``O_EXCL | O_NOFOLLOW``.  Links, devices, FIFOs and nested archives are refused, as are
names with ``..``, absolute or drive paths, backslashes, NUL or control characters, and
names that differ only in case.  The limits are in :mod:`conll_eval.limits`.
"""
from __future__ import annotations

import bz2
import gzip
import lzma
import os
import re
import shutil
import stat
import struct
import tarfile
import unicodedata
import zipfile
import zlib
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import BinaryIO, Callable, Dict, Generator, List, Optional, Tuple, Union

from .. import limits
from ..errors import InputError, Location, printable

__all__ = ["SubmissionRefused", "ArchiveLimits", "extract_submission", "HEADER_BYTES_PER_MEMBER"]

#: bytes of a tar stream a member's headers may take (pax and GNU long-name headers included):
#: real ones take 512 to a few kB; more is an ``archive-too-large`` refusal, so that a forged
#: header cannot make tarfile read a gigabyte into memory
HEADER_BYTES_PER_MEMBER = 64 << 10
#: bytes read and written at a time
_CHUNK = 1 << 20
#: how the first bytes of an archive (or of a member, for ``archive-nested``) look
_MAGIC = ((b"PK\x03\x04", "zip"), (b"PK\x05\x06", "zip"), (b"\x1f\x8b", "gzip"),
          (b"\xfd7zXZ\x00", "xz"), (b"BZh", "bzip2"), (b"7z\xbc\xaf\x27\x1c", "7z"),
          (b"Rar!", "rar"), (b"\x28\xb5\x2f\xfd", "zstd"))
_ARCHIVE_SUFFIXES = (".zip", ".tar", ".gz", ".tgz", ".xz", ".txz", ".bz2", ".tbz2", ".7z",
                     ".rar", ".zst", ".lz", ".lzma", ".z")
#: what archivers add beside the files and is skipped unread: macOS's resource forks and
#: Finder's folder settings
_JUNK = re.compile(r"(^|/)(__MACOSX(/|$)|\.DS_Store$)")


class SubmissionRefused(InputError):
    """An upload that is not unpacked: ``code`` says why (``archive-path-traversal``,
    ``archive-absolute-path``, ``archive-bad-name``, ``archive-duplicate-name``, ``archive-link``,
    ``archive-special-file``, ``archive-too-large``, ``archive-ratio``,
    ``archive-too-many-files``, ``archive-nested``, ``archive-not-conllu``, ``archive-layout``,
    ``archive-empty``, ``archive-unreadable``), the message names the member, spelt out."""


@dataclass(frozen=True)
class ArchiveLimits:
    """What one submission may unpack to (defaults: :mod:`conll_eval.limits`)."""

    max_bytes: int  # all files together ([archive-too-large])
    max_file_bytes: int  # one file ([archive-too-large])
    max_files: int  # members, folders included ([archive-too-many-files])
    max_ratio: int  # unpacked / archive bytes read ([archive-ratio]) ...
    ratio_check_from: int  # ... checked once this many bytes came out

    @classmethod
    def default(cls) -> "ArchiveLimits":
        return cls(limits.MAX_SUBMISSION_BYTES, limits.MAX_SUBMISSION_FILE_BYTES,
                   limits.MAX_SUBMISSION_FILES, limits.MAX_COMPRESSION_RATIO,
                   limits.RATIO_CHECK_FROM_BYTES)


@dataclass
class _Member:
    """One entry of an upload: its name as stored, its kind (file, dir, link, special) and,
    for a file, how to open its bytes."""

    name: str
    kind: str
    open: Optional[Callable[[], BinaryIO]] = None


class _Counted:
    """A binary file whose bytes read are counted (the archive's side of the ratio)."""

    def __init__(self, raw: BinaryIO):
        self.raw, self.count = raw, 0

    def read(self, size: int = -1) -> bytes:
        data = self.raw.read(size)
        self.count += len(data)
        return data

    def __getattr__(self, name: str):  # seek, tell, seekable, close: zipfile needs them
        return getattr(self.raw, name)


class _Extraction:
    """The state of one extraction: the archive, the limits, the running counts, the names
    written so far and the folder the files are in (``None`` before the first file, ``""``
    at the top)."""

    def __init__(self, path: Path, dest: Path, bounds: ArchiveLimits):
        self.path, self.dest, self.bounds = path, dest, bounds
        self.archive_read: Optional[_Counted] = None  # None: a directory, no ratio
        self.members = 0
        self.written = 0  # file bytes written, all files
        self.names: Dict[str, str] = {}  # casefolded output name -> member name
        self.folder: Optional[str] = None

    def refuse(self, code: str, message: str) -> SubmissionRefused:
        return SubmissionRefused(Location(str(self.path)), code, message)

    # -- names and kinds ----------------------------------------------------------------

    def take(self, member: _Member) -> Optional[str]:
        """The output name of ``member`` when it is a file to write, else None (a folder, a
        skipped file); refuses what may not be in a submission, before anything is written."""
        self.members += 1
        if self.members > self.bounds.max_files:
            raise self.refuse("archive-too-many-files",
                              f"more than {self.bounds.max_files:,} members, the limit; to allow "
                              f"more, raise CONLL_EVAL_MAX_SUBMISSION_FILES")
        parts = self._parts(member.name)
        shown = printable(member.name)
        if member.kind == "link":
            raise self.refuse("archive-link", f"{shown}: a link; send the files themselves")
        if member.kind == "special":
            raise self.refuse("archive-special-file",
                              f"{shown}: a device, FIFO or other special file")
        if _JUNK.search("/".join(parts)) or not parts:
            return None
        if member.kind == "dir":
            if len(parts) > 1:
                raise self._layout(shown)
            return None
        base = parts[-1]
        if base.lower().endswith(_ARCHIVE_SUFFIXES):
            raise self.refuse("archive-nested", f"{shown}: an archive inside the archive; "
                              f"send one archive of .conllu files")
        if not base.endswith(".conllu") or base.startswith(".") or len(base.encode()) > 255:
            raise self.refuse("archive-not-conllu",
                              f"{shown}: not a <treebank>.conllu file (only .conllu files, "
                              f"named as suite pairs them, may be in a submission)")
        folder = parts[0] if len(parts) == 2 else "" if len(parts) == 1 else None
        if folder is None or (self.folder is not None and folder != self.folder):
            raise self._layout(shown)
        self.folder = folder
        key = unicodedata.normalize("NFC", base).casefold()  # one file on macOS and Windows
        if key in self.names:
            raise self.refuse("archive-duplicate-name",
                              f"{shown}: the same file name as {printable(self.names[key])} "
                              f"(names may not differ only in case or Unicode normalisation)")
        self.names[key] = member.name
        return base

    def _parts(self, name: str) -> List[str]:
        shown = printable(name)
        if "\0" in name:
            raise self.refuse("archive-bad-name", f"{shown}: a NUL character in a name")
        if name.startswith(("/", "\\")) or re.match(r"[A-Za-z]:", name):
            raise self.refuse("archive-absolute-path", f"{shown}: an absolute path")
        parts = re.split(r"[/\\]", name)
        if ".." in parts:
            raise self.refuse("archive-path-traversal", f"{shown}: a path through '..'")
        if "\\" in name or printable(name) != name:
            raise self.refuse("archive-bad-name", f"{shown}: a name with backslashes or "
                              f"control characters")
        return [part for part in parts if part not in ("", ".")]

    def _layout(self, shown: str) -> SubmissionRefused:
        return self.refuse("archive-layout",
                           f"{shown}: a submission holds its <treebank>.conllu files at its "
                           f"top level or all in one folder, none deeper")

    # -- bytes --------------------------------------------------------------------------

    def write(self, member: _Member, base: str) -> None:
        """Streams ``member`` into ``dest/base``, counting; the path is checked first."""
        target = os.path.join(self.dest, base)
        if os.path.dirname(os.path.realpath(target)) != str(self.dest):  # never expected
            raise self.refuse("archive-path-traversal", f"{printable(member.name)}: "
                              f"would be written outside the submission's directory")
        assert member.open is not None
        shown, file_bytes = printable(member.name), 0
        first = _FirstLine(lambda message: self.refuse("archive-not-conllu",
                                                       f"{shown}: {message}"))
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | \
            getattr(os, "O_CLOEXEC", 0)
        with self._reading(shown, member.open) as source, \
                os.fdopen(os.open(target, flags, 0o644), "wb") as out:
            while True:
                chunk = self._read(shown, source)
                if not chunk:
                    break
                if file_bytes == 0:
                    self._not_nested(shown, chunk)
                if b"\0" in chunk:
                    raise self.refuse("archive-not-conllu",
                                      f"{shown}: binary data (a NUL byte), not CoNLL-U text")
                file_bytes += len(chunk)
                self.written += len(chunk)
                self.check_sizes(shown, file_bytes)
                first.feed(chunk)
                out.write(chunk)
        first.end()

    def _reading(self, shown: str, opener: Callable[[], BinaryIO]) -> BinaryIO:
        try:
            return opener()
        except SubmissionRefused:
            raise
        except _READ_ERRORS as exc:
            raise self.refuse("archive-unreadable", f"{shown}: cannot read: {_why(exc)}") \
                from exc

    def _read(self, shown: str, source: BinaryIO) -> bytes:
        try:
            return source.read(_CHUNK)
        except SubmissionRefused:  # a bound of the stream under it
            raise
        except _READ_ERRORS as exc:
            raise self.refuse("archive-unreadable", f"{shown}: cannot read: {_why(exc)}") \
                from exc

    def _not_nested(self, shown: str, head: bytes) -> None:
        kind = _magic(head)
        if kind is not None:
            raise self.refuse("archive-nested", f"{shown}: {kind} data, not CoNLL-U text "
                              f"(an archive inside the archive?)")

    def check_sizes(self, shown: str, file_bytes: int) -> None:
        bounds = self.bounds
        if file_bytes > bounds.max_file_bytes:
            raise self.refuse("archive-too-large",
                              f"{shown}: more than {bounds.max_file_bytes:,} bytes, the limit "
                              f"for one file; to allow more, raise "
                              f"CONLL_EVAL_MAX_SUBMISSION_FILE_BYTES")
        if self.written > bounds.max_bytes:
            raise self.refuse("archive-too-large",
                              f"{shown}: the files unpack to more than {bounds.max_bytes:,} "
                              f"bytes, the limit; to allow more, raise "
                              f"CONLL_EVAL_MAX_SUBMISSION_BYTES")
        if self.archive_read is not None:
            self.check_ratio(self.written, self.archive_read.count)

    def check_ratio(self, produced: int, consumed: int) -> None:
        bounds = self.bounds
        if produced >= bounds.ratio_check_from and produced > bounds.max_ratio * max(consumed, 1):
            raise self.refuse("archive-ratio",
                              f"the archive expands more than {bounds.max_ratio} times "
                              f"({consumed:,} bytes gave {produced:,} so far; CoNLL-U "
                              f"compresses about 5-12 times), the limit; to allow more, raise "
                              f"CONLL_EVAL_MAX_COMPRESSION_RATIO")


class _FirstLine:
    """Checks that the first line that is not a comment or blank has 10 tab-separated
    columns, reading no further than that line (at most MAX_LINE_BYTES of it kept).  Runs of
    blank and comment lines are skipped by one regular expression, never a line at a time in
    Python (a file of a million newlines costs what a million bytes cost)."""

    #: blank lines (spaces, tabs, CR only) and comment lines, as many as follow each other
    _SKIPPED = re.compile(rb"(?:[ \t\r]*\n|#[^\n]*\n)*+")

    def __init__(self, refuse: Callable[[str], SubmissionRefused]):
        self.refuse, self.pending, self.done = refuse, b"", False

    def feed(self, chunk: bytes) -> None:
        if self.done:
            return
        data = self.pending + chunk
        start = self._SKIPPED.match(data).end()  # type: ignore[union-attr]  # matches ""
        end = data.find(b"\n", start)
        if end >= 0:
            self._decide(data[start:end])
            return
        self.pending = data[start:]
        if len(self.pending) > limits.MAX_LINE_BYTES:
            raise self.refuse(f"a line longer than {limits.MAX_LINE_BYTES:,} bytes, not CoNLL-U")

    def end(self) -> None:
        line = self.pending.rstrip(b"\r")
        if not self.done and line.strip(b" \t") and not line.startswith(b"#"):
            self._decide(line)

    def _decide(self, line: bytes) -> None:
        self.done = True
        columns = line.rstrip(b"\r").count(b"\t") + 1
        if columns != 10:
            raise self.refuse(f"its first word line has {columns} tab-separated column"
                              f"{'s' if columns != 1 else ''}, not CoNLL-U's 10")


#: what reading a damaged archive raises, each an ``archive-unreadable`` refusal
_READ_ERRORS = (zipfile.BadZipFile, tarfile.TarError, zlib.error, lzma.LZMAError, EOFError,
                OSError, NotImplementedError, RuntimeError, ValueError, struct.error)


def _why(exc: BaseException) -> str:
    return printable(str(exc) or type(exc).__name__)


def _magic(head: bytes) -> Optional[str]:
    for magic, kind in _MAGIC:
        if head.startswith(magic):
            return kind
    return "tar" if head[257:262] == b"ustar" else None


# -- the kinds of upload ---------------------------------------------------------------------

def _zip_members(job: _Extraction, archive: BinaryIO) -> Generator[_Member, None, None]:
    counted = _Counted(archive)
    job.archive_read = counted
    entries, directory_bytes = _zip_directory_size(archive)
    if entries > job.bounds.max_files or directory_bytes > job.bounds.max_files * 1024 + 65536:
        raise job.refuse("archive-too-many-files",
                         f"a zip directory of {entries:,} members ({directory_bytes:,} bytes), "
                         f"more than the limit of {job.bounds.max_files:,}; to allow more, "
                         f"raise CONLL_EVAL_MAX_SUBMISSION_FILES")
    archive.seek(0)
    with zipfile.ZipFile(counted) as bundle:  # type: ignore[arg-type]  # reads the directory
        for info in bundle.infolist():
            if info.flag_bits & 0x1:
                raise job.refuse("archive-unreadable",
                                 f"{printable(info.orig_filename)}: encrypted")
            yield _Member(info.orig_filename, _zip_kind(info),
                          partial(bundle.open, info))  # type: ignore[arg-type]


def _zip_kind(info: zipfile.ZipInfo) -> str:
    mode = info.external_attr >> 16 if info.create_system == 3 else 0
    if stat.S_ISLNK(mode):
        return "link"
    if stat.S_ISDIR(mode) or info.orig_filename.endswith(("/", "\\")):
        return "dir"
    # no file-type bits (Python's zipfile writes permissions only): a file
    return "file" if stat.S_IFMT(mode) in (0, stat.S_IFREG) else "special"


def _zip_directory_size(archive: BinaryIO) -> Tuple[int, int]:
    """The members and bytes a zip's end record gives its central directory (zip64 too), read
    before zipfile reads that directory, so that a forged one is refused unread."""
    size = archive.seek(0, os.SEEK_END)
    archive.seek(max(0, size - (1 << 16) - 22))
    tail = archive.read()
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or len(tail) - at < 22:
        raise zipfile.BadZipFile("no end of central directory record")
    entries, directory_bytes = struct.unpack("<HL", tail[at + 10:at + 16])
    locator = tail.rfind(b"PK\x06\x07", 0, at)
    if locator >= 0 and (entries == 0xFFFF or directory_bytes == 0xFFFFFFFF):
        (record,) = struct.unpack("<Q", tail[locator + 8:locator + 16])
        archive.seek(record)
        zip64 = archive.read(56)
        if zip64[:4] != b"PK\x06\x06":
            raise zipfile.BadZipFile("no zip64 end of central directory record")
        entries, directory_bytes = struct.unpack("<QQ", zip64[32:48])
    return entries, directory_bytes


class _TarStream:
    """The bytes of a tar stream (decompressed), each read counted and checked: the archive's
    ratio, and no more than the files allowed plus HEADER_BYTES_PER_MEMBER a member, so that
    tarfile's reads of headers are bounded too."""

    def __init__(self, job: _Extraction, stream: BinaryIO, counted: _Counted):
        self.job, self.stream, self.counted, self.produced = job, stream, counted, 0

    def read(self, size: int = -1) -> bytes:
        job = self.job
        data = self.stream.read(size if size is not None and size >= 0 else _CHUNK)
        self.produced += len(data)
        # tarfile reads ahead of what it hands out by up to a chunk of ours
        if self.produced > job.written + _CHUNK + (job.members + 1) * HEADER_BYTES_PER_MEMBER:
            raise job.refuse("archive-too-large",
                             f"the tar headers of member {job.members + 1:,} take more than "
                             f"{HEADER_BYTES_PER_MEMBER:,} bytes, or data lies between members")
        job.check_ratio(self.produced, self.counted.count)
        return data


def _tar_members(job: _Extraction, archive: BinaryIO,
                 compression: str) -> Generator[_Member, None, None]:
    counted = _Counted(archive)
    stream: BinaryIO = {"gzip": lambda: gzip.GzipFile(fileobj=counted),  # type: ignore
                        "xz": lambda: lzma.LZMAFile(counted),  # type: ignore[arg-type]
                        "bzip2": lambda: bz2.BZ2File(counted),  # type: ignore[arg-type]
                        "tar": lambda: counted}[compression]()
    bounded = _TarStream(job, stream, counted)
    with tarfile.open(fileobj=bounded, mode="r|") as bundle:  # type: ignore[call-overload]
        for info in bundle:
            kind = ("file" if info.type in (tarfile.REGTYPE, tarfile.AREGTYPE) else
                    "dir" if info.isdir() else "link" if info.issym() or info.islnk() else
                    "special")
            opened: List[BinaryIO] = []
            yield _Member(info.name, kind, partial(_opened, opened, bundle, info))
            if kind == "file" and not opened:
                _drain(bundle, info, job)


def _opened(opened: List[BinaryIO], bundle: tarfile.TarFile, info: tarfile.TarInfo) -> BinaryIO:
    """The bytes of tar member ``info``, kept in ``opened`` (a member is read only once)."""
    stream = bundle.extractfile(info)
    if stream is None:
        raise tarfile.ReadError("a member without data")
    opened.append(stream)  # type: ignore[arg-type]
    return stream  # type: ignore[return-value]


def _drain(bundle: tarfile.TarFile, info: tarfile.TarInfo, job: _Extraction) -> None:
    """Reads a file member that was skipped (its bytes counted as written, so that the tar
    stream's bound holds: tarfile would otherwise skip it unseen)."""
    member = bundle.extractfile(info)
    if member is None:
        return
    while True:
        chunk = member.read(_CHUNK)
        if not chunk:
            return
        job.written += len(chunk)
        job.check_sizes(printable(info.name), 0)


def _directory_members(job: _Extraction, root: Path) -> Generator[_Member, None, None]:
    """A directory's entries, its folders' (one level down) too, never following a link."""
    def walk(folder: Path, prefix: str, depth: int) -> Generator[_Member, None, None]:
        with os.scandir(folder) as entries:
            for entry in sorted(entries, key=lambda entry: entry.name):
                name = prefix + entry.name
                if entry.is_symlink():
                    yield _Member(name, "link")
                elif entry.is_dir(follow_symlinks=False):
                    yield _Member(name + "/", "dir")
                    if depth == 0 and not _JUNK.search(name):
                        yield from walk(Path(entry.path), name + "/", 1)
                elif entry.is_file(follow_symlinks=False):
                    yield _Member(name, "file", partial(_open_regular, entry.path))
                else:
                    yield _Member(name, "special")
    return walk(root, "", 0)


def _open_regular(path: str) -> BinaryIO:
    """``path`` opened for reading, refusing a link swapped in since it was listed."""
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise OSError(f"not a regular file: {path}")
    return os.fdopen(descriptor, "rb")


# -- the entry point ---------------------------------------------------------------------------

def extract_submission(path: Union[str, os.PathLike], dest: Union[str, os.PathLike],
                       bounds: Optional[ArchiveLimits] = None) -> Path:
    """Unpacks the submission at ``path`` (a zip, a tar, gzip/xz/bzip2 compressed or not,
    recognised by its first bytes, or a directory) into ``dest`` and returns the directory
    holding its ``<treebank>.conllu`` files (``dest`` itself: files at an archive's top level
    or in its one folder are written flat).  ``dest`` must be a new or empty directory;
    nothing is written outside it.  A refused upload raises :class:`SubmissionRefused`, and
    ``dest`` is removed (emptied, when it existed before).  ``bounds`` defaults to
    :meth:`ArchiveLimits.default`."""
    source, target = Path(path), Path(dest)
    if source.is_dir() and os.path.realpath(target).startswith(os.path.join(os.path.realpath(source), "")):
        raise ValueError(f"{printable(str(target))}: the submission's directory is inside the upload")
    created = not target.exists()
    target.mkdir(parents=True, exist_ok=True)
    if any(target.iterdir()):
        raise ValueError(f"{printable(str(target))}: the submission's directory is not empty")
    job = _Extraction(source, Path(os.path.realpath(target)), bounds or ArchiveLimits.default())
    try:
        _extract(job)
    except BaseException:
        _clean(target, created)
        raise
    return target


def _extract(job: _Extraction) -> None:
    if job.path.is_dir():
        members: Generator[_Member, None, None] = _directory_members(job, job.path)
        _unpack(job, members)
        return
    try:
        archive = open(job.path, "rb")
    except OSError as exc:
        raise job.refuse("archive-unreadable", f"cannot open: {_why(exc)}") from exc
    with archive:
        head = archive.read(512)
        kind = _magic(head)
        archive.seek(0)
        if kind == "zip":
            members = _zip_members(job, archive)
        elif kind in ("gzip", "xz", "bzip2", "tar"):
            members = _tar_members(job, archive, kind)
        else:
            raise job.refuse("archive-unreadable", "not a .zip or .tar archive (gzip, xz or "
                             "bzip2 compressed or not), nor a directory")
        _unpack(job, members)


def _unpack(job: _Extraction, members: Generator[_Member, None, None]) -> None:
    """Takes and writes each member; the archive's reader is closed however this ends."""
    try:
        while True:
            try:
                member = next(members, None)
            except SubmissionRefused:
                raise
            except _READ_ERRORS as exc:  # reading the archive's directory or its next header
                raise job.refuse("archive-unreadable", f"cannot read: {_why(exc)}") from exc
            if member is None:
                break
            base = job.take(member)
            if base is not None:
                job.write(member, base)
    finally:
        members.close()
    if not job.names:
        raise job.refuse("archive-empty", "no <treebank>.conllu file in the submission")


def _clean(target: Path, created: bool) -> None:
    if created:
        shutil.rmtree(target, ignore_errors=True)
        return
    for entry in target.iterdir():
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)
