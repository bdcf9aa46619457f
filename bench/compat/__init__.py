"""Compatibility suite: ansible-core's own integration targets, run over SSH against local test hosts.

The targets come from the pinned ansible-core sdist, downloaded and verified at run time (they are GPLv3 and
never copied into this repository). ``python -m bench.compat`` runs them with our CLIs or with ansible-core.
"""
