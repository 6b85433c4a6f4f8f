"""Hostile uploads to the leaderboard (issue 42, section 2, Safety): conll_eval.leaderboard.archive
refuses each with its code, writes nothing outside the submission's directory, and removes that
directory; good archives unpack to flat <treebank>.conllu files.  Every archive is built here, in
tmp_path, at test time."""
import gzip
import io
import os
import stat
import subprocess
import sys
import tarfile
import zipfile
from contextlib import nullcontext
from pathlib import Path

import pytest

from conll_eval.errors import ConllEvalError, InputError
from conll_eval.leaderboard.archive import ArchiveLimits, SubmissionRefused, extract_submission

GOOD = b"# sent_id = 1\n1\tHi\thi\tINTJ\t_\t_\t0\troot\t_\t_\n\n"
OTHER = b"# sent_id = 2\r\n\r\n1\tYo\tyo\tINTJ\t_\t_\t0\troot\t_\t_\r\n\r\n"
TAR_KINDS = ("tar", "tar.gz", "tar.xz", "tar.bz2")


# -- builders -----------------------------------------------------------------------------------

def build_zip(path: Path, entries) -> Path:
    """A zip of ``(name, bytes)`` files, ``(name, ("link", target))`` symlinks,
    ``(name, ("mode", st_mode))`` empty entries of that file type."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as bundle:
        for name, data in entries:
            info = zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_DEFLATED
            if isinstance(data, tuple):
                kind, value = data
                info.create_system = 3
                mode = (stat.S_IFLNK | 0o777) if kind == "link" else value
                info.external_attr = mode << 16
                data = value.encode() if kind == "link" else b""
            bundle.writestr(info, data)
    return path


def build_tar(path: Path, entries, kind: str = "tar") -> Path:
    """A tar (compressed as ``kind`` says) of ``(name, bytes)`` files and ``(name, (type,
    linkname))`` entries of a tarfile type (SYMTYPE, LNKTYPE, CHRTYPE, FIFOTYPE, DIRTYPE)."""
    mode = {"tar": "w", "tar.gz": "w:gz", "tar.xz": "w:xz", "tar.bz2": "w:bz2"}[kind]
    with tarfile.open(path, mode, format=tarfile.PAX_FORMAT) as bundle:
        for name, data in entries:
            info = tarfile.TarInfo(name)
            if isinstance(data, tuple):
                info.type, info.linkname = data
                bundle.addfile(info)
            else:
                info.size = len(data)
                bundle.addfile(info, io.BytesIO(data))
    return path


def build(tmp_path: Path, kind: str, entries) -> Path:
    upload = tmp_path / "up"
    upload.mkdir(exist_ok=True)
    if kind == "zip":
        return build_zip(upload / "s.zip", entries)
    return build_tar(upload / f"s.{kind}", entries, kind)


def tree(root: Path) -> set:
    """Every path under ``root`` (links not followed)."""
    found = set()
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            found.add(os.path.relpath(os.path.join(folder, name), root))
    return found


def refused(tmp_path: Path, upload: Path, code: str, bounds=None) -> SubmissionRefused:
    """Unpacks ``upload`` into a new directory, expecting refusal ``code``; checks that
    nothing appeared outside that directory and that the directory is gone."""
    dest = tmp_path / "subs" / "dest"
    before = tree(tmp_path)
    with pytest.raises(SubmissionRefused) as caught:
        extract_submission(upload, dest, bounds)
    assert caught.value.code == code, str(caught.value)
    assert not dest.exists()
    assert tree(tmp_path) == before | {"subs"}
    return caught.value


def small(**changes) -> ArchiveLimits:
    fields = dict(max_bytes=1 << 30, max_file_bytes=512 << 20, max_files=1000, max_ratio=100,
                  ratio_check_from=16 << 20)
    fields.update(changes)
    return ArchiveLimits(**fields)


# -- names ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ("zip",) + TAR_KINDS)
def test_path_traversal_is_refused(tmp_path, kind):
    upload = build(tmp_path, kind, [("en.conllu", GOOD), ("../../x.conllu", GOOD)])
    error = refused(tmp_path, upload, "archive-path-traversal")
    assert "../../x.conllu" in error.message
    assert isinstance(error, InputError) and isinstance(error, ConllEvalError)


@pytest.mark.parametrize("kind", ("zip", "tar"))
@pytest.mark.parametrize("name", ["/etc/passwd", "{tmp}/abs.conllu", "C:/x.conllu", "\\x.conllu"])
def test_absolute_path_is_refused(tmp_path, kind, name):
    name = name.format(tmp=tmp_path)
    upload = build(tmp_path, kind, [(name, GOOD)])
    refused(tmp_path, upload, "archive-absolute-path")
    assert not (tmp_path / "abs.conllu").exists()


@pytest.mark.parametrize("name, code", [("..\\..\\x.conllu", "archive-path-traversal"),
                                        ("F\\en.conllu", "archive-bad-name"),
                                        ("en\x1b[31m.conllu", "archive-bad-name")])
def test_windows_and_control_names_are_refused(tmp_path, name, code):
    upload = build(tmp_path, "zip", [(name, GOOD)])
    error = refused(tmp_path, upload, code)
    assert "\x1b" not in str(error) and "\x1b" not in error.message


def test_nul_in_a_zip_name_is_refused(tmp_path):
    upload = build(tmp_path, "zip", [("enXsecret.conllu", GOOD)])
    upload.write_bytes(upload.read_bytes().replace(b"enXsecret", b"en\0secret"))
    error = refused(tmp_path, upload, "archive-bad-name")
    assert "\\x00" in error.message


@pytest.mark.parametrize("kind", ("zip", "tar.gz"))
@pytest.mark.parametrize("names", [("en.conllu", "en.conllu"), ("en.conllu", "EN.conllu"),
                                   ("F/en.conllu", "F/En.conllu"),
                                   ("F/caf\u00e9.conllu", "F/cafe\u0301.conllu")])
def test_duplicate_names_are_refused(tmp_path, kind, names):
    with pytest.warns(UserWarning) if kind == "zip" and names[0] == names[1] else nullcontext():
        upload = build(tmp_path, kind, [(name, GOOD) for name in names])
    refused(tmp_path, upload, "archive-duplicate-name")


# -- kinds of member -----------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ("zip", "tar", "tar.gz"))
def test_symlink_and_a_file_through_it_are_refused(tmp_path, kind):
    link = ("link", "/etc") if kind == "zip" else (tarfile.SYMTYPE, "/etc")
    upload = build(tmp_path, kind, [("etc", link), ("etc/passwd.conllu", GOOD)])
    error = refused(tmp_path, upload, "archive-link")
    assert "etc" in error.message


@pytest.mark.parametrize("kind", ("zip", "tar"))
def test_symlink_named_conllu_is_refused(tmp_path, kind):
    link = ("link", "/etc/passwd") if kind == "zip" else (tarfile.SYMTYPE, "/etc/passwd")
    refused(tmp_path, build(tmp_path, kind, [("en.conllu", link)]), "archive-link")


def test_hardlink_is_refused(tmp_path):
    upload = build(tmp_path, "tar", [("en.conllu", GOOD), ("fr.conllu", (tarfile.LNKTYPE, "/etc/passwd"))])
    refused(tmp_path, upload, "archive-link")


@pytest.mark.parametrize("type_", [tarfile.CHRTYPE, tarfile.BLKTYPE, tarfile.FIFOTYPE])
def test_device_and_fifo_in_a_tar_are_refused(tmp_path, type_):
    upload = build(tmp_path, "tar", [("en.conllu", (type_, ""))])
    refused(tmp_path, upload, "archive-special-file")


def test_fifo_in_a_zip_is_refused(tmp_path):
    upload = build(tmp_path, "zip", [("en.conllu", ("mode", stat.S_IFIFO | 0o644))])
    refused(tmp_path, upload, "archive-special-file")


# -- sizes ---------------------------------------------------------------------------------------

def _zeros_zip(path: Path, megabytes: int) -> Path:
    """A zip of one .conllu of ``megabytes`` MB of blank lines, written a MB at a time (~1 KB/MB)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as bundle:
        with bundle.open("en.conllu", "w") as member:
            block = b"\n" * (1 << 20)
            for _ in range(megabytes):
                member.write(block)
    return path


