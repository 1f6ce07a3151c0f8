"""The version of the race rules a stored race is played under (``formula_de/rules_version``).

Revision ID: play_rules_version
Revises: league_corrections
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "play_rules_version"
down_revision = "league_corrections"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("play_races") as batch:
        batch.add_column(
            sa.Column("rules_version", sa.Integer(), nullable=False, server_default="1")
        )


def downgrade() -> None:
    with op.batch_alter_table("play_races") as batch:
        batch.drop_column("rules_version")
