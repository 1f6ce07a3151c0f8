"""The notices of a race people play: each rule fix that changed the running race, with the
decisions that no longer applied (JSON, ``play/model.py: RulesNotice``).

Revision ID: play_notices
Revises: web_security
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "play_notices"
down_revision = "web_security"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("play_races") as batch:
        batch.add_column(sa.Column("notices", sa.Text(), nullable=False, server_default="[]"))


def downgrade() -> None:
    with op.batch_alter_table("play_races") as batch:
        batch.drop_column("notices")
