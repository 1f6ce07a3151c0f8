"""Transfers: a league driver drives for another team from a race on (issue 26).

Revision ID: league_transfers
Revises: mail_seat_tokens
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "league_transfers"
down_revision = "mail_seat_tokens"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "league_transfers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("driver_id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("from_race", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["league_id"], ["leagues.id"],
            name=op.f("fk_league_transfers_league_id_leagues"), ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["driver_id"], ["league_drivers.id"],
            name=op.f("fk_league_transfers_driver_id_league_drivers"), ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["team_id"], ["league_teams.id"],
            name=op.f("fk_league_transfers_team_id_league_teams"), ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_league_transfers")),
        sa.UniqueConstraint("driver_id", "from_race",
                            name=op.f("uq_league_transfers_driver_id_from_race")),
    )


def downgrade() -> None:
    op.drop_table("league_transfers")
