"""Several server processes on one PostgreSQL database: who owns which table.

Revision ID: 0003
Revises: 0002
Create Date: 2027-01-10
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``game_tables.owner`` and the ``server_processes`` heartbeat table."""
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("owner", sa.String(32), nullable=True))
        batch.create_index("ix_game_tables_owner", ["owner"])
    op.create_table(
        "server_processes",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("host", sa.String(255), nullable=False),
        sa.Column("pid", sa.Integer, nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("beat_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop the ownership column and the heartbeat table."""
    op.drop_table("server_processes")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_index("ix_game_tables_owner")
        batch.drop_column("owner")
