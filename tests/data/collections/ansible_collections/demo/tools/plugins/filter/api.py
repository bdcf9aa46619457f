"""A filter written against Ansible's API, with a relative import of its collection's module_utils."""

from ansible.errors import AnsibleFilterError

from ..module_utils.text import exclaim


def emphasize(value, times=1):
    if not isinstance(value, str):
        raise AnsibleFilterError("emphasize wants a string")
    return exclaim(value, times)


class FilterModule:
    def filters(self):
        return {"emphasize": emphasize}
