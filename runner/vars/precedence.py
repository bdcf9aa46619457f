"""Ansible's variable precedence, lowest first, as its documentation lists it.

    role defaults
    inventory file or script group vars
    inventory group_vars/all
    playbook group_vars/all
    inventory group_vars/*
    playbook group_vars/*
    inventory file or script host vars     (INVENTORY: an inventory's merged view of group and host vars)
    inventory host_vars/*
    playbook host_vars/*
    host facts / cached set_facts          (ansible_facts and the ansible_* aliases)
    play vars
    play vars_prompt
    play vars_files
    role vars (vars/main.yml)
    block vars (only for tasks in the block)
    task vars (only for the task)
    include_vars
    set_facts / registered vars
    role (and include_role) params
    include params
    extra vars (-e, always win)

Two levels sit outside the list: loop variables (``item``, ``ansible_loop``, the ``index_var``) are set for one
loop iteration above extra vars, as Ansible sets them on the task's final variables; and magic variables
(``inventory_hostname``, ``hostvars``...) cannot be overridden at all.
"""

from __future__ import annotations

from enum import IntEnum

from runner.errors import did_you_mean


class Precedence(IntEnum):
    ROLE_DEFAULTS = 2
    INVENTORY_FILE_GROUP_VARS = 3
    INVENTORY_GROUP_VARS_ALL = 4
    PLAYBOOK_GROUP_VARS_ALL = 5
    INVENTORY_GROUP_VARS = 6
    PLAYBOOK_GROUP_VARS = 7
    INVENTORY_FILE_HOST_VARS = 8
    INVENTORY_HOST_VARS = 9
    INVENTORY = 9  # alias: an inventory that hands over one merged mapping per host sits here
    PLAYBOOK_HOST_VARS = 10
    FACTS = 11
    PLAY_VARS = 12
    PLAY_VARS_PROMPT = 13
    PLAY_VARS_FILES = 14
    ROLE_VARS = 15
    BLOCK_VARS = 16
    TASK_VARS = 17
    INCLUDE_VARS = 18
    SET_FACT = 19
    REGISTERED = 19  # alias: register and set_fact share a level
    ROLE_PARAMS = 20
    INCLUDE_PARAMS = 21
    EXTRA_VARS = 22
    LOOP = 23


def precedence_of(level: str | int | Precedence) -> Precedence:
    """``Precedence`` from a member, its value, or its name in any case (``"play_vars"``)."""
    if isinstance(level, Precedence):
        return level
    if isinstance(level, int):
        return Precedence(level)
    try:
        return Precedence[level.upper()]
    except KeyError:
        hint = did_you_mean(level.upper(), list(Precedence.__members__))
        raise ValueError(f"unknown variable level '{level}'" + (f" ({hint})" if hint else "")) from None
