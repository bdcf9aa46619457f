"""Run records: runs, plays, tasks, host results, per-host counts, latest facts, files read.

Revision ID: 0001
Revises:
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

_COUNTS = ("ok", "changed", "unreachable", "failed", "skipped", "rescued", "ignored")


def _stamp() -> sa.DateTime:
    return sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "runs",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("command", sa.Text(), nullable=False),
        sa.Column("playbook", sa.Text()),
        sa.Column("user", sa.String(255), nullable=False),
        sa.Column("controller", sa.String(255), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("pid_started", sa.BigInteger()),
        sa.Column("project_path", sa.Text(), nullable=False),
        sa.Column("git_commit", sa.String(64)),
        sa.Column("started_at", _stamp(), nullable=False),
        sa.Column("ended_at", _stamp()),
        sa.Column("exit_code", sa.Integer()),
        sa.Column("check_mode", sa.Boolean(), nullable=False),
        sa.Column("diff_mode", sa.Boolean(), nullable=False),
        sa.Column("plan_hash", sa.String(64)),
        sa.PrimaryKeyConstraint("id", name="pk_runs"),
    )
    op.create_index("ix_runs_started_at", "runs", ["started_at"])
    op.create_index("ix_runs_playbook", "runs", ["playbook"])

    op.create_table(
        "plays",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("pattern", sa.Text(), nullable=False),
        sa.Column("position", sa.Text(), nullable=False),
        sa.Column("started_at", _stamp(), nullable=False),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"], name="fk_plays_run_id_runs", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_plays"),
    )
    op.create_index("ix_plays_run_id", "plays", ["run_id"])

    op.create_table(
        "tasks",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("play_id", sa.Integer()),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("uid", sa.String(255)),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("module", sa.String(255), nullable=False),
        sa.Column("role", sa.String(255)),
        sa.Column("file", sa.Text(), nullable=False),
        sa.Column("line", sa.Integer()),
        sa.Column("is_handler", sa.Boolean(), nullable=False),
        sa.Column("started_at", _stamp(), nullable=False),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"], name="fk_tasks_run_id_runs", ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["play_id"], ["plays.id"], name="fk_tasks_play_id_plays", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_tasks"),
    )
    op.create_index("ix_tasks_run_id", "tasks", ["run_id"])

    op.create_table(
        "host_results",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("task_id", sa.Integer(), nullable=False),
        sa.Column("host", sa.String(255), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("changed", sa.Boolean(), nullable=False),
        sa.Column("ignored", sa.Boolean(), nullable=False),
        sa.Column("delegated_to", sa.String(255)),
        sa.Column("duration", sa.Float()),
        sa.Column("ended_at", _stamp(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.Column("diff", sa.JSON()),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"], name="fk_host_results_run_id_runs", ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["task_id"], ["tasks.id"], name="fk_host_results_task_id_tasks",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_host_results"),
    )
    op.create_index("ix_host_results_run_id", "host_results", ["run_id"])
    op.create_index("ix_host_results_task_id", "host_results", ["task_id"])
    op.create_index("ix_host_results_host_ended_at", "host_results", ["host", "ended_at"])

    op.create_table(
        "run_hosts",
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("host", sa.String(255), nullable=False),
        *(sa.Column(name, sa.Integer(), nullable=False) for name in _COUNTS),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"], name="fk_run_hosts_run_id_runs", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("run_id", "host", name="pk_run_hosts"),
    )
    op.create_index("ix_run_hosts_host", "run_hosts", ["host"])

    op.create_table(
        "host_facts",
        sa.Column("host", sa.String(255), nullable=False),
        sa.Column("run_id", sa.Integer()),
        sa.Column("updated_at", _stamp(), nullable=False),
        sa.Column("facts", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"], name="fk_host_facts_run_id_runs", ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("host", name="pk_host_facts"),
    )

    op.create_table(
        "files",
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("size", sa.BigInteger(), nullable=False),
        sa.Column("content", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("sha256", name="pk_files"),
    )

    op.create_table(
        "run_files",
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("path", sa.Text(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"], name="fk_run_files_run_id_runs", ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["sha256"], ["files.sha256"], name="fk_run_files_sha256_files"),
        sa.PrimaryKeyConstraint("run_id", "path", name="pk_run_files"),
    )
    op.create_index("ix_run_files_sha256", "run_files", ["sha256"])


def downgrade() -> None:
    for table in ("run_files", "files", "host_facts", "run_hosts", "host_results", "tasks", "plays", "runs"):
        op.drop_table(table)
