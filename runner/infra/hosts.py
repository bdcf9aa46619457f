"""What a server of an infra is as an inventory host: its groups and its ``provisioning_*`` variables.

Its labels, its clusters and its taskservs (``taskserv_<name>``, the cluster's included) are its groups; it gets
``provisioning_infra`` (the infra's name), ``provisioning_infra_file``, ``provisioning_server`` (its settings),
``provisioning_taskservs`` (``[{name, profile, vars}]``, its own before its clusters') and
``provisioning_clusters``. The infra inventory source (``runner.providers.infra_inventory``) and the compiler's
infra plays (``runner.compiler.infra``) both describe hosts this way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from runner.infra.models import Infra
from runner.infra.servers import AnyServer, TaskservRef

TASKSERV_GROUP_PREFIX = "taskserv_"
_NOT_SERVER_SETTINGS = {"taskservs", "vars", "position"}


def host_groups(infra: Infra, server: AnyServer) -> list[str]:
    """The groups a server's host is in: its labels, its clusters, ``taskserv_<name>`` of what it carries."""
    clusters = infra.clusters_of(server)
    return [*server.labels, *(cluster.name for cluster in clusters),
            *(TASKSERV_GROUP_PREFIX + taskserv.name for taskserv in _taskservs(server, clusters))]


def provisioning_vars(infra: Infra, server: AnyServer, path: Path | None) -> dict[str, Any]:
    """The ``provisioning_*`` variables of a server's host."""
    clusters = infra.clusters_of(server)
    return {
        "provisioning_infra": infra.name,
        "provisioning_infra_file": str(path) if path else None,
        "provisioning_server": server.model_dump(mode="json", exclude=_NOT_SERVER_SETTINGS),
        "provisioning_taskservs": [taskserv.model_dump(mode="json", exclude={"position"})
                                   for taskserv in _taskservs(server, clusters)],
        "provisioning_clusters": [cluster.name for cluster in clusters],
    }


def _taskservs(server: AnyServer, clusters: list[Any]) -> list[TaskservRef]:
    found = {taskserv.name: taskserv for taskserv in server.taskservs}
    for cluster in clusters:
        for taskserv in cluster.taskservs:
            found.setdefault(taskserv.name, taskserv)
    return list(found.values())
