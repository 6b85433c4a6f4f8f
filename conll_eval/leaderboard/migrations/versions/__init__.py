"""The leaderboard schema's revisions, oldest first (each file one Alembic revision)."""
