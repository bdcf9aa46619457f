"""The filesystem-attribute options every file-writing module takes, as Ansible's "files" documentation fragment
names them: ``attributes`` (chattr flags, applied by ``Module.set_file_attributes``), the SELinux context
(``seuser``, ``serole``, ``setype``, ``selevel``) and ``unsafe_writes``.

The SELinux options change nothing on a host without SELinux, exactly as Ansible's do there (its modules skip
every context call when SELinux is disabled); hosts this runner supports have none, so they are accepted and
ignored. ``unsafe_writes`` is honoured by ``Module.atomic_write``: when the atomic rename is refused (a file
bind-mounted into a container, a busy file), the content is written in place instead of failing.
"""

from modules._spec import argument_spec

_SELINUX_NOTE = " Accepted and ignored on hosts without SELinux, as Ansible does."

FILESYSTEM_ATTRIBUTE_DOCS = {
    "attributes": {"description": "Filesystem flags the file should have, as chattr takes them ('i', '+a', '-e'): "
                                  "without an operator the flags are set to exactly these (lsattr's order); a "
                                  "filesystem without flags fails the task with 'chattr failed'.",
                   "type": "str", "aliases": ["attr"]},
    "seuser": {"description": "The user part of the file's SELinux context." + _SELINUX_NOTE, "type": "str"},
    "serole": {"description": "The role part of the file's SELinux context." + _SELINUX_NOTE, "type": "str"},
    "setype": {"description": "The type part of the file's SELinux context." + _SELINUX_NOTE, "type": "str"},
    "selevel": {"description": "The level part of the file's SELinux context." + _SELINUX_NOTE, "type": "str"},
    "unsafe_writes": {"description": "When the atomic rename of the new file is refused (a bind-mounted or busy "
                                     "file), write the content in place rather than fail.",
                      "type": "bool", "default": False},
}
FILESYSTEM_ATTRIBUTE_SPEC = argument_spec(FILESYSTEM_ATTRIBUTE_DOCS)
