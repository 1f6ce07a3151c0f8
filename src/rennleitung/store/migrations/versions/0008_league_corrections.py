"""Corrections: the league's history of changes, non-starters of a race, and the accounts
that organise a league on the web.

Revision ID: league_corrections
Revises: mail_tables
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "league_corrections"
down_revision = "mail_tables"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("league_races") as batch:
        batch.add_column(
            sa.Column("did_not_start", sa.Text(), nullable=False, server_default="[]")
        )
    op.create_table(
        "league_corrections",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("at", sa.String(length=40), nullable=False),
        sa.Column("by", sa.String(length=200), nullable=False),
        sa.Column("action", sa.String(length=40), nullable=False),
        sa.Column("subject", sa.String(length=200), nullable=False),
        sa.Column("before", sa.Text(), nullable=False),
        sa.Column("after", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["league_id"], ["leagues.id"],
            name=op.f("fk_league_corrections_league_id_leagues"), ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_league_corrections")),
        sa.UniqueConstraint("league_id", "seq", name=op.f("uq_league_corrections_league_id_seq")),
    )
    op.create_table(
        "league_organisers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("user_name", sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(
            ["league_id"], ["leagues.id"],
            name=op.f("fk_league_organisers_league_id_leagues"), ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_league_organisers")),
        sa.UniqueConstraint("league_id", "user_name",
                            name=op.f("uq_league_organisers_league_id_user_name")),
    )


def downgrade() -> None:
    op.drop_table("league_organisers")
    op.drop_table("league_corrections")
    with op.batch_alter_table("league_races") as batch:
        batch.drop_column("did_not_start")
