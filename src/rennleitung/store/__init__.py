"""Persistence through SQLAlchemy 2: SQLite by default, PostgreSQL by URL."""
