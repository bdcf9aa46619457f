"""Names in nested provisioning: parents, networks, volumes and golden images resolve; the nesting policy's
limits hold.

Nesting is counted as "VM → VM → containers" reads at the default limit of 3: a parent VM (a server the
provider creates) is level 1, a nested VM one level below its parent, a container one level below its VM.
"""

from __future__ import annotations

from collections.abc import Collection

from runner.errors import SourcePosition
from runner.platform_specs.base import SeedModel
from runner.platform_specs.document import NestedProvisioning
from runner.platform_specs.formats import is_network
from runner.platform_specs.nested import ContainerConfig, MultiTierDeployment, NestedProvisioningPolicy, NestedVmConfig
from runner.platform_specs.references.problems import Problems
from runner.platform_specs.references.taskservs import check_image_taskservs


def check_document(document: NestedProvisioning, *, taskservs: Collection[str] | None,
                   golden_images: Collection[str] | None, problems: Problems) -> None:
    problems.duplicates("golden image", ((image.name, image.at("name")) for image in document.golden_images))
    for image in document.golden_images:
        check_image_taskservs(image, taskservs, problems)
    images = {image.name for image in document.golden_images} | set(golden_images or ())
    problems.duplicates("deployment", ((stack.name, stack.at("name")) for stack in document.deployments))
    for stack in document.deployments:
        check_deployment(stack, golden_images=images, policy=document.policy, problems=problems)
    _check_snapshots(document, problems)
    _check_network_policies(document, problems)


def check_deployment(stack: MultiTierDeployment, *, golden_images: Collection[str] | None,
                     policy: NestedProvisioningPolicy | None, problems: Problems) -> None:
    """Names within one deployment; ``golden_images`` None leaves ``from_golden_image`` unchecked, ``policy``
    None the policy's limits."""
    _check_unique(stack, problems)
    networks = [network.name for network in stack.networks]
    volumes = [volume.name for volume in stack.volumes]
    hosts = [*stack.parent_vms, *(vm.name for vm in stack.nested_vms)]
    for vm in stack.nested_vms:
        _check_names(vm, "networks", vm.networks, "network", networks, stack, problems)
        _check_names(vm, "volumes", vm.volumes or [], "volume", volumes, stack, problems)
        _check_parent(vm, f"'{vm.name}'", hosts, problems)
        if golden_images is not None and vm.from_golden_image is not None and vm.from_golden_image not in golden_images:
            problems.unknown(f"golden image '{vm.from_golden_image}' is not defined", vm.from_golden_image,
                             golden_images, vm.at("from_golden_image"))
    for container in stack.containers:
        _check_names(container, "networks", container.networks or [], "network", networks, stack, problems)
        for index, mount in enumerate(container.volumes or []):
            for name in mount:
                if name not in volumes:
                    problems.unknown(f"volume '{name}' is not defined in deployment '{stack.name}'", name, volumes,
                                     container.at("volumes", index, name, key=True))
        _check_parent(container, f"container '{container.name}'", hosts, problems)
    levels = _nesting_levels(stack, problems)
    _check_nested_virt(stack, problems)
    if policy is not None:
        _check_policy(stack, levels, policy, problems)


def _check_unique(stack: MultiTierDeployment, problems: Problems) -> None:
    problems.duplicates("network", ((network.name, network.at("name")) for network in stack.networks))
    problems.duplicates("volume", ((volume.name, volume.at("name")) for volume in stack.volumes))
    problems.duplicates("VM", [*((name, stack.at("parent_vms", index)) for index, name in enumerate(stack.parent_vms)),
                               *((vm.name, vm.at("name")) for vm in stack.nested_vms)])
    problems.duplicates("container", ((container.name, container.at("name")) for container in stack.containers))


def _check_names(owner: SeedModel, field: str, names: list[str], what: str, known: list[str],
                 stack: MultiTierDeployment, problems: Problems) -> None:
    """Each of ``names`` (the list at ``field`` of ``owner``) is the name of a ``what`` of the deployment."""
    for index, name in enumerate(names):
        if name not in known:
            problems.unknown(f"{what} '{name}' is not defined in deployment '{stack.name}'", name, known,
                             owner.at(field, index))


def _check_parent(child: NestedVmConfig | ContainerConfig, label: str, hosts: list[str], problems: Problems) -> None:
    if child.parent_vm not in hosts:
        problems.unknown(f"parent VM '{child.parent_vm}' of {label} is not defined: name one of parent_vms or a "
                         "nested VM", child.parent_vm, hosts, child.at("parent_vm"))


