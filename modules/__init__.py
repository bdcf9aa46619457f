"""The module library: one standalone file per module, run on the target with the standard library alone.

See ``_utils.py`` for what a module file defines and the helpers every module shares.
"""
