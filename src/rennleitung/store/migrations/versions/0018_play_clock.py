"""The clock of a race people play (issue 23): a time bank per driver, the bot taking over a
seat after missed decisions, and what happens to a race in which nobody decides.

On ``play_races``: ``bank_seconds`` (each driver's bank at the start; NULL: none),
``bot_after_misses`` (0: never), ``abandon_seconds`` and ``abandon_action`` (``close`` or
``bots``), ``abandon_at`` (when the race is abandoned unless someone decides first) and
``clock_log`` (JSON: the bot took a seat over, its driver came back, the race was abandoned).
On ``play_seats``: ``bank_left``, ``misses`` (in a row) and ``away_since`` (the bot drives).

Revision ID: play_clock
Revises: qualifying_sessions
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "play_clock"
down_revision = "qualifying_sessions"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("play_races") as batch:
        batch.add_column(sa.Column("bank_seconds", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("bot_after_misses", sa.Integer(), nullable=False,
                                   server_default="0"))
        batch.add_column(sa.Column("abandon_seconds", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("abandon_action", sa.String(10), nullable=False,
                                   server_default=""))
        batch.add_column(sa.Column("abandon_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("clock_log", sa.Text(), nullable=False, server_default="[]"))
        batch.create_index("ix_play_races_abandon_at", ["abandon_at"])
    with op.batch_alter_table("play_seats") as batch:
        batch.add_column(sa.Column("bank_left", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("misses", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("away_since", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("play_seats") as batch:
        batch.drop_column("away_since")
        batch.drop_column("misses")
        batch.drop_column("bank_left")
    with op.batch_alter_table("play_races") as batch:
        batch.drop_index("ix_play_races_abandon_at")
        batch.drop_column("clock_log")
        batch.drop_column("abandon_at")
        batch.drop_column("abandon_action")
        batch.drop_column("abandon_seconds")
        batch.drop_column("bot_after_misses")
        batch.drop_column("bank_seconds")
