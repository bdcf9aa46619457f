"""Taskservs: roles that carry a ``taskserv:`` section in ``meta/main.yml`` (version, requirements, conflicts,
health check, supported systems), and how the taskservs of a host are put in order.

- ``runner.taskservs.catalog``: finding a taskserv's role and reading its section.
- ``runner.taskservs.resolve``: requirements, optional ones, conflicts and versions into one install order.
- ``runner.taskservs.tasks``: the tasks a taskserv adds around its role (system check, health check).

The section itself is a model of the role's metadata, ``runner.models.taskserv`` (``RoleMeta.taskserv``): the
models read it with every role, and this package builds on them.
"""
