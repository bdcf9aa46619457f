"""What a resumed run needs: the variables each result set for hosts, the hosts that finished each play, and
the hash of the plan without its variables' values.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("runs") as runs:  # SQLite alters a table by copying it: batch mode does that
        runs.add_column(sa.Column("tasks_hash", sa.String(64)))
    op.create_table(
        "host_values",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("task_id", sa.Integer()),
        sa.Column("host", sa.String(255), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("value", sa.JSON(none_as_null=True)),
        sa.Column("censored", sa.Boolean(), nullable=False),
        sa.Column("names", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"], name="fk_host_values_run_id_runs", ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["task_id"], ["tasks.id"], name="fk_host_values_task_id_tasks",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_host_values"),
    )
    op.create_index("ix_host_values_run_id", "host_values", ["run_id"])
    op.create_table(
        "play_hosts",
        sa.Column("play_id", sa.Integer(), nullable=False),
        sa.Column("host", sa.String(255), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["play_id"], ["plays.id"], name="fk_play_hosts_play_id_plays", ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"], name="fk_play_hosts_run_id_runs", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("play_id", "host", name="pk_play_hosts"),
    )
    op.create_index("ix_play_hosts_run_id", "play_hosts", ["run_id"])


def downgrade() -> None:
    for table in ("play_hosts", "host_values"):
        op.drop_table(table)
    with op.batch_alter_table("runs") as runs:
        runs.drop_column("tasks_hash")
