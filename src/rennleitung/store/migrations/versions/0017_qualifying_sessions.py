"""Qualifying sessions held here (issues 27 and 29): a session per league race with its window,
seed and weather, and a row per driver and run with the lap's decisions and its times.

Revision ID: qualifying_sessions
Revises: mail_gateway
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "qualifying_sessions"
down_revision = "mail_gateway"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "qualifying_sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league", sa.String(200), nullable=False),
        sa.Column("race", sa.Integer(), nullable=False),
        sa.Column("track", sa.String(100), nullable=False),
        sa.Column("mode", sa.String(10), nullable=False),
        sa.Column("runs", sa.Integer(), nullable=False),
        sa.Column("starters", sa.Text(), nullable=False),
        sa.Column("weather", sa.Text(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("opens_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closes_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("organiser", sa.String(200), nullable=True),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("note", sa.Text(), nullable=False, server_default=""),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_qualifying_sessions")),
    )
    op.create_table(
        "qualifying_session_laps",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("driver", sa.String(200), nullable=False),
        sa.Column("run", sa.Integer(), nullable=False),
        sa.Column("holder", sa.String(200), nullable=True),
        sa.Column("tyre", sa.String(10), nullable=False),
        sa.Column("decisions", sa.Text(), nullable=False, server_default="[]"),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["qualifying_sessions.id"],
            name=op.f("fk_qualifying_session_laps_session_id_qualifying_sessions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_qualifying_session_laps")),
        sa.UniqueConstraint("session_id", "driver", "run",
                            name=op.f("uq_qualifying_session_laps_session_id_driver_run")),
    )


def downgrade() -> None:
    op.drop_table("qualifying_session_laps")
    op.drop_table("qualifying_sessions")
