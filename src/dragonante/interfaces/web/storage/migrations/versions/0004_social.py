"""The turn timer of a table and the link from a finished table to its rematch.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``game_tables.turn_seconds`` (NULL: no timer) and ``game_tables.rematch``."""
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("turn_seconds", sa.Float(), nullable=True))
        batch.add_column(sa.Column("rematch", sa.String(16), nullable=True))


def downgrade() -> None:
    """Drop the turn timer and rematch columns."""
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("rematch")
        batch.drop_column("turn_seconds")
