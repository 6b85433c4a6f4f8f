"""A shared task kept in a database: the task, its gold files, teams, submissions and their
scores (``conll_eval leaderboard``).  Built on the scorer's public API only; nothing in the
scorer imports it, and it alone needs SQLAlchemy and Alembic (the ``leaderboard`` extra)."""
