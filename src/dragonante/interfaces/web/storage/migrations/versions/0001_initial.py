"""The first schema: tables, seats, answers.

Revision ID: 0001
Revises:
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the three tables of the web server."""
    op.create_table(
        "game_tables",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("config", sa.Text(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("rules_version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("host_hash", sa.String(64), nullable=True),
        sa.Column("last_gambit_at", sa.Integer(), nullable=True),
        sa.Column("final_digest", sa.String(64), nullable=True),
        sa.Column("winners", sa.Text(), nullable=True),
    )
    op.create_index("ix_game_tables_status", "game_tables", ["status"])
    op.create_table(
        "seats",
        sa.Column(
            "table_code",
            sa.String(16),
            sa.ForeignKey("game_tables.code", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )
    op.create_table(
        "answers",
        sa.Column(
            "table_code",
            sa.String(16),
            sa.ForeignKey("game_tables.code", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("n", sa.Integer(), primary_key=True),
        sa.Column("decision_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("answer", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop everything (the first revision has nothing to go back to)."""
    op.drop_table("answers")
    op.drop_table("seats")
    op.drop_index("ix_game_tables_status", table_name="game_tables")
    op.drop_table("game_tables")
