"""Alembic's environment for the leaderboard: it runs the migrations on the connection that
:mod:`conll_eval.leaderboard.db` hands it (``config.attributes["connection"]``), nothing else."""
from alembic import context

from conll_eval.leaderboard.models import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
