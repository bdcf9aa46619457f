"""Names in an OCI registry configuration: quotas are set for namespaces the registry has."""

from __future__ import annotations

from runner.platform_specs.oci_registry import OCIRegistryConfig
from runner.platform_specs.references.problems import Problems


def check_registry_config(config: OCIRegistryConfig, problems: Problems) -> None:
    quotas = config.features.quota_config if config.features else None
    if quotas is None:
        return
    namespaces = config.namespaces.names()
    for name in quotas.namespace_quotas or {}:
        if name not in namespaces:
            problems.unknown(f"quota for namespace '{name}', which is not a namespace of this registry", name,
                             namespaces, quotas.at("namespace_quotas", name, key=True))
