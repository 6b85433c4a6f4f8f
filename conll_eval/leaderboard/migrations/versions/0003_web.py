"""The web app (``leaderboard serve``): the task's freeze and its session-signing key, a
token hint per team (finds a token's team with one scrypt check), and the organisers.

No table is copied on SQLite (Alembic's batch mode would: dropping the old copy would run the
foreign keys' ON DELETE CASCADE and empty the tables that point to it): columns are added
with ALTER TABLE, and dropped with it on downgrade (SQLite 3.35 or later).

Revision ID: 0003
Revises: 0002
"""
import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a constant default, not an expression: SQLite adds the column in place
    op.add_column("task", sa.Column("frozen", sa.Boolean, nullable=False, server_default="0"))
    op.add_column("task", sa.Column("session_secret", sa.LargeBinary(64), nullable=True))
    op.add_column("team", sa.Column("token_hint", sa.String(16), nullable=True))
    op.create_index("ix_team_token_hint", "team", ["token_hint"])
    op.create_table(
        "organiser",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(200), nullable=False, unique=True),
        sa.Column("token_salt", sa.LargeBinary(64), nullable=False),
        sa.Column("token_hash", sa.LargeBinary(64), nullable=False),
        sa.Column("token_hint", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False))
    op.create_index("ix_organiser_token_hint", "organiser", ["token_hint"])


def _drop_column(table: str, column: str) -> None:
    if op.get_bind().dialect.name == "sqlite":  # in place, never a copy of the table
        op.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
    else:
        op.drop_column(table, column)


def downgrade() -> None:
    op.drop_index("ix_organiser_token_hint", "organiser")
    op.drop_table("organiser")
    op.drop_index("ix_team_token_hint", "team")
    _drop_column("team", "token_hint")
    _drop_column("task", "session_secret")
    _drop_column("task", "frozen")
