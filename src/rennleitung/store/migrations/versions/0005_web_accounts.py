"""Accounts of the web server: people, one-time sign-in links, failed sign-in attempts.

Revision ID: web_accounts
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "web_accounts"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_users",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("email", sa.String(200), nullable=True),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("lang", sa.String(2), nullable=False),
        sa.Column("session_epoch", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_web_users"),
        sa.UniqueConstraint("name", name="uq_web_users_name"),
        sa.UniqueConstraint("email", name="uq_web_users_email"),
    )
    op.create_table(
        "web_sign_in_links",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.Column("used_at", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_web_sign_in_links"),
        sa.ForeignKeyConstraint(["user_id"], ["web_users.id"], ondelete="CASCADE",
                                name="fk_web_sign_in_links_user_id_web_users"),
        sa.UniqueConstraint("token_hash", name="uq_web_sign_in_links_token_hash"),
    )
    op.create_table(
        "web_sign_in_attempts",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_web_sign_in_attempts"),
    )
    op.create_index("ix_web_sign_in_attempts_key", "web_sign_in_attempts", ["key"])


def downgrade() -> None:
    op.drop_index("ix_web_sign_in_attempts_key", "web_sign_in_attempts")
    op.drop_table("web_sign_in_attempts")
    op.drop_table("web_sign_in_links")
    op.drop_table("web_users")
