"""Ratings: each player key's openskill rating, and its steps game by game.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``ratings`` (a person's rating now) and ``rating_steps`` (after each
    rated game).  Both are derived from the finished games and their answers:
    ``dragonante ratings rebuild`` fills them anew from those records."""
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Float(), nullable=False),
    )
    op.create_index("ix_ratings_ordinal", "ratings", ["ordinal"])
    op.create_table(
        "rating_steps",
        sa.Column("player_id", sa.String(16), primary_key=True),
        sa.Column("table_code", sa.String(16), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("won", sa.Float(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
    )
    op.create_index("ix_rating_steps_at", "rating_steps", ["at"])


def downgrade() -> None:
    """Drop the ratings and their steps."""
    op.drop_table("rating_steps")
    op.drop_table("ratings")
