"""The workers' queue: a submission's claim counter (``attempts``) and the task's per-team
limit of submissions in 24 hours (``daily_limit``, 5 for a task made before it).

Revision ID: 0002
Revises: 0001
"""
import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("task") as batch:
        batch.add_column(sa.Column("daily_limit", sa.Integer, nullable=False, server_default="5"))
    with op.batch_alter_table("submission") as batch:
        batch.add_column(sa.Column("attempts", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("submission") as batch:
        batch.drop_column("attempts")
    with op.batch_alter_table("task") as batch:
        batch.drop_column("daily_limit")