def test_zip_bomb_is_refused_by_its_ratio_while_it_streams(tmp_path):
    (tmp_path / "up").mkdir()
    upload = _zeros_zip(tmp_path / "up" / "bomb.zip", 200)
    assert upload.stat().st_size < 400_000
    error = refused(tmp_path, upload, "archive-ratio", small(ratio_check_from=1 << 20))
    assert "CONLL_EVAL_MAX_COMPRESSION_RATIO" in error.message


def test_zip_bomb_is_refused_by_its_size_when_the_ratio_is_allowed(tmp_path):
    (tmp_path / "up").mkdir()
    upload = _zeros_zip(tmp_path / "up" / "bomb.zip", 20)
    error = refused(tmp_path, upload, "archive-too-large",
                    small(max_ratio=10 ** 6, max_file_bytes=4 << 20))
    assert "CONLL_EVAL_MAX_SUBMISSION_FILE_BYTES" in error.message


def test_gzip_tar_bomb_is_refused_by_its_ratio(tmp_path):
    upload = tmp_path / "up" / "bomb.tgz"
    upload.parent.mkdir()
    with tarfile.open(upload, "w:gz") as bundle:
        info = tarfile.TarInfo("en.conllu")
        info.size = 50 << 20
        bundle.addfile(info, io.BytesIO(b"\n" * info.size))
    refused(tmp_path, upload, "archive-ratio", small(ratio_check_from=1 << 20))


