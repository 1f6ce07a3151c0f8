"""Starters of a qualifying in the order given, so the black-die draw can be re-run.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("league_qualifyings") as batch:
        batch.add_column(sa.Column("starters", sa.Text(), nullable=False, server_default="[]"))


def downgrade() -> None:
    with op.batch_alter_table("league_qualifyings") as batch:
        batch.drop_column("starters")
