"""Names that refer to other entries resolve across the document; each one that does not is reported where it is
written, with a did-you-mean, and all of them at once."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from runner.platform_specs import check_references
from tests.unit.platform_specs.examples import SHA256, VALID, WHEN, messages, problems, read, seed_yaml


def stack(**changes: Any) -> dict[str, Any]:
    """A deployment: host-1 → vm-1 → vm-2 (nested twice), a container on each VM."""
    base = {
        "name": "web",
        "networks": [{"name": "front", "subnet": "10.10.0.0/24"}, {"name": "back", "subnet": "10.20.0.0/24"}],
        "volumes": [{"name": "data", "mount_path": "/data"}],
        "parent_vms": ["host-1"],
        "nested_vms": [
            {"name": "vm-1", "parent_vm": "host-1", "networks": ["front", "back"], "volumes": ["data"],
             "from_golden_image": "k8s-node"},
            {"name": "vm-2", "parent_vm": "vm-1", "networks": ["back"]},
        ],
        "containers": [
            {"name": "web-1", "image": "nginx", "parent_vm": "vm-1", "networks": ["front"],
             "volumes": [{"data": "/usr/share/nginx/html"}]},
        ],
    }
    return {**base, **changes}


def document(**changes: Any) -> dict[str, Any]:
    base = {"golden_images": [{"name": "k8s-node", "taskservs": ["containerd", "kubernetes"]}],
            "deployments": [stack()]}
    return {**base, **changes}


def vms(*changes: dict[str, Any]) -> list[dict[str, Any]]:
    """The deployment's nested VMs with ``changes`` merged into each, in order."""
    nested = copy.deepcopy(stack()["nested_vms"])
    return [{**vm, **change} for vm, change in zip(nested, changes, strict=False)] + nested[len(changes):]


def test_a_document_whose_names_all_resolve_reads() -> None:
    assert messages("nested-provisioning", seed_yaml(document())) == []


def test_an_undefined_parent_is_reported_at_the_name_with_a_did_you_mean() -> None:
    text = seed_yaml(document(deployments=[stack(nested_vms=vms({"parent_vm": "host-2"}))]))
    [error] = problems("nested-provisioning", text)
    assert error.message == "parent VM 'host-2' of 'vm-1' is not defined: name one of parent_vms or a nested VM"
    assert error.hint == "did you mean 'host-1'?"
    assert text.splitlines()[error.position.line - 1].strip() == "parent_vm: host-2"
    assert error.position.column == text.splitlines()[error.position.line - 1].index("host-2") + 1


@pytest.mark.parametrize(("changes", "expected"), [
    ({"nested_vms": vms({"networks": ["front", "backend"]})},
     ["network 'backend' is not defined in deployment 'web'"]),
    ({"nested_vms": vms({"volumes": ["date"]})}, ["volume 'date' is not defined in deployment 'web'"]),
    ({"containers": [{**stack()["containers"][0], "networks": ["dmz"]}]},
     ["network 'dmz' is not defined in deployment 'web'"]),
    ({"containers": [{**stack()["containers"][0], "volumes": [{"logs": "/var/log"}]}]},
     ["volume 'logs' is not defined in deployment 'web'"]),
    ({"containers": [{**stack()["containers"][0], "parent_vm": "vm-9"}]},
     ["parent VM 'vm-9' of container 'web-1' is not defined: name one of parent_vms or a nested VM"]),
    ({"nested_vms": vms({"from_golden_image": "k8s-nodes"})}, ["golden image 'k8s-nodes' is not defined"]),
    ({"nested_vms": vms({}, {"parent_vm": "vm-2"})}, ["nested VMs form a cycle: vm-2 → vm-2"]),
    ({"nested_vms": vms({"parent_vm": "vm-2"})}, ["nested VMs form a cycle: vm-1 → vm-2 → vm-1"]),
    ({"nested_vms": vms({"nested_virt": False})}, ["VM 'vm-1' hosts nested VMs, so it needs nested_virt: true"]),
])
def test_each_name_that_does_not_resolve_is_reported(changes: dict, expected: list[str]) -> None:
    assert messages("multi-tier-deployment", seed_yaml(stack(**changes)), golden_images=["k8s-node"]) == expected