def test_total_size_over_many_files_is_refused(tmp_path):
    files = [(f"t{n}.conllu", GOOD * 2000) for n in range(5)]  # 80 kB each
    upload = build(tmp_path, "tar.gz", files)
    error = refused(tmp_path, upload, "archive-too-large", small(max_bytes=200_000, max_ratio=10 ** 6))
    assert "CONLL_EVAL_MAX_SUBMISSION_BYTES" in error.message


def test_a_forged_tar_header_is_not_read_into_memory(tmp_path):
    upload = tmp_path / "up" / "pax.tar"
    upload.parent.mkdir()
    with tarfile.open(upload, "w", format=tarfile.PAX_FORMAT) as bundle:
        info = tarfile.TarInfo("en.conllu")
        info.pax_headers = {"comment": "x" * (3 << 20)}
        info.size = len(GOOD)
        bundle.addfile(info, io.BytesIO(GOOD))
    refused(tmp_path, upload, "archive-too-large")


@pytest.mark.parametrize("kind", ("zip", "tar.gz"))
def test_ten_thousand_members_are_refused(tmp_path, kind):
    upload = build(tmp_path, kind, [(f"t{n}.conllu", GOOD) for n in range(10_000)])
    error = refused(tmp_path, upload, "archive-too-many-files")
    assert "1,000" in error.message
    if kind == "zip":  # refused from its end record, before zipfile reads 10,000 entries
        assert "a zip directory of 10,000 members" in error.message


def test_member_limit_counts_folders(tmp_path):
    entries = [("F", (tarfile.DIRTYPE, "")), ("F/a.conllu", GOOD), ("F/b.conllu", GOOD)]
    refused(tmp_path, build(tmp_path, "tar", entries), "archive-too-many-files", small(max_files=2))


# -- content -------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ("zip", "tar.gz"))
def test_nested_archive_is_refused_by_name_and_by_content(tmp_path, kind):
    inner = build_zip(tmp_path / "inner.zip", [("en.conllu", GOOD)]).read_bytes()
    for name in ("inner.zip", "en.conllu.gz", "en.conllu"):
        upload = build(tmp_path, kind, [(name, inner)])
        error = refused(tmp_path, upload, "archive-nested")
        assert name in error.message
        upload.unlink()


