"""The leaderboard's tables as SQLAlchemy 2 typed declarative classes: the task, its gold
files, teams, submissions, per-treebank results and per-sentence counts.  The schema is made
and changed only by the Alembic migrations in ``migrations/`` (which must match these)."""
from __future__ import annotations

import datetime as dt
from typing import List, Optional

from sqlalchemy import (JSON, Boolean, DateTime, ForeignKey, Integer, LargeBinary, String, Text,
                        UniqueConstraint)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

__all__ = ["Base", "Task", "GoldFile", "Team", "Organiser", "Submission", "TreebankResult", "SentenceCounts",
           "STATUSES", "PHASES", "utcnow"]

#: a submission's life: accepted, checked, scored, then done or failed
STATUSES = ("queued", "validating", "scoring", "done", "failed")
PHASES = ("dev", "test")


def utcnow() -> dt.datetime:
    """Now, in UTC (what every time column holds)."""
    return dt.datetime.now(dt.timezone.utc)


class Base(DeclarativeBase):
    pass


class Task(Base):
    """The one task of a database: where its gold files are, how submissions are scored
    (profile, validation level) and ranked (metrics shown, primary metric), its phase."""
    __tablename__ = "task"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    gold_dir: Mapped[str] = mapped_column(Text)
    #: where submitted files are kept (rescoring reads them again)
    store_dir: Mapped[str] = mapped_column(Text)
    profile: Mapped[str] = mapped_column(String(40))
    metrics: Mapped[List[str]] = mapped_column(JSON)
    primary_metric: Mapped[str] = mapped_column(String(40))
    #: the UD validator's level a submission must pass (0: what the profile's reader accepts)
    level: Mapped[int] = mapped_column(Integer, default=0)
    phase: Mapped[str] = mapped_column(String(10))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    #: the most submissions a team may make in any 24 hours (0: no limit); revision 0002
    daily_limit: Mapped[int] = mapped_column(Integer, default=5, server_default="5")
    #: no more submissions in this phase (``leaderboard serve``'s organiser page); revision 0003
    frozen: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    #: the key the web app signs its session cookies with (made on its first start); revision 0003
    session_secret: Mapped[Optional[bytes]] = mapped_column(LargeBinary(64))

    gold_files: Mapped[List["GoldFile"]] = relationship(back_populates="task", order_by="GoldFile.treebank",
                                                        cascade="all, delete-orphan")


class GoldFile(Base):
    """A gold file as it was when the task was made (or last rescored): its checksum tells a
    changed file."""
    __tablename__ = "gold_file"
    __table_args__ = (UniqueConstraint("task_id", "treebank"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    task_id: Mapped[int] = mapped_column(ForeignKey("task.id", ondelete="CASCADE"))
    treebank: Mapped[str] = mapped_column(String(200))
    path: Mapped[str] = mapped_column(Text)
    sha256: Mapped[str] = mapped_column(String(64))

    task: Mapped[Task] = relationship(back_populates="gold_files")


class Team(Base):
    """A team: its name and a salted hash of its token (the token itself is never stored)."""
    __tablename__ = "team"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    token_salt: Mapped[bytes] = mapped_column(LargeBinary(64))
    token_hash: Mapped[bytes] = mapped_column(LargeBinary(64))
    #: the first hex digits of the token's SHA-256 (:func:`.tokens.token_hint`): finds the team
    #: of a token with one scrypt check; None for a team made before revision 0003 (set at its
    #: first log-in)
    token_hint: Mapped[Optional[str]] = mapped_column(String(16), index=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    submissions: Mapped[List["Submission"]] = relationship(back_populates="team")


class Organiser(Base):
    """An organiser of the task (``leaderboard organiser add``): a name and a salted hash of
    the token that opens the web app's organiser page; revision 0003."""
    __tablename__ = "organiser"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    token_salt: Mapped[bytes] = mapped_column(LargeBinary(64))
    token_hash: Mapped[bytes] = mapped_column(LargeBinary(64))
    token_hint: Mapped[str] = mapped_column(String(16), index=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Submission(Base):
    """One upload of a team: its state (:data:`STATUSES`), times, the error that failed it,
    its macro-averages as ``conll_eval suite --format json`` gives them, and a lease that a
    worker holds while scoring it (``claimed_by`` until ``lease_until``)."""
    __tablename__ = "submission"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("team.id", ondelete="CASCADE"), index=True)
    label: Mapped[str] = mapped_column(String(200), default="")
    phase: Mapped[str] = mapped_column(String(10))
    status: Mapped[str] = mapped_column(String(20), default="queued", index=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    started_at: Mapped[Optional[dt.datetime]] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[Optional[dt.datetime]] = mapped_column(DateTime(timezone=True))
    error: Mapped[Optional[str]] = mapped_column(Text)
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)
    claimed_by: Mapped[Optional[str]] = mapped_column(String(200))
    lease_until: Mapped[Optional[dt.datetime]] = mapped_column(DateTime(timezone=True))
    #: how many times a worker claimed it (each claim adds 1; a stale worker's writes name an
    #: older attempt and are refused); revision 0002
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: the directory its files are kept in
    directory: Mapped[str] = mapped_column(Text, default="")
    #: suite's JSON ``macro`` object (metric -> precision, recall, f1, aligned_accuracy, treebanks)
    macro: Mapped[Optional[dict]] = mapped_column(JSON)

    team: Mapped[Team] = relationship(back_populates="submissions")
    results: Mapped[List["TreebankResult"]] = relationship(
        back_populates="submission", order_by="TreebankResult.position", cascade="all, delete-orphan")


class TreebankResult(Base):
    """One treebank of a scored submission: ``status`` as suite gives it (``ok`` or the
    failure's message), the failure's code, and ``record``: suite's JSON treebank object
    (its ``metrics`` with every count and score)."""
    __tablename__ = "treebank_result"
    __table_args__ = (UniqueConstraint("submission_id", "treebank"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    submission_id: Mapped[int] = mapped_column(ForeignKey("submission.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    treebank: Mapped[str] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(Text)
    reason: Mapped[Optional[str]] = mapped_column(String(80))
    record: Mapped[dict] = mapped_column(JSON)

    submission: Mapped[Submission] = relationship(back_populates="results")


class SentenceCounts(Base):
    """Per-sentence (correct, gold, system) counts of one submission's treebank, per metric:
    the ``.npz`` bytes of ``{metric: int64 array (sentences, 3)}``, what the significance
    tests (:mod:`conll_eval.analyze.resampling`) resample."""
    __tablename__ = "sentence_counts"
    __table_args__ = (UniqueConstraint("submission_id", "treebank"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    submission_id: Mapped[int] = mapped_column(ForeignKey("submission.id", ondelete="CASCADE"),
                                               index=True)
    treebank: Mapped[str] = mapped_column(String(200))
    counts: Mapped[bytes] = mapped_column(LargeBinary)
