"""A filter written without Ansible's API: loads with or without ansible-core."""


def shout(value):
    return str(value).upper() + "!"


class FilterModule:
    def filters(self):
        return {"shout": shout}
