"""Roles through an OCI registry: references, versions and requirements, resolving and locking, pushing and
installing archives, the local registry for tests (see docs/roles-oci.md).

This ``__init__`` imports nothing: ``provisioning-galaxy`` loads only the modules a subcommand needs.
"""
