"""League tables: leagues, teams, drivers, races, results, qualifying, drops, karma ledger.

Revision ID: 0001
Revises: (none)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leagues",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_leagues")),
        sa.UniqueConstraint("name", name=op.f("uq_leagues_name")),
    )
    op.create_table(
        "league_qualifyings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("race_number", sa.Integer(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["league_id"],
            ["leagues.id"],
            name=op.f("fk_league_qualifyings_league_id_leagues"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_league_qualifyings")),
        sa.UniqueConstraint(
            "league_id", "race_number", name=op.f("uq_league_qualifyings_league_id_race_number")
        ),
    )
    op.create_table(
        "league_races",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("laps", sa.Integer(), nullable=False),
        sa.Column("track", sa.String(length=200), nullable=False),
        sa.Column("source", sa.String(length=20), nullable=False),
        sa.ForeignKeyConstraint(
            ["league_id"],
            ["leagues.id"],
            name=op.f("fk_league_races_league_id_leagues"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_league_races")),
        sa.UniqueConstraint("league_id", "number", name=op.f("uq_league_races_league_id_number")),
    )
    op.create_table(
        "league_teams",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(
            ["league_id"],
            ["leagues.id"],
            name=op.f("fk_league_teams_league_id_leagues"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_league_teams")),
        sa.UniqueConstraint("league_id", "name", name=op.f("uq_league_teams_league_id_name")),
    )
    op.create_table(
        "league_drivers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("profile", sa.String(length=40), nullable=False),
        sa.Column("city", sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(
            ["league_id"],
            ["leagues.id"],
            name=op.f("fk_league_drivers_league_id_leagues"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["team_id"],
            ["league_teams.id"],
            name=op.f("fk_league_drivers_team_id_league_teams"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_league_drivers")),
        sa.UniqueConstraint("league_id", "name", name=op.f("uq_league_drivers_league_id_name")),
    )
    op.create_table(
        "league_grid_slots",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("qualifying_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("driver_id", sa.Integer(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=True),
        sa.Column("lap_time_ms", sa.Integer(), nullable=True),
        sa.Column("qualifying_points", sa.Integer(), nullable=False),
        sa.Column("draw_rolls", sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(
            ["driver_id"],
            ["league_drivers.id"],
            name=op.f("fk_league_grid_slots_driver_id_league_drivers"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["qualifying_id"],
            ["league_qualifyings.id"],
            name=op.f("fk_league_grid_slots_qualifying_id_league_qualifyings"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_league_grid_slots")),
        sa.UniqueConstraint(
            "qualifying_id", "driver_id", name=op.f("uq_league_grid_slots_qualifying_id_driver_id")
        ),
        sa.UniqueConstraint(
            "qualifying_id", "position", name=op.f("uq_league_grid_slots_qualifying_id_position")
        ),
    )
    op.create_table(
        "league_karma_ledger",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("driver_id", sa.Integer(), nullable=False),
        sa.Column("race_number", sa.Integer(), nullable=True),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(length=40), nullable=False),
        sa.Column("balance", sa.Integer(), nullable=False),
        sa.Column("note", sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(
            ["driver_id"],
            ["league_drivers.id"],
            name=op.f("fk_league_karma_ledger_driver_id_league_drivers"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["league_id"],
            ["leagues.id"],
            name=op.f("fk_league_karma_ledger_league_id_leagues"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_league_karma_ledger")),
        sa.UniqueConstraint("league_id", "seq", name=op.f("uq_league_karma_ledger_league_id_seq")),
    )
    op.create_table(
        "league_named_drops",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("driver_id", sa.Integer(), nullable=False),
        sa.Column("race_number", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["driver_id"],
            ["league_drivers.id"],
            name=op.f("fk_league_named_drops_driver_id_league_drivers"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_league_named_drops")),
        sa.UniqueConstraint(
            "driver_id", "race_number", name=op.f("uq_league_named_drops_driver_id_race_number")
        ),
    )
    op.create_table(
        "league_qualifying_laps",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("qualifying_id", sa.Integer(), nullable=False),
        sa.Column("driver_id", sa.Integer(), nullable=False),
        sa.Column("run", sa.Integer(), nullable=False),
        sa.Column("rolls", sa.Integer(), nullable=False),
        sa.Column("penalty_points", sa.Integer(), nullable=False),
        sa.Column("errors", sa.Integer(), nullable=False),
        sa.Column("lap_time_ms", sa.Integer(), nullable=False),
        sa.Column("driven_by_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["driven_by_id"],
            ["league_drivers.id"],
            name=op.f("fk_league_qualifying_laps_driven_by_id_league_drivers"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["driver_id"],
            ["league_drivers.id"],
            name=op.f("fk_league_qualifying_laps_driver_id_league_drivers"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["qualifying_id"],
            ["league_qualifyings.id"],
            name=op.f("fk_league_qualifying_laps_qualifying_id_league_qualifyings"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_league_qualifying_laps")),
        sa.UniqueConstraint(
            "qualifying_id",
            "driver_id",
            "run",
            name=op.f("uq_league_qualifying_laps_qualifying_id_driver_id_run"),
        ),
    )
    op.create_table(
        "league_race_results",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("race_id", sa.Integer(), nullable=False),
        sa.Column("driver_id", sa.Integer(), nullable=False),
        sa.Column("grid", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("laps_completed", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("driven_by_id", sa.Integer(), nullable=True),
        sa.Column("laps_most_led", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["driven_by_id"],
            ["league_drivers.id"],
            name=op.f("fk_league_race_results_driven_by_id_league_drivers"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["driver_id"],
            ["league_drivers.id"],
            name=op.f("fk_league_race_results_driver_id_league_drivers"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["race_id"],
            ["league_races.id"],
            name=op.f("fk_league_race_results_race_id_league_races"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_league_race_results")),
        sa.UniqueConstraint(
            "race_id", "driver_id", name=op.f("uq_league_race_results_race_id_driver_id")
        ),
        sa.UniqueConstraint("race_id", "grid", name=op.f("uq_league_race_results_race_id_grid")),
        sa.UniqueConstraint(
            "race_id", "position", name=op.f("uq_league_race_results_race_id_position")
        ),
    )
    op.create_table(
        "league_race_karma",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("result_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.Column("note", sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(
            ["result_id"],
            ["league_race_results.id"],
            name=op.f("fk_league_race_karma_result_id_league_race_results"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_league_race_karma")),
        sa.UniqueConstraint("result_id", "seq", name=op.f("uq_league_race_karma_result_id_seq")),
    )


def downgrade() -> None:
    op.drop_table("league_race_karma")
    op.drop_table("league_race_results")
    op.drop_table("league_qualifying_laps")
    op.drop_table("league_named_drops")
    op.drop_table("league_karma_ledger")
    op.drop_table("league_grid_slots")
    op.drop_table("league_drivers")
    op.drop_table("league_teams")
    op.drop_table("league_races")
    op.drop_table("league_qualifyings")
    op.drop_table("leagues")
