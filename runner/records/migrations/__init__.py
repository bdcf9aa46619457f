"""The Alembic migrations of the runs database (``versions/``), and the newest one's id.

``HEAD_REVISION`` is kept here, free of SQLAlchemy, so a run can tell an up-to-date database without loading
SQLAlchemy or Alembic; a test checks it names the newest migration.
"""

HEAD_REVISION = "0002"
