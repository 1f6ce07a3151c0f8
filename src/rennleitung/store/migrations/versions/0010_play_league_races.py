"""Races played here for a league: which league and race number, and whether the result is in.

Revision ID: play_league_races
Revises: play_rules_version
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "play_league_races"
down_revision = "play_rules_version"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "play_league_races",
        sa.Column("race_id", sa.Integer(), nullable=False),
        sa.Column("league", sa.String(length=200), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("entered_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("note", sa.Text(), nullable=False, server_default=""),
        sa.ForeignKeyConstraint(
            ["race_id"],
            ["play_races.id"],
            name=op.f("fk_play_league_races_race_id_play_races"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("race_id", name=op.f("pk_play_league_races")),
    )


def downgrade() -> None:
    op.drop_table("play_league_races")
