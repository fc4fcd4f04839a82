"""Player keys: people known by a secret key, and the seats they hold.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``players`` (a public id and the SHA-256 of the key, never the key)
    and ``seats.player_id`` (NULL for every seat taken before, or without a
    key: those keep working with their seat tokens alone).  No foreign key on
    the seat's column: a player row is never deleted, and leaving the seats
    table's constraints as they were keeps the SQLite upgrade a plain
    column addition."""
    op.create_table(
        "players",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("key_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("player_id", sa.String(16), nullable=True))
        batch.create_index("ix_seats_player_id", ["player_id"])


def downgrade() -> None:
    """Drop the seats' player column and the players."""
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_player_id")
        batch.drop_column("player_id")
    op.drop_table("players")
