"""Sessions kept on the server (a sign-out ends one), the look of every account name (its
confusable skeleton), and invitations to organise a league.

Revision ID: web_security
Revises: play_snapshots
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from rennleitung.names import skeleton

revision = "web_security"
down_revision = "play_snapshots"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_sessions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_web_sessions"),
        sa.ForeignKeyConstraint(["user_id"], ["web_users.id"], ondelete="CASCADE",
                                name="fk_web_sessions_user_id_web_users"),
        sa.UniqueConstraint("token_hash", name="uq_web_sessions_token_hash"),
    )
    op.create_index("ix_web_sessions_user_id", "web_sessions", ["user_id"])
    with op.batch_alter_table("web_users") as table:
        table.add_column(sa.Column("name_key", sa.String(200), nullable=False,
                                   server_default=""))
    users = sa.table("web_users", sa.column("id", sa.Integer()), sa.column("name", sa.String()),
                     sa.column("name_key", sa.String()))
    connection = op.get_bind()
    for user_id, name in connection.execute(sa.select(users.c.id, users.c.name)).all():
        connection.execute(users.update().where(users.c.id == user_id).values(
            name_key=skeleton(name)))
    op.create_index("ix_web_users_name_key", "web_users", ["name_key"])
    op.create_table(
        "league_invitations",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.Column("used_by", sa.String(200), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_league_invitations"),
        sa.ForeignKeyConstraint(["league_id"], ["leagues.id"], ondelete="CASCADE",
                                name="fk_league_invitations_league_id_leagues"),
        sa.UniqueConstraint("token_hash", name="uq_league_invitations_token_hash"),
    )


def downgrade() -> None:
    op.drop_table("league_invitations")
    op.drop_index("ix_web_users_name_key", "web_users")
    with op.batch_alter_table("web_users") as table:
        table.drop_column("name_key")
    op.drop_index("ix_web_sessions_user_id", "web_sessions")
    op.drop_table("web_sessions")