def registry(**changes: Any) -> dict[str, Any]:
    version = {**VALID["golden-image-version"], "build_job_id": "job-1"}
    base = {**VALID["golden-image-registry"],
            "images": {"k8s-node": {"name": "k8s-node", "taskservs": ["containerd", "kubernetes"],
                                    "taskserv_versions": {"kubernetes": "1.28.0"}}},
            "versions": [version, {**version, "version": "0.9.0", "deprecated": True,
                                   "replacement_version": "1.0.0"}],
            "builds": [VALID["golden-image-build-job"]],
            "cache": [VALID["golden-image-cache"]]}
    return {**base, **changes}


def written_at(text: str, where: str) -> str:
    """The text at ``seed.yml:LINE:COL`` to the end of its line."""
    _, line, column = where.split(":")
    return text.splitlines()[int(line) - 1][int(column) - 1:]


@pytest.mark.parametrize(("kind", "data", "message"), [
    ("multi-tier-deployment",
     stack(volumes=[{"name": "data", "mount_path": "/a"}, {"name": "data", "mount_path": "/b"}]),
     "volume 'data' is defined twice"),
    ("multi-tier-deployment", stack(parent_vms=["host-1", "vm-2"]), "VM 'vm-2' is defined twice"),
    ("nested-provisioning", document(deployments=[stack(), stack()]), "deployment 'web' is defined twice"),
    ("golden-image-registry", registry(builds=[VALID["golden-image-build-job"]] * 2),
     "build job 'job-1' is defined twice"),
])
def test_a_name_defined_twice_is_reported_at_the_second_pointing_at_the_first(kind: str, data: dict,
                                                                             message: str) -> None:
    text = seed_yaml(data)
    [error] = problems(kind, text)
    name = message.split("'")[1]
    assert error.message.startswith(f"{message} (first defined at seed.yml:")
    first = error.message.removeprefix(f"{message} (first defined at ").removesuffix(")")
    assert written_at(text, first) == name
    assert written_at(text, str(error.position)) == name
    assert error.position.line > int(first.split(":")[1])


def test_every_problem_of_a_document_is_reported_at_once() -> None:
    broken = stack(nested_vms=vms({"networks": ["frnt"], "parent_vm": "host-9"}),
                   containers=[{**stack()["containers"][0], "networks": ["dmz"]}])
    found = problems("nested-provisioning", seed_yaml(document(deployments=[broken])))
    assert [(error.message, error.hint) for error in found] == [
        ("parent VM 'host-9' of 'vm-1' is not defined: name one of parent_vms or a nested VM",
         "did you mean 'host-1'?"),
        ("network 'frnt' is not defined in deployment 'web'", "did you mean 'front'?"),
        ("network 'dmz' is not defined in deployment 'web'", None),
    ]
    assert [error.position.line for error in found] == sorted(error.position.line for error in found)


def test_golden_images_are_the_documents_own_and_those_passed_in() -> None:
    text = seed_yaml(document(golden_images=[]))
    assert messages("nested-provisioning", text) == ["golden image 'k8s-node' is not defined"]
    assert messages("nested-provisioning", text, golden_images={"k8s-node"}) == []
    # A deployment on its own checks images only when told which exist.
    assert messages("multi-tier-deployment", seed_yaml(stack())) == []


@pytest.mark.parametrize(("policy", "expected"), [
    ({"max_nesting_depth": 2}, ["VM 'vm-2' is nested 3 levels deep; max_nesting_depth is 2",
                                "container 'web-1' is nested 3 levels deep; max_nesting_depth is 2"]),
    ({"max_vms_per_parent": 1, "max_containers_per_vm": 1}, []),
    ({"max_cpu_per_vm": 1}, ["VM 'vm-1' asks for cpu 2; the policy's max_cpu_per_vm is 1",
                             "VM 'vm-2' asks for cpu 2; the policy's max_cpu_per_vm is 1"]),
])
def test_the_policy_limits_every_deployment(policy: dict, expected: list[str]) -> None:
    assert messages("nested-provisioning", seed_yaml(document(policy=policy))) == expected


def test_fan_out_over_the_policy_is_reported_once_per_parent_at_the_first_child_over() -> None:
    three = [{"name": f"vm-{n}", "parent_vm": "host-1", "networks": []} for n in range(1, 4)]
    text = seed_yaml(document(policy={"max_vms_per_parent": 2}, deployments=[stack(nested_vms=three, containers=[])]))
    [error] = problems("nested-provisioning", text)
    assert error.message == "'host-1' holds more than 2 nested VMs; max_vms_per_parent is 2"
    assert "vm-3" in text.splitlines()[error.position.line - 2]