def _nesting_levels(stack: MultiTierDeployment, problems: Problems) -> dict[str, int]:
    """Level of every VM (parent VMs 1); a VM in a cycle of parents is reported once and gets no level."""
    vms = {vm.name: vm for vm in stack.nested_vms}
    levels = dict.fromkeys(stack.parent_vms, 1)
    in_cycle: set[str] = set()
    for vm in stack.nested_vms:
        # Walk up from the VM until a VM whose level is known, a name that is no nested VM, or a repeat.
        chain = [vm.name]
        while chain[-1] in vms and chain[-1] not in levels and vms[chain[-1]].parent_vm not in chain:
            chain.append(vms[chain[-1]].parent_vm)
        top = chain[-1]
        if top in vms and top not in levels:
            cycle = chain[chain.index(vms[top].parent_vm):]
            if not in_cycle & set(cycle):
                problems.add(f"nested VMs form a cycle: {' → '.join([*cycle, cycle[0]])}",
                             vms[cycle[0]].at("parent_vm"))
            in_cycle.update(cycle)
        elif top in levels:  # else an undefined parent, reported on its own
            for depth, name in enumerate(reversed(chain[:-1]), start=1):
                levels[name] = levels[top] + depth
    return levels


def _check_nested_virt(stack: MultiTierDeployment, problems: Problems) -> None:
    parents_of_vms = {vm.parent_vm for vm in stack.nested_vms}
    for vm in stack.nested_vms:
        if vm.name in parents_of_vms and vm.nested_virt is False:
            problems.add(f"VM '{vm.name}' hosts nested VMs, so it needs nested_virt: true", vm.at("nested_virt"))


def _check_policy(stack: MultiTierDeployment, levels: dict[str, int], policy: NestedProvisioningPolicy,
                  problems: Problems) -> None:
    deepest = policy.max_nesting_depth
    for vm in stack.nested_vms:
        if levels.get(vm.name, 0) > deepest:
            problems.add(f"VM '{vm.name}' is nested {levels[vm.name]} levels deep; max_nesting_depth is {deepest}",
                         vm.at("parent_vm"))
        _check_ceilings(vm, policy, problems)
    for container in stack.containers:
        level = levels[container.parent_vm] + 1 if container.parent_vm in levels else 0
        if level > deepest:
            problems.add(f"container '{container.name}' is nested {level} levels deep; max_nesting_depth is {deepest}",
                         container.at("parent_vm"))
    _check_fan_out([(vm.parent_vm, vm.at("parent_vm")) for vm in stack.nested_vms], policy.max_vms_per_parent,
                   "nested VMs", "max_vms_per_parent", problems)
    _check_fan_out([(c.parent_vm, c.at("parent_vm")) for c in stack.containers], policy.max_containers_per_vm,
                   "containers", "max_containers_per_vm", problems)


def _check_ceilings(vm: NestedVmConfig, policy: NestedProvisioningPolicy, problems: Problems) -> None:
    for field, value, ceiling, limit in (("cpu", vm.cpu, policy.max_cpu_per_vm, "max_cpu_per_vm"),
                                         ("memory_mb", vm.memory_mb, policy.max_memory_per_vm, "max_memory_per_vm"),
                                         ("disk_gb", vm.disk_gb, policy.max_disk_per_vm, "max_disk_per_vm")):
        if value > ceiling:
            problems.add(f"VM '{vm.name}' asks for {field} {value}; the policy's {limit} is {ceiling}", vm.at(field))


def _check_fan_out(children: list[tuple[str, SourcePosition | None]], limit: int, what: str, setting: str,
                   problems: Problems) -> None:
    """Reported once per parent, at the first child over the limit."""
    counts: dict[str, int] = {}
    for parent, where in children:
        counts[parent] = counts.get(parent, 0) + 1
        if counts[parent] == limit + 1:
            problems.add(f"'{parent}' holds more than {limit} {what}; {setting} is {limit}", where)


def _check_snapshots(document: NestedProvisioning, problems: Problems) -> None:
    problems.duplicates("snapshot", ((snapshot.name, snapshot.at("name")) for snapshot in document.snapshots))
    volumes = [volume.name for stack in document.deployments for volume in stack.volumes]
    for snapshot in document.snapshots:
        if snapshot.volume_name not in volumes:
            problems.unknown(f"volume '{snapshot.volume_name}' of snapshot '{snapshot.name}' is not defined in any "
                             "deployment", snapshot.volume_name, volumes, snapshot.at("volume_name"))


def _check_network_policies(document: NestedProvisioning, problems: Problems) -> None:
    problems.duplicates("network policy", ((rule.name, rule.at("name")) for rule in document.network_policies))
    names = [name for stack in document.deployments
             for name in (*stack.parent_vms, *(vm.name for vm in stack.nested_vms),
                          *(container.name for container in stack.containers),
                          *(network.name for network in stack.networks))]
    for rule in document.network_policies:
        for field in ("source", "destination"):
            value = getattr(rule, field)
            if value is not None and not is_network(value) and value not in names:
                problems.unknown(f"{field} '{value}' of policy '{rule.name}' is neither a CIDR nor the name of a VM, "
                                 "container or network", value, names, rule.at(field))
