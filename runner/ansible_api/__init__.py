"""Modules written against Ansible's Python API (``ansible.module_utils``), run through a compatibility layer.

Such a module is found by an AST look at its imports (``detect``), packed on the controller into one zip with the
``module_utils`` it imports (``packer``: the installed ansible-core's, the project's ``module_utils/`` and the
collections'), sent to the agent once per host by sha256 and run there in a forked child with Ansible's argument
passing (``arguments``). ansible-core is the user's install (GPLv3, never shipped with this project): without it
such a module is a compile error that says what to install.
"""
