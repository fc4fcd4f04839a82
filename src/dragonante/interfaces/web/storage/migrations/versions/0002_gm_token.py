"""The game-master token of tables with hidden D&D abilities.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``game_tables.gm_hash`` (SHA-256 of the game-master token, or NULL)."""
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("gm_hash", sa.String(64), nullable=True))


def downgrade() -> None:
    """Drop the game-master token column."""
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("gm_hash")
