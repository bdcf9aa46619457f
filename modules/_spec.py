"""Argument specs derived from documented options, so a module states each option once.

A module whose DOCUMENTATION options carry type, default, choices, aliases, required, elements and no_log can
write ``ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])`` and never let the two drift apart.
"""

SPEC_KEYS = ("type", "default", "choices", "aliases", "required", "elements", "no_log", "options")


def argument_spec(options):
    """The ARGUMENT_SPEC for documented ``options``: everything but the description of each one."""
    spec = {}
    for name, option in options.items():
        entry = dict((key, option[key]) for key in SPEC_KEYS if key in option)
        if isinstance(entry.get("options"), dict):
            entry["options"] = argument_spec(entry["options"])
        spec[name] = entry
    return spec
