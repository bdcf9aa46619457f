"""Requirement resolution: the install order of one host's taskservs, and every error it can find."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.errors import ParseError
from runner.models.validation import ParseErrors
from runner.taskservs.resolve import Wanted, resolve
from tests.unit.taskservs.roles import catalog_of

CONTAINERS = {
    "os": None,
    "runc": 'version: "1.1.12"',
    "containerd": 'version: "1.7.2"\nrequires: ["runc>=1.1"]\nprovides: [container-runtime]',
    "etcd": 'version: "3.5.9"',
    "cilium": 'version: "1.14.0"\nrequires: [kubernetes]',
    "helm": 'version: "3.12.0"',
    "kubernetes": 'version: "1.28.0"\nrequires: ["containerd>=1.6", etcd]\noptional: [helm]\nconflicts: [docker]',
    "docker": 'version: "24.0.0"\nprovides: [container-runtime]',
}


@pytest.fixture
def roles(tmp_path: Path) -> Path:
    return tmp_path / "roles"


def order(catalog, *names: str, host: str | None = None) -> list[str]:
    return resolve([Wanted(name) for name in names], catalog, host=host).names()


def test_requirements_come_first_and_os_before_everything(roles: Path) -> None:
    catalog = catalog_of(roles, CONTAINERS)
    assert order(catalog, "kubernetes") == ["os", "runc", "containerd", "etcd", "kubernetes"]
    steps = resolve([Wanted("kubernetes")], catalog).steps
    assert [(step.name, step.required_by) for step in steps] == [
        ("os", None), ("runc", "containerd"), ("containerd", "kubernetes"), ("etcd", "kubernetes"),
        ("kubernetes", None)]


def test_a_shared_requirement_is_installed_once_and_the_order_follows_what_was_asked(roles: Path) -> None:
    catalog = catalog_of(roles, CONTAINERS)
    assert order(catalog, "etcd", "containerd", "kubernetes") == ["os", "etcd", "runc", "containerd", "kubernetes"]
    assert order(catalog, "containerd", "etcd", "kubernetes") == ["os", "runc", "containerd", "etcd", "kubernetes"]
    assert order(catalog, "os", "runc", "runc") == ["os", "runc"]


def test_the_same_question_always_gets_the_same_answer(roles: Path) -> None:
    catalog = catalog_of(roles, CONTAINERS)
    answers = {tuple(order(catalog, "cilium", "helm", "kubernetes")) for _ in range(5)}
    assert answers == {("os", "runc", "containerd", "etcd", "helm", "kubernetes", "cilium")}


def test_an_optional_taskserv_comes_first_only_when_the_host_gets_it_too(roles: Path) -> None:
    catalog = catalog_of(roles, CONTAINERS)
    assert "helm" not in order(catalog, "kubernetes")
    with_helm = order(catalog, "kubernetes", "helm")
    assert with_helm.index("helm") < with_helm.index("kubernetes")


def test_a_requirement_can_be_what_another_taskserv_provides(roles: Path) -> None:
    catalog = catalog_of(roles, {"os": None, "containerd": 'provides: [container-runtime]',
                                 "kubelet": "requires: [container-runtime]"})
    assert order(catalog, "kubelet", "containerd") == ["os", "containerd", "kubelet"]
    with pytest.raises(ParseError, match="taskserv 'kubelet' requires 'container-runtime', which is no role and "
                                         "which no taskserv on 'web1' provides"):
        order(catalog, "kubelet", host="web1")


def test_a_cycle_is_an_error_that_names_it(roles: Path) -> None:
    catalog = catalog_of(roles, {"os": None, "a": "requires: [b]", "b": "requires: [c]", "c": "requires: [a]"})
    with pytest.raises(ParseError) as caught:
        order(catalog, "a")
    assert caught.value.message == "Circular dependency detected: a -> b -> c -> a"
    meta = roles / "c" / "meta" / "main.yml"
    assert str(caught.value.position) == f"{meta}:3:14"  # the requirement that closes the cycle


def test_optional_taskservs_the_host_gets_can_close_a_cycle(roles: Path) -> None:
    catalog = catalog_of(roles, {"os": None, "a": "optional: [b]", "b": "requires: [a]"})
    assert order(catalog, "a") == ["os", "a"]
    with pytest.raises(ParseError, match=r"Circular dependency detected: a -> b -> a$"):
        order(catalog, "a", "b")


def test_a_conflict_on_the_same_host_names_both(roles: Path) -> None:
    catalog = catalog_of(roles, CONTAINERS)
    with pytest.raises(ParseError, match=r"taskservs 'kubernetes' and 'docker' conflict on 'web1'$"):
        order(catalog, "kubernetes", "docker", host="web1")


def test_a_conflict_with_what_another_taskserv_provides(roles: Path) -> None:
    catalog = catalog_of(roles, {"os": None, "podman": "conflicts: [container-runtime]",
                                 "containerd": "provides: [container-runtime]"})
    with pytest.raises(ParseError) as caught:
        order(catalog, "containerd", "podman", host="web1")
    assert caught.value.message == ("taskservs 'podman' and 'containerd' conflict on 'web1' ('podman' conflicts "
                                    "with 'container-runtime', which 'containerd' provides)")


def test_a_version_constraint_that_fails_names_who_required_what(roles: Path) -> None:
    catalog = catalog_of(roles, {**CONTAINERS, "containerd": 'version: "1.5.9"\nrequires: [runc]'})
    with pytest.raises(ParseError) as caught:
        order(catalog, "kubernetes")
    assert caught.value.message == "taskserv 'kubernetes' requires containerd>=1.6, but 'containerd' is version 1.5.9"
    assert str(caught.value.position) == f"{roles / 'kubernetes' / 'meta' / 'main.yml'}:4:14"


def test_constraints_in_the_role_requirement_spellings(roles: Path) -> None:
    catalog = catalog_of(roles, {"os": None, "runc": 'version: "1.1.12"', "a": 'requires: ["runc ^1.1"]',
                                 "b": "requires: [{name: runc, version: '~1.0'}]", "c": 'requires: ["runc>=1"]'})
    assert order(catalog, "a", "c") == ["os", "runc", "a", "c"]
    with pytest.raises(ParseError, match=r"requires runc~1.0, but 'runc' is version 1.1.12"):
        order(catalog, "b")


def test_a_constraint_on_a_taskserv_without_a_version(roles: Path) -> None:
    catalog = catalog_of(roles, {"os": None, "runc": None, "a": 'requires: ["runc>=1"]'})
    with pytest.raises(ParseError, match=r"taskserv 'a' requires runc>=1, but 'runc' declares no version$"):
        order(catalog, "a")


def test_every_problem_is_reported_at_once(roles: Path) -> None:
    catalog = catalog_of(roles, {**CONTAINERS, "containerd": 'version: "1.5.9"\nrequires: [runc]'})
    with pytest.raises(ParseErrors) as caught:
        order(catalog, "kubernetes", "docker", "nginx")
    messages = sorted(error.message.split(" (")[0] for error in caught.value.errors)
    assert len(messages) == 3
    assert messages[0].startswith("The role 'nginx' was not found in: ")
    assert messages[1].startswith("taskserv 'kubernetes' requires containerd>=1.6")
    assert messages[2] == "taskservs 'kubernetes' and 'docker' conflict"


def test_an_unknown_taskserv_gets_a_did_you_mean(roles: Path) -> None:
    catalog = catalog_of(roles, CONTAINERS)
    with pytest.raises(ParseError) as caught:
        order(catalog, "kubernets")
    assert caught.value.hint == "did you mean 'kubernetes'?"


def test_os_is_the_platform_rule(roles: Path) -> None:
    catalog = catalog_of(roles, {"etcd": None})
    with pytest.raises(ParseError, match="every host gets the taskserv 'os' first: The role 'os' was not found in: "):
        order(catalog, "etcd")
    assert resolve([Wanted("etcd")], catalog, base=None).names() == ["etcd"]


def test_what_os_itself_requires_comes_before_it(roles: Path) -> None:
    catalog = catalog_of(roles, {"os": "requires: [python]", "python": None, "etcd": None})
    assert order(catalog, "etcd") == ["python", "os", "etcd"]


def test_partial_installs_and_deletion_follow_the_hard_requirements(roles: Path) -> None:
    catalog = catalog_of(roles, CONTAINERS)
    resolution = resolve([Wanted("kubernetes"), Wanted("helm"), Wanted("cilium")], catalog)
    assert [step.name for step in resolution.closure(["containerd"])] == ["os", "runc", "containerd"]
    assert [step.name for step in resolution.dependents("containerd")] == ["containerd", "kubernetes", "cilium"]
    assert [step.name for step in resolution.dependents("helm")] == ["helm"]  # kubernetes only wants it
