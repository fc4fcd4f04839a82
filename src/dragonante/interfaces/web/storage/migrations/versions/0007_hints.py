"""The host's permission for hints from the best bot at a table with other people.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``game_tables.hints`` (false: hints only while one person plays among bots)."""
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(
            sa.Column("hints", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    """Drop the hints column."""
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("hints")
