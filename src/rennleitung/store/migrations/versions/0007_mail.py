"""Mail tables: games by mail, bound addresses, mail in as received, outbox and its attempts.

Revision ID: mail_tables
Revises: play_races
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "mail_tables"
down_revision = "play_races"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "mail_games",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("key", sa.String(100), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("location", sa.Text(), nullable=False),
        sa.Column("secret", sa.String(100), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.UniqueConstraint("key", name="uq_mail_games_key"),
    )
    op.create_table(
        "mail_bindings",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(),
                  sa.ForeignKey("mail_games.id", ondelete="CASCADE",
                                name="fk_mail_bindings_game_id_mail_games"), nullable=False),
        sa.Column("address", sa.String(320), nullable=False),
        sa.Column("seat", sa.String(200), nullable=False),
        sa.Column("language", sa.String(2), nullable=False),
        sa.UniqueConstraint("game_id", "address", name="uq_mail_bindings_game_id_address"),
    )
    op.create_index("ix_mail_bindings_address", "mail_bindings", ["address"])
    op.create_table(
        "mail_in",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("received_at", WHEN, nullable=False),
        sa.Column("source", sa.String(20), nullable=False),
        sa.Column("envelope_from", sa.Text(), nullable=False),
        sa.Column("envelope_to", sa.Text(), nullable=False),
        sa.Column("message_id", sa.String(998), nullable=False),
        sa.Column("content_hash", sa.String(64), nullable=False),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
        sa.Column("duplicate_of", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("sender", sa.String(320), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("seat", sa.String(200), nullable=False),
        sa.Column("outcome", sa.Text(), nullable=False),
        sa.Column("processed_at", WHEN, nullable=True),
        sa.UniqueConstraint("content_hash", name="uq_mail_in_content_hash"),
    )
    op.create_index("ix_mail_in_message_id", "mail_in", ["message_id"])
    op.create_index("ix_mail_in_status", "mail_in", ["status"])
    op.create_index("ix_mail_in_game_id", "mail_in", ["game_id"])
    op.create_table(
        "mail_out",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("ref", sa.String(300), nullable=True),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("reply_to_in", sa.Integer(), nullable=True),
        sa.Column("recipient", sa.String(320), nullable=False),
        sa.Column("subject", sa.Text(), nullable=False),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", WHEN, nullable=False),
        sa.Column("lease_until", WHEN, nullable=True),
        sa.Column("last_error", sa.Text(), nullable=False),
        sa.Column("sent_at", WHEN, nullable=True),
        sa.UniqueConstraint("ref", name="uq_mail_out_ref"),
    )
    op.create_index("ix_mail_out_status", "mail_out", ["status"])
    op.create_index("ix_mail_out_next_attempt_at", "mail_out", ["next_attempt_at"])
    op.create_table(
        "mail_out_attempts",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("out_id", sa.Integer(),
                  sa.ForeignKey("mail_out.id", ondelete="CASCADE",
                                name="fk_mail_out_attempts_out_id_mail_out"), nullable=False),
        sa.Column("at", WHEN, nullable=False),
        sa.Column("result", sa.Text(), nullable=False),
    )
    op.create_index("ix_mail_out_attempts_out_id", "mail_out_attempts", ["out_id"])


def downgrade() -> None:
    op.drop_table("mail_out_attempts")
    op.drop_table("mail_out")
    op.drop_table("mail_in")
    op.drop_table("mail_bindings")
    op.drop_table("mail_games")
