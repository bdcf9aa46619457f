DOCUMENTATION = """
name: echo
short_description: the terms, prefixed
description: Each term with a prefix, and the value of a variable the plugin renders itself.
options:
  _terms:
    description: the terms
  prefix:
    description: what goes before each term
    type: str
    default: ">"
"""

from ansible.errors import AnsibleLookupError  # noqa: E402  (Ansible plugins document themselves first)
from ansible.plugins.lookup import LookupBase  # noqa: E402


class LookupModule(LookupBase):
    def run(self, terms, variables=None, **kwargs):
        self.set_options(var_options=variables, direct=kwargs)
        if "boom" in terms:
            raise AnsibleLookupError("echo cannot say boom")
        return [self.get_option("prefix") + str(term) for term in terms]
