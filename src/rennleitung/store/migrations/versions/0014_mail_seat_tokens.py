"""Per-seat tokens of mail bindings: each bound address has its own code for its seat, which every
question mail carries in its subject, so a plain Reply answers and a co-player who knows the
game's secret still cannot answer for another seat (issue 24). Existing bindings get a token
drawn here.

Revision ID: mail_seat_tokens
Revises: play_notices
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "mail_seat_tokens"
down_revision = "play_notices"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("mail_bindings") as batch:
        batch.add_column(sa.Column("token", sa.String(40), nullable=False, server_default=""))
    bindings = sa.table("mail_bindings", sa.column("id", sa.Integer()),
                        sa.column("token", sa.String(40)))
    connection = op.get_bind()
    for (row_id,) in connection.execute(sa.select(bindings.c.id)).all():
        connection.execute(sa.update(bindings).where(bindings.c.id == row_id)
                           .values(token=secrets.token_hex(5)))
    op.create_index("ix_mail_bindings_token", "mail_bindings", ["token"])


def downgrade() -> None:
    op.drop_index("ix_mail_bindings_token", "mail_bindings")
    with op.batch_alter_table("mail_bindings") as batch:
        batch.drop_column("token")
