"""A table's recent chat messages and the host's mutes, in the database.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``chat_messages`` and ``chat_mutes``: what a process taking a table
    over (or a restarted server) needs to show the same chat and keep the mutes."""
    op.create_table(
        "chat_messages",
        sa.Column(
            "table_code",
            sa.String(16),
            sa.ForeignKey("game_tables.code", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("body", sa.Text(), nullable=False),
    )
    op.create_table(
        "chat_mutes",
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
    """Drop the chat tables (chat is then kept in memory only)."""
    op.drop_table("chat_mutes")
    op.drop_table("chat_messages")
