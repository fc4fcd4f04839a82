"""Invite-only tables, the host's removals, and tables ended for idleness.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``game_tables.unlisted`` (the lobby leaves the table out),
    ``game_tables.ended`` (why a table ended before its game did) and
    ``seat_bans`` (names and addresses the host removed: they may not sit
    at that table again, on any process, after any restart)."""
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(
            sa.Column("unlisted", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("ended", sa.String(16), nullable=True))
    op.create_table(
        "seat_bans",
        sa.Column(
            "table_code",
            sa.String(16),
            sa.ForeignKey("game_tables.code", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("value", sa.String(64), primary_key=True),
    )


def downgrade() -> None:
    """Drop the bans and the two columns."""
    op.drop_table("seat_bans")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("ended")
        batch.drop_column("unlisted")
