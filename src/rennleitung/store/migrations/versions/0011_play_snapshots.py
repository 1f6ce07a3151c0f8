"""A snapshot of each race people play at every round boundary: its state and the events and
rolls since the snapshot before.

Revision ID: play_snapshots
Revises: play_league_races
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "play_snapshots"
down_revision = "play_league_races"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "play_snapshots",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("race_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("rules_version", sa.Integer(), nullable=False),
        sa.Column("state", sa.Text(), nullable=False),
        sa.Column("events", sa.Text(), nullable=False),
        sa.Column("rolls", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["race_id"],
            ["play_races.id"],
            name=op.f("fk_play_snapshots_race_id_play_races"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_play_snapshots")),
        sa.UniqueConstraint("race_id", "round", name=op.f("uq_play_snapshots_race_id_round")),
    )


def downgrade() -> None:
    op.drop_table("play_snapshots")
