"""Alembic migrations of the rennleitung database, shipped inside the package."""
