"""A league's FD Blitz records (issue 27): one row per finished match, ``ref`` naming the server
match it came from (unique per league, so it is entered once).

Revision ID: league_blitz
Revises: play_blitz
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "league_blitz"
down_revision = "play_blitz"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "league_blitz_matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("date", sa.String(10), nullable=False),
        sa.Column("board", sa.String(100), nullable=False),
        sa.Column("player_a", sa.String(200), nullable=False),
        sa.Column("player_b", sa.String(200), nullable=False),
        sa.Column("heat_winners", sa.Text(), nullable=False),
        sa.Column("winner", sa.String(200), nullable=False),
        sa.Column("source", sa.String(20), nullable=False),
        sa.Column("ref", sa.String(100), nullable=True),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["league_id"], ["leagues.id"],
            name=op.f("fk_league_blitz_matches_league_id_leagues"), ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_league_blitz_matches")),
        sa.UniqueConstraint("league_id", "ref", name=op.f("uq_league_blitz_matches_league_id_ref")),
    )


def downgrade() -> None:
    op.drop_table("league_blitz_matches")
