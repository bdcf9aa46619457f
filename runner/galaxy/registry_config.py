"""The registry file (``[galaxy] registry_file``): an OCI registry configuration of the seed schema, in YAML.

The models are the seed schema's own, in ``runner.platform_specs.oci_registry`` (every field, default and check message
of ``OCIRegistryConfig`` and what it contains, Zot and Harbor included); this module reads a registry file as
one and says what galaxy takes from it: the address (endpoint and port), TLS (``ca_cert_path``,
``remote.verify_ssl``), authentication (``username`` with ``password_path``, or ``auth_token_path``), the remote
timeout and retries, and ``namespaces.extensions`` as the namespace of roles named without one.
"""

from __future__ import annotations

from pathlib import Path

from runner.errors import OptionError
from runner.platform_specs import validate_seed_file
from runner.platform_specs.oci_registry import OCIRegistryConfig

# The schema's port comment says "defaults by type": these are usually served behind HTTPS on 443.
HTTPS_DEFAULT_TYPES = frozenset({"harbor", "artifactory"})


def load_registry_file(path: Path) -> OCIRegistryConfig:
    """The registry file at ``path``, validated; every problem is reported at its file:line:col."""
    if not path.is_file():
        raise OptionError(f"the registry file {path} does not exist ([galaxy] registry_file)")
    return validate_seed_file(path, "oci-registry-config")


def registry_address(config: OCIRegistryConfig) -> str:
    """``host[:port]`` as references and credentials name the registry.

    The schema's port default (5000) is a distribution/Zot port; for Harbor and Artifactory an unset port
    means HTTPS's own.
    """
    port_given = "port" in config.model_fields_set or config.type not in HTTPS_DEFAULT_TYPES
    return f"{config.endpoint}:{config.port}" if port_given and config.port is not None else config.endpoint
