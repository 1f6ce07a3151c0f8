"""Running order after each round of play, for the lap chart of races run here.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("league_races") as batch:
        batch.add_column(sa.Column("rounds", sa.Text(), nullable=False, server_default="[]"))


def downgrade() -> None:
    with op.batch_alter_table("league_races") as batch:
        batch.drop_column("rounds")
