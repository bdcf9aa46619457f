"""The run records' tables, as SQLAlchemy Core: one schema for SQLite and PostgreSQL.

The Alembic migrations in ``migrations/versions`` build exactly these tables (a test compares them); a change
here goes with a new migration, and ``runner.records.migrations.HEAD_REVISION`` names the newest.

A run owns its plays, tasks (handlers are tasks with ``is_handler``), host results, per-host counts and the list
of files it read; file contents are stored once, by sha256, whichever runs read them. ``host_facts`` keeps the
latest facts of each host. Times are UTC.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
)

# Constraint names spelled out, so the migrations and both databases agree on them.
metadata = MetaData(naming_convention={
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
})

runs = Table(
    "runs", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("kind", String(16), nullable=False),  # playbook | adhoc | infra
    # running | ok | failed | unreachable | error | interrupted
    Column("status", String(16), nullable=False),
    Column("command", Text, nullable=False),  # the command line, secrets masked
    Column("playbook", Text),  # the playbook's resolved path (ad-hoc: none)
    Column("user", String(255), nullable=False),
    Column("controller", String(255), nullable=False),  # the machine the run ran on
    Column("pid", Integer, nullable=False),
    # The controller's start time (clock ticks since boot): with the pid, tells a live run from a reused pid.
    Column("pid_started", BigInteger),
    Column("project_path", Text, nullable=False),
    Column("git_commit", String(64)),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("ended_at", DateTime(timezone=True)),
    Column("exit_code", Integer),
    Column("check_mode", Boolean, nullable=False),
    Column("diff_mode", Boolean, nullable=False),
    Column("plan_hash", String(64)),  # sha256 of the compiled plan's JSON
    # sha256 of the plan without its variables' values: what --resume compares (a fix by a variable resumes)
    Column("tasks_hash", String(64)),
    Index(None, "started_at"),
    Index(None, "playbook"),
)

plays = Table(
    "plays", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("run_id", Integer, ForeignKey("runs.id", ondelete="CASCADE"), nullable=False),
    Column("seq", Integer, nullable=False),  # 1, 2, ... in the order the run played them
    Column("name", Text, nullable=False),
    Column("pattern", Text, nullable=False),
    Column("position", Text, nullable=False),  # file:line:col
    Column("started_at", DateTime(timezone=True), nullable=False),
    Index(None, "run_id"),
)

tasks = Table(
    "tasks", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("run_id", Integer, ForeignKey("runs.id", ondelete="CASCADE"), nullable=False),
    Column("play_id", Integer, ForeignKey("plays.id", ondelete="CASCADE")),
    Column("seq", Integer, nullable=False),
    Column("uid", String(255)),  # tells apart two tasks of one file:line (a file both imported and included)
    Column("name", Text, nullable=False),
    Column("module", String(255), nullable=False),
    Column("role", String(255)),
    Column("file", Text, nullable=False),
    Column("line", Integer),
    Column("is_handler", Boolean, nullable=False),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Index(None, "run_id"),
)

host_results = Table(
    "host_results", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("run_id", Integer, ForeignKey("runs.id", ondelete="CASCADE"), nullable=False),
    Column("task_id", Integer, ForeignKey("tasks.id", ondelete="CASCADE"), nullable=False),
    Column("host", String(255), nullable=False),
    Column("status", String(16), nullable=False),  # ok | changed | failed | skipped | unreachable
    Column("changed", Boolean, nullable=False),
    Column("ignored", Boolean, nullable=False),
    Column("delegated_to", String(255)),
    Column("duration", Float),  # seconds
    Column("ended_at", DateTime(timezone=True), nullable=False),
    # As the JSON report stores it (no_log censored, secrets masked); a fact-gathering result without its facts.
    Column("result", JSON(none_as_null=True), nullable=False),
    Column("diff", JSON(none_as_null=True)),
    Index(None, "run_id"),
    Index(None, "task_id"),
    Index(None, "host", "ended_at"),
)

run_hosts = Table(
    "run_hosts", metadata,
    Column("run_id", Integer, ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True),
    Column("host", String(255), primary_key=True),
    *(Column(name, Integer, nullable=False)
      for name in ("ok", "changed", "unreachable", "failed", "skipped", "rescued", "ignored")),
    Index(None, "host"),
)

host_facts = Table(
    "host_facts", metadata,
    Column("host", String(255), primary_key=True),
    Column("run_id", Integer, ForeignKey("runs.id", ondelete="SET NULL")),  # the run that last gathered them
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("facts", JSON, nullable=False),
)

files = Table(
    "files", metadata,
    Column("sha256", String(64), primary_key=True),
    Column("size", BigInteger, nullable=False),
    Column("content", LargeBinary, nullable=False),
)

run_files = Table(
    "run_files", metadata,
    Column("run_id", Integer, ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True),
    Column("path", Text, primary_key=True),
    Column("kind", String(16), nullable=False),  # playbook | role | vars | inventory
    Column("sha256", String(64), ForeignKey("files.sha256"), nullable=False),
    Index(None, "sha256"),
)

# What a resumed run restores (``provisioning-playbook --resume``): the variables each result set for hosts
# (register and set_fact values, include_vars values), in the order they were set. Values set by a no_log task
# are not stored (``censored``): a resumed run cannot restore them.
host_values = Table(
    "host_values", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("run_id", Integer, ForeignKey("runs.id", ondelete="CASCADE"), nullable=False),
    # null: restored at the start of a resumed run from the run it resumed
    Column("task_id", Integer, ForeignKey("tasks.id", ondelete="CASCADE")),
    Column("host", String(255), nullable=False),
    Column("kind", String(16), nullable=False),  # vars | include_vars
    Column("value", JSON(none_as_null=True)),  # name -> value; null when censored
    Column("censored", Boolean, nullable=False),
    Column("names", JSON, nullable=False),  # the variables' names (kept when the values are censored)
    Index(None, "run_id"),
)

# The hosts that finished a play (their batch ended without a failure of theirs): a resumed run leaves them out
# of that play.
play_hosts = Table(
    "play_hosts", metadata,
    Column("play_id", Integer, ForeignKey("plays.id", ondelete="CASCADE"), primary_key=True),
    Column("host", String(255), primary_key=True),
    Column("run_id", Integer, ForeignKey("runs.id", ondelete="CASCADE"), nullable=False),
    Index(None, "run_id"),
)
