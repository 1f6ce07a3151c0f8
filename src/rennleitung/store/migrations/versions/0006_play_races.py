"""Races people play: races, seats and decisions (``store/race_tables.py``).

Revision ID: play_races
Revises: web_accounts
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "play_races"
down_revision = "web_accounts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "play_races",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("state", sa.String(length=20), nullable=False),
        sa.Column("config", sa.Text(), nullable=False),
        sa.Column("track_text", sa.Text(), nullable=True),
        sa.Column("decision_seconds", sa.Integer(), nullable=True),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("seed", sa.String(length=200), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("organiser", sa.String(length=200), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_play_races")),
    )
    op.create_table(
        "play_seats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("race_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("car", sa.String(length=100), nullable=False),
        sa.Column("driver", sa.String(length=200), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("bot", sa.String(length=40), nullable=False),
        sa.Column("holder", sa.String(length=200), nullable=True),
        sa.Column("asked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("deadline_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["race_id"],
            ["play_races.id"],
            name=op.f("fk_play_seats_race_id_play_races"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_play_seats")),
        sa.UniqueConstraint("race_id", "car", name=op.f("uq_play_seats_race_id_car")),
    )
    op.create_index(op.f("ix_play_seats_holder"), "play_seats", ["holder"])
    op.create_index(op.f("ix_play_seats_deadline_at"), "play_seats", ["deadline_at"])
    op.create_table(
        "play_decisions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("race_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("car", sa.String(length=100), nullable=False),
        sa.Column("actor", sa.String(length=20), nullable=False),
        sa.Column("holder", sa.String(length=200), nullable=True),
        sa.Column("decision", sa.Text(), nullable=False),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["race_id"],
            ["play_races.id"],
            name=op.f("fk_play_decisions_race_id_play_races"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_play_decisions")),
        sa.UniqueConstraint("race_id", "seq", name=op.f("uq_play_decisions_race_id_seq")),
    )


def downgrade() -> None:
    op.drop_table("play_decisions")
    op.drop_index(op.f("ix_play_seats_deadline_at"), table_name="play_seats")
    op.drop_index(op.f("ix_play_seats_holder"), table_name="play_seats")
    op.drop_table("play_seats")
    op.drop_table("play_races")
