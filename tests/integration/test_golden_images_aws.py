"""Golden images of the aws provider against moto's EC2 server (started here on a loopback port): a server
captured as an AMI and recorded as a GoldenImageVersion, a new server started from ``golden:NAME``, and
``image delete|prune`` deregistering the AMI once no server runs from it. moto's instances answer no SSH, so the
image's taskservs are not run here (the local provider's tests run them); the capture and the records are the
same code ``image build`` runs."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from runner.cli.image_build import capture_version
from runner.infra.images import GoldenImageSpec
from runner.models.validation import validate
from runner.providers import ensure_absent, ensure_present, make_provider
from runner.providers.aws import AwsProvider
from runner.providers.golden import ImageCatalog
from tests.integration.test_provider_aws import REGION, aws_server, instances_named
from tests.support.scripts import script
from tests.support.taskserv_infra import environment


@pytest.fixture
def images(tmp_path: Path) -> Path:
    return tmp_path / "images"


@pytest.fixture
def provider(moto_endpoint: str, images: Path) -> AwsProvider:
    return make_provider("aws", {"endpoint_url": moto_endpoint, "region": REGION, "wait_for_ssh": False,
                                 "poll_interval": 0, "images_dir": str(images)})  # type: ignore[return-value]


def run(endpoint: str, *args: str) -> subprocess.CompletedProcess[str]:
    # boto3 reads the endpoint of commands that have no provider settings from the environment.
    env = {**environment(), "AWS_ENDPOINT_URL": endpoint, "AWS_ACCESS_KEY_ID": "testing",
           "AWS_SECRET_ACCESS_KEY": "testing"}
    return subprocess.run([script("provisioning-infra"), *args], capture_output=True, text=True, env=env,
                          timeout=120)


def test_an_ami_is_captured_recorded_used_and_deregistered(provider: AwsProvider, images: Path,
                                                           moto_endpoint: str) -> None:
    build = ensure_present(provider, aws_server("gold-build")).state
    assert build is not None
    spec = validate(GoldenImageSpec, {"name": "gold", "taskservs": ["redis"], "build": {"provider": "aws"}})
    entry = capture_version(provider, build, spec, "2.0.0", {"os": "1.0.0", "redis": "7.0.15"})
    ImageCatalog(images).add(entry)
    ensure_absent(provider, "gold-build")
    ami = entry.image_id
    (image,) = provider.client.describe_images(ImageIds=[ami])["Images"]
    assert image["Name"] == "gold-2.0.0" and image["State"] == "available"
    assert (entry.record.image_path, entry.region) == (f"ec2://{REGION}/{ami}", REGION)
    assert entry.record.base_image_version == "ubuntu 22.04"  # the spec's base_os and os_version

    listed = json.loads(run(moto_endpoint, "image", "list", "--images", str(images), "--out", "json").stdout)
    assert [(i["name"], i["version"], i["image_id"]) for i in listed["images"]] == [("gold", "2.0.0", ami)]

    ensure_present(provider, aws_server("gold1", image="golden:gold"))
    (instance,) = instances_named(provider, "gold1")
    assert instance["ImageId"] == ami

    done = run(moto_endpoint, "image", "delete", "gold@2.0.0", "--yes", "--images", str(images))
    assert done.returncode == 0, done.stderr
    assert "kept: a server runs from it" in done.stdout
    assert provider.client.describe_images(ImageIds=[ami])["Images"]

    ensure_absent(provider, "gold1")
    ImageCatalog(images).add(entry)  # recorded again, now that nothing runs from it
    done = run(moto_endpoint, "image", "prune", "--keep", "1", "--yes", "--images", str(images))
    assert done.returncode == 0 and "nothing to prune" in done.stdout  # the newest version is kept
    done = run(moto_endpoint, "image", "delete", "gold@2.0.0", "--yes", "--images", str(images))
    assert done.returncode == 0 and f"and its image {ami}" in done.stdout, done.stderr
    assert provider.client.describe_images(Filters=[{"Name": "image-id", "Values": [ami]}])["Images"] == []


def test_a_golden_image_of_another_provider_or_none_at_all_is_a_clear_error(provider: AwsProvider) -> None:
    outcome = None
    with pytest.raises(Exception, match="no golden image 'nothing'") as raised:
        outcome = ensure_present(provider, aws_server("gold2", image="golden:nothing"))
    assert outcome is None and "Traceback" not in str(raised.value)
    assert instances_named(provider, "gold2") == []