@pytest.mark.parametrize("name, data, words", [
    ("en.conllu", b"1\tHi\x00\x00\x01binary", "binary"),
    ("notes.txt", GOOD, "not a <treebank>.conllu"),
    ("en.conllu", b"# a comment\nhello world\n", "1 tab-separated column,"),
    ("en.conllu", b"1\ta\tb\n", "3 tab-separated columns"),
    ("en.conllu", b"#" * 5000 + b"x" * 100, "longer than 1,000"),
])
def test_content_that_is_not_conllu_is_refused_with_the_member_name(tmp_path, monkeypatch, name, data,
                                                                    words):
    monkeypatch.setattr("conll_eval.limits.MAX_LINE_BYTES", 1000)
    upload = build(tmp_path, "zip", [("ok.conllu", GOOD), (name, data)])
    error = refused(tmp_path, upload, "archive-not-conllu")
    assert name in error.message and words in error.message, error.message


@pytest.mark.parametrize("line, accepted", [(b"1\tHi\thi\tINTJ\t_\t_\t0\troot\t_\t_\r\n", True),
                                           (b"1\tHi\thi\tINTJ\t_\t_\t0\troot\n", False)])
def test_the_first_word_line_is_found_past_megabytes_of_comments_and_blank_lines(tmp_path, line,
                                                                               accepted):
    # comment and blank lines over several of the unpacker's 1 MiB reads, one cut by a read
    head = (b"# " + b"c" * 997 + b"\n" + b" \t\r\n" * 3) * 3000
    upload = build(tmp_path, "tar", [("en.conllu", head + line + GOOD)])
    if accepted:
        dest = extract_submission(upload, tmp_path / "dest")
        assert (dest / "en.conllu").read_bytes() == head + line + GOOD
    else:
        assert "8 tab-separated columns" in refused(tmp_path, upload, "archive-not-conllu").message


@pytest.mark.parametrize("entries", [[("F/G/en.conllu", GOOD)],
                                     [("en.conllu", GOOD), ("F/fr.conllu", GOOD)],
                                     [("F/en.conllu", GOOD), ("G/fr.conllu", GOOD)]])
def test_files_deeper_than_one_folder_or_in_two_places_are_refused(tmp_path, entries):
    refused(tmp_path, build(tmp_path, "zip", entries), "archive-layout")


@pytest.mark.parametrize("make", [
    lambda path: path.write_bytes(b"just some text\n"),
    lambda path: path.write_bytes(build_zip(path.with_suffix(".z2"), [("en.conllu", GOOD)])
                                  .read_bytes()[:60]),
    lambda path: path.write_bytes(b"\x1f\x8b" + b"not gzip at all" * 10),
])
def test_unreadable_uploads_are_refused(tmp_path, make):
    upload = tmp_path / "up" / "s.zip"
    upload.parent.mkdir()
    make(upload)
    refused(tmp_path, upload, "archive-unreadable")


def test_gzip_of_a_conllu_file_is_not_a_tar(tmp_path):
    upload = tmp_path / "up" / "en.conllu.gz"
    upload.parent.mkdir()
    upload.write_bytes(gzip.compress(GOOD))
    refused(tmp_path, upload, "archive-unreadable")


def test_an_archive_without_conllu_files_is_refused(tmp_path):
    refused(tmp_path, build(tmp_path, "zip", [("__MACOSX/._en.conllu", b"\0\0")]), "archive-empty")


# -- directories --------------------------------------------------------------------------------

def test_a_directory_with_a_symlink_is_refused(tmp_path):
    upload = tmp_path / "up"
    upload.mkdir()
    (upload / "en.conllu").write_bytes(GOOD)
    os.symlink("/etc/passwd", upload / "fr.conllu")
    refused(tmp_path, upload, "archive-link")


def test_a_directory_with_a_fifo_is_refused(tmp_path):
    upload = tmp_path / "up"
    upload.mkdir()
    os.mkfifo(upload / "en.conllu")
    refused(tmp_path, upload, "archive-special-file")


