"""FD Blitz matches played here (issue 27): a match row with its players, board, limit and
state, and a row per heat naming the play race that drives it.

Revision ID: play_blitz
Revises: play_clock
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "play_blitz"
down_revision = "play_clock"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "play_blitz_matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("organiser", sa.String(200), nullable=True),
        sa.Column("league", sa.String(200), nullable=True),
        sa.Column("mode", sa.String(10), nullable=False),
        sa.Column("track", sa.String(100), nullable=False),
        sa.Column("track_text", sa.Text(), nullable=True),
        sa.Column("laps", sa.Integer(), nullable=False),
        sa.Column("players", sa.Text(), nullable=False),
        sa.Column("session", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_play_blitz_matches")),
    )
    op.create_table(
        "play_blitz_heats",
        sa.Column("race_id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("heat", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["race_id"], ["play_races.id"],
            name=op.f("fk_play_blitz_heats_race_id_play_races"), ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["match_id"], ["play_blitz_matches.id"],
            name=op.f("fk_play_blitz_heats_match_id_play_blitz_matches"), ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("race_id", name=op.f("pk_play_blitz_heats")),
    )


def downgrade() -> None:
    op.drop_table("play_blitz_heats")
    op.drop_table("play_blitz_matches")
