"""The Alembic migrations of the leaderboard's schema, shipped in the package and run by
``conll_eval leaderboard init`` and ``upgrade`` (never by hand, never implicitly)."""