def test_a_directory_is_copied(tmp_path):
    upload = tmp_path / "up" / "F"
    upload.mkdir(parents=True)
    (upload / "en.conllu").write_bytes(GOOD)
    (upload / "fr.conllu").write_bytes(OTHER)
    (upload / ".DS_Store").write_bytes(b"\0junk")
    dest = extract_submission(tmp_path / "up", tmp_path / "dest")
    assert dest == tmp_path / "dest"
    assert {p.name: p.read_bytes() for p in dest.iterdir()} == {"en.conllu": GOOD, "fr.conllu": OTHER}
    assert (upload / "en.conllu").read_bytes() == GOOD


# -- good uploads and the destination -------------------------------------------------------------

@pytest.mark.parametrize("kind", ("zip",) + TAR_KINDS)
@pytest.mark.parametrize("folder", ["", "team-x/", "./"])
def test_good_archives_unpack_flat(tmp_path, kind, folder):
    entries = [(folder.rstrip("/") or ".", (tarfile.DIRTYPE, "")) if kind != "zip" else (folder, b"")]
    entries = entries if folder and kind != "zip" else []
    entries += [(folder + "en.conllu", GOOD), (folder + "fr.conllu", OTHER),
                (folder + "empty.conllu", b""), ("__MACOSX/._en.conllu", b"\0\x05\x16\x07")]
    upload = build(tmp_path, kind, entries)
    before = tree(tmp_path)
    dest = extract_submission(upload, tmp_path / "subs" / "7")
    assert dest == tmp_path / "subs" / "7"
    assert {p.name: p.read_bytes() for p in dest.iterdir()} == \
        {"en.conllu": GOOD, "fr.conllu": OTHER, "empty.conllu": b""}
    assert {path for path in tree(tmp_path) if not path.startswith("subs")} == before


@pytest.mark.parametrize("kind", TAR_KINDS)
def test_megabytes_of_skipped_macos_files_in_a_tar_are_read_past(tmp_path, kind):
    # skipped members are read through the tar stream's bound, not skipped unseen by tarfile
    upload = build(tmp_path, kind, [("__MACOSX/._en.conllu", os.urandom(3 << 19)), ("en.conllu", GOOD),
                                    (".DS_Store", bytes(3 << 20)), ("fr.conllu", OTHER)])
    dest = extract_submission(upload, tmp_path / "dest")
    assert sorted(path.name for path in dest.iterdir()) == ["en.conllu", "fr.conllu"]


def test_refusal_after_files_were_written_empties_an_existing_dest(tmp_path):
    upload = build(tmp_path, "tar", [("en.conllu", GOOD), ("fr.conllu", GOOD),
                                     ("de.conllu", (tarfile.SYMTYPE, "/etc/passwd"))])
    dest = tmp_path / "dest"
    dest.mkdir()
    with pytest.raises(SubmissionRefused) as caught:
        extract_submission(upload, dest)
    assert caught.value.code == "archive-link"
    assert dest.is_dir() and list(dest.iterdir()) == []


def test_dest_may_not_be_inside_the_uploaded_directory(tmp_path):
    (tmp_path / "up").mkdir()
    (tmp_path / "up" / "en.conllu").write_bytes(GOOD)
    with pytest.raises(ValueError, match="inside the upload"):
        extract_submission(tmp_path / "up", tmp_path / "up" / "dest")


def test_dest_must_be_fresh(tmp_path):
    upload = build(tmp_path, "zip", [("en.conllu", GOOD)])
    dest = tmp_path / "dest"
    dest.mkdir()
    (dest / "old.conllu").write_bytes(OTHER)
    with pytest.raises(ValueError, match="not empty"):
        extract_submission(upload, dest)
    assert (dest / "old.conllu").read_bytes() == OTHER


def test_limits_come_from_the_environment():
    code = ("from conll_eval.leaderboard.archive import ArchiveLimits as L; d = L.default(); "
            "print(d.max_bytes, d.max_file_bytes, d.max_files)")
    env = dict(os.environ, CONLL_EVAL_MAX_SUBMISSION_BYTES="123", CONLL_EVAL_MAX_SUBMISSION_FILE_BYTES="45",
               CONLL_EVAL_MAX_SUBMISSION_FILES="6")
    output = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                            check=True).stdout
    assert output.split() == ["123", "45", "6"]
