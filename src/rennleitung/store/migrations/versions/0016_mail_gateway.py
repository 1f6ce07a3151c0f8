"""How the mail gateway's parts fare (issue 24): one row per part (``imap``) with its last
fault, how many tries failed in a row and when ``mail serve`` tries again, so ``mail status``
shows a mailbox that cannot be read while ``mail serve`` keeps running.

Revision ID: mail_gateway
Revises: league_transfers
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "mail_gateway"
down_revision = "league_transfers"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "mail_gateway",
        sa.Column("part", sa.String(20), primary_key=True),
        sa.Column("ok", sa.Boolean(), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("next_try_at", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("mail_gateway")
