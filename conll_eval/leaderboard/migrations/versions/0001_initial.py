"""The leaderboard's first schema: task, gold files, teams, submissions (with the workers'
lease), per-treebank results and per-sentence counts.

Revision ID: 0001
Revises: (none)
"""
import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

_TIME = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "task",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("gold_dir", sa.Text, nullable=False),
        sa.Column("store_dir", sa.Text, nullable=False),
        sa.Column("profile", sa.String(40), nullable=False),
        sa.Column("metrics", sa.JSON, nullable=False),
        sa.Column("primary_metric", sa.String(40), nullable=False),
        sa.Column("level", sa.Integer, nullable=False),
        sa.Column("phase", sa.String(10), nullable=False),
        sa.Column("created_at", _TIME, nullable=False))
    op.create_table(
        "gold_file",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("task_id", sa.Integer, sa.ForeignKey("task.id", ondelete="CASCADE"), nullable=False),
        sa.Column("treebank", sa.String(200), nullable=False),
        sa.Column("path", sa.Text, nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.UniqueConstraint("task_id", "treebank"))
    op.create_table(
        "team",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(200), nullable=False, unique=True),
        sa.Column("token_salt", sa.LargeBinary(64), nullable=False),
        sa.Column("token_hash", sa.LargeBinary(64), nullable=False),
        sa.Column("created_at", _TIME, nullable=False))
    op.create_table(
        "submission",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("team_id", sa.Integer, sa.ForeignKey("team.id", ondelete="CASCADE"), nullable=False),
        sa.Column("label", sa.String(200), nullable=False),
        sa.Column("phase", sa.String(10), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("created_at", _TIME, nullable=False),
        sa.Column("started_at", _TIME, nullable=True),
        sa.Column("finished_at", _TIME, nullable=True),
        sa.Column("error", sa.Text, nullable=True),
        sa.Column("hidden", sa.Boolean, nullable=False),
        sa.Column("claimed_by", sa.String(200), nullable=True),
        sa.Column("lease_until", _TIME, nullable=True),
        sa.Column("directory", sa.Text, nullable=False),
        sa.Column("macro", sa.JSON, nullable=True))
    op.create_index("ix_submission_team_id", "submission", ["team_id"])
    op.create_index("ix_submission_status", "submission", ["status"])
    op.create_table(
        "treebank_result",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("submission_id", sa.Integer, sa.ForeignKey("submission.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("treebank", sa.String(200), nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("reason", sa.String(80), nullable=True),
        sa.Column("record", sa.JSON, nullable=False),
        sa.UniqueConstraint("submission_id", "treebank"))
    op.create_table(
        "sentence_counts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("submission_id", sa.Integer, sa.ForeignKey("submission.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("treebank", sa.String(200), nullable=False),
        sa.Column("counts", sa.LargeBinary, nullable=False),
        sa.UniqueConstraint("submission_id", "treebank"))
    op.create_index("ix_sentence_counts_submission_id", "sentence_counts", ["submission_id"])


def downgrade() -> None:
    for table in ("sentence_counts", "treebank_result", "submission", "team", "gold_file", "task"):
        op.drop_table(table)
