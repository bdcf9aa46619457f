"""Taskservs: roles that carry a ``taskserv:`` section in ``meta/main.yml`` (version, requirements, conflicts,
health check, supported systems), and how the taskservs of a host are put in order.

- ``runner.taskservs.meta``: the ``taskserv:`` section as a model (``RoleMeta.taskserv``).
- ``runner.taskservs.catalog``: finding a taskserv's role and reading its section.
- ``runner.taskservs.resolve``: requirements, optional ones, conflicts and versions into one install order.
- ``runner.taskservs.tasks``: the tasks a taskserv adds around its role (system check, health check).

This package's ``__init__`` imports nothing: ``runner.models.role`` imports the section's model, and the other
modules import the role loader, which imports ``runner.models.role``.
"""