def test_the_default_policy_applies_when_none_is_written() -> None:
    big = stack(nested_vms=vms({"cpu": 20, "memory_mb": 40000, "disk_gb": 600}))
    assert messages("nested-provisioning", seed_yaml(document(deployments=[big]))) == [
        "VM 'vm-1' asks for cpu 20; the policy's max_cpu_per_vm is 16",
        "VM 'vm-1' asks for memory_mb 40000; the policy's max_memory_per_vm is 32768",
        "VM 'vm-1' asks for disk_gb 600; the policy's max_disk_per_vm is 500",
    ]


def test_snapshots_and_network_policies_name_what_the_deployments_define() -> None:
    snapshot = {"name": "s1", "volume_name": "dta", "created_at": WHEN, "size_gb": 1.0, "checksum": SHA256}
    policies = [{"name": "in", "source": "0.0.0.0/0", "destination": "vm-1"},
                {"name": "out", "source": "web-1", "destination": "internet"}]
    text = seed_yaml(document(snapshots=[snapshot], network_policies=policies))
    assert [(error.message, error.hint) for error in problems("nested-provisioning", text)] == [
        ("volume 'dta' of snapshot 's1' is not defined in any deployment", "did you mean 'data'?"),
        ("destination 'internet' of policy 'out' is neither a CIDR nor the name of a VM, container or network", None),
    ]


def test_a_golden_image_registry_whose_names_resolve_reads() -> None:
    assert messages("golden-image-registry", seed_yaml(registry()), taskservs={"containerd", "kubernetes"}) == []


@pytest.mark.parametrize(("changes", "expected"), [
    ({"images": {"k8s": {"name": "k8s-node"}}},
     ["image 'k8s' is named 'k8s-node'; the key must be the image's name",
      "image 'k8s-node' of version 1.0.0 is not in images", "image 'k8s-node' of version 0.9.0 is not in images"]),
    ({"versions": [{**VALID["golden-image-version"], "build_job_id": "job-2", "replacement_version": "2.0.0"}]},
     ["build job 'job-2' is not in builds", "replacement version '2.0.0' is not a version of image 'k8s-node'"]),
    ({"cache": [{**VALID["golden-image-cache"], "image_version": "1.1.0"}]},
     ["cache entry 'cache-1' holds k8s-node 1.1.0, which is not in versions"]),
    ({"builds": [{**VALID["golden-image-build-job"], "image_config": {"name": "other"}}]},
     ["build job 'job-1' builds 'k8s-node' but its image_config is named 'other'"]),
])
def test_each_registry_name_that_does_not_resolve_is_reported(changes: dict, expected: list[str]) -> None:
    assert messages("golden-image-registry", seed_yaml(registry(**changes))) == expected


def test_taskserv_names_agree_with_each_other_and_with_the_catalogue() -> None:
    image = {"name": "k8s-node", "taskservs": ["containerd", "kubernetes"], "exclude_taskservs": ["containerd"],
             "taskserv_versions": {"kubernets": "1.28.0"}}
    found = problems("golden-image-config", seed_yaml(image), taskservs={"containerd", "kubernetes", "cilium"})
    assert [(error.message, error.hint) for error in found] == [
        ("taskserv 'containerd' is both installed and excluded in image 'k8s-node'", None),
        ("taskserv_versions pins 'kubernets', which image 'k8s-node' does not install", "did you mean 'kubernetes'?"),
    ]
    assert messages("image-build-steps", "install_order: [runc, containerd, kubelet]\n",
                    taskservs=["runc", "containerd", "kubernetes"]) == ["taskserv 'kubelet' is not defined"]
    # Without the catalogue, names are only checked against each other.
    assert messages("image-build-steps", "install_order: [anything]\n") == []


def test_quotas_are_for_namespaces_the_registry_has() -> None:
    config = {**VALID["oci-registry-config"], "namespaces": {"custom": {"team": "team-a"}},
              "features": {"quota_enabled": True, "quota_config": {"namespace_quotas": {
                  "provisioning-extensions": {}, "team-a": {}, "provisioning-extension": {}}}}}
    [error] = problems("oci-registry-config", seed_yaml(config))
    assert error.message == "quota for namespace 'provisioning-extension', which is not a namespace of this registry"
    assert error.hint == "did you mean 'provisioning-extensions'?"


def test_check_references_works_on_models_built_in_python_too() -> None:
    model = read("multi-tier-deployment", seed_yaml(stack()))
    model.nested_vms[1].parent_vm = "nowhere"
    [error] = check_references(model)
    assert error.message.startswith("parent VM 'nowhere' of 'vm-2' is not defined")
