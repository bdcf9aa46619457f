"""EC2 through boto3: instances known by their ``Name`` tag, in one region per provider object.

A server is created with ``run_instances`` in the given subnet (or the default subnet of the given or default
VPC, in the given zone), with its security groups (or one that lets SSH in), its key pair (imported from the
``ssh_key``'s public key when missing), a gp3 system disk of ``disk_gb``, and its tags. Deleting terminates
it; ``keep_storage`` keeps its volumes. botocore's own retries are off: calls go through
``runner.providers.retry`` like every provider's, so one setting governs them.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from pathlib import Path
from typing import Any

import boto3
from botocore.config import Config
from botocore.exceptions import (
    BotoCoreError,
    ClientError,
    ConnectionClosedError,
    EndpointConnectionError,
    NoCredentialsError,
    NoRegionError,
    PartialCredentialsError,
    ProfileNotFound,
    ReadTimeoutError,
)
from botocore.exceptions import ConnectTimeoutError as BotoConnectTimeoutError

from runner.infra.provider_settings import AwsProviderSettings
from runner.infra.servers import AnyServer, AwsServer
from runner.providers.base import (
    CapturedImage,
    CredentialsError,
    Provider,
    ProviderError,
    QuotaError,
    ServerState,
    TransientError,
)
from runner.providers.golden import ImageCatalog, is_golden, parse_ref
from runner.providers.retry import with_retries

LIVE_STATES = ["pending", "running", "stopping", "stopped"]  # terminated and shutting-down ones are gone
SSH_GROUP = "provisioning-ssh"
TRANSIENT_CODES = frozenset({"RequestLimitExceeded", "Throttling", "ThrottlingException", "InternalError",
                             "InternalFailure", "ServiceUnavailable", "Unavailable", "RequestTimeout"})
CREDENTIAL_CODES = frozenset({"AuthFailure", "UnauthorizedOperation", "InvalidClientTokenId", "SignatureDoesNotMatch",
                              "ExpiredToken", "RequestExpired", "OptInRequired", "Blocked"})
QUOTA_CODES = frozenset({"InstanceLimitExceeded", "VcpuLimitExceeded", "InsufficientInstanceCapacity",
                         "MaxSpotInstanceCountExceeded", "VolumeLimitExceeded", "AddressLimitExceeded",
                         "SecurityGroupLimitExceeded", "ResourceLimitExceeded"})
_NETWORK_ERRORS = (EndpointConnectionError, ConnectionClosedError, ReadTimeoutError, BotoConnectTimeoutError)


class AwsProvider(Provider):
    name = "aws"
    settings: AwsProviderSettings

    def __init__(self, settings: AwsProviderSettings, region: str | None = None):
        super().__init__(settings)
        try:
            session = boto3.Session(profile_name=settings.profile) if settings.profile else boto3.Session()
        except ProfileNotFound as error:
            raise CredentialsError(f"AWS profile not found: {error}") from None
        self.region = region or settings.region or session.region_name
        if not self.region:
            raise ProviderError("no AWS region: set 'region' on the server, in the aws provider settings, or "
                                "AWS_DEFAULT_REGION")
        self.client = session.client("ec2", region_name=self.region, endpoint_url=settings.endpoint_url,
                                     config=Config(retries={"total_max_attempts": 1}))

    # -- the provider interface ----------------------------------------------------------------------------

    def servers(self) -> list[ServerState]:
        return [self._state(instance) for instance in self.describe([{"Name": "tag-key", "Values": ["Name"]}])]

    def find(self, name: str) -> ServerState | None:
        instances = self.describe([{"Name": "tag:Name", "Values": [name]}])
        if len(instances) > 1:
            ids = ", ".join(instance["InstanceId"] for instance in instances)
            raise ProviderError(f"{len(instances)} EC2 instances in {self.region} are named '{name}' ({ids}): "
                                "servers are known by name, so a name must be unique")
        return self._state(instances[0]) if instances else None

    def create(self, server: AnyServer) -> ServerState:
        assert isinstance(server, AwsServer)
        if is_golden(server.image):
            server = server.model_copy(update={"image": self._golden_ami(server.image or "")})
        subnet = self._subnet(server)
        request: dict[str, Any] = {
            "ImageId": server.image, "InstanceType": server.instance_type, "MinCount": 1, "MaxCount": 1,
            "SubnetId": subnet["SubnetId"],
            "SecurityGroupIds": self._security_groups(server, subnet["VpcId"]),
            "TagSpecifications": [{"ResourceType": resource, "Tags": _tags(server)}
                                  for resource in ("instance", "volume")],
            # The same token on a retried request cannot start a second instance.
            "ClientToken": f"{server.hostname}-{uuid.uuid4()}"[:64],
        }
        key_name = self._key_pair(server)
        if key_name:
            request["KeyName"] = key_name
        if server.disk_gb:
            request["BlockDeviceMappings"] = [{"DeviceName": self._root_device(server.image or ""),
                                               "Ebs": {"VolumeSize": server.disk_gb, "VolumeType": "gp3",
                                                       "DeleteOnTermination": True}}]
        instance = self._call("run_instances", **request)["Instances"][0]
        return self._state(instance)

    def start(self, state: ServerState) -> ServerState:
        self._call("start_instances", InstanceIds=[state.id])
        return self.find(state.name) or state

    def delete(self, state: ServerState, keep_storage: bool = False) -> None:
        if keep_storage:
            instance = self._call("describe_instances", InstanceIds=[state.id])["Reservations"][0]["Instances"][0]
            mappings = [{"DeviceName": device["DeviceName"], "Ebs": {"DeleteOnTermination": False}}
                        for device in instance.get("BlockDeviceMappings", []) if "Ebs" in device]
            if mappings:
                self._call("modify_instance_attribute", InstanceId=state.id, BlockDeviceMappings=mappings)
        self._call("terminate_instances", InstanceIds=[state.id])

    def capture_image(self, state: ServerState, name: str) -> CapturedImage:
        ami = self._call("create_image", InstanceId=state.id, Name=name,
                         Description=f"golden image {name}, made by provisioning from {state.name}",
                         TagSpecifications=[{"ResourceType": "image", "Tags": [{"Key": "Name", "Value": name}]}]
                         )["ImageId"]
        image = self._wait_for_image(ami)
        snapshots = sorted(device["Ebs"]["SnapshotId"] for device in image.get("BlockDeviceMappings", [])
                           if device.get("Ebs", {}).get("SnapshotId"))
        size_gb = sum(device["Ebs"].get("VolumeSize", 0) for device in image.get("BlockDeviceMappings", [])
                      if "Ebs" in device)
        # EC2 does not give an AMI's content to hash: the checksum names the AMI and its snapshots, which EC2
        # never changes once the image is available.
        checksum = hashlib.sha256("\n".join([ami, *snapshots]).encode()).hexdigest()
        return CapturedImage(ami, f"ec2://{self.region}/{ami}", checksum, size_gb << 30)

    def delete_image(self, image_id: str) -> None:
        images = self._call("describe_images", ImageIds=[image_id])["Images"]
        self._call("deregister_image", ImageId=image_id)
        for device in images[0].get("BlockDeviceMappings", []) if images else []:
            if snapshot := device.get("Ebs", {}).get("SnapshotId"):
                self._call("delete_snapshot", SnapshotId=snapshot)

    def images_in_use(self) -> set[str]:
        return {str(server.details["image"]) for server in self.servers() if server.details.get("image")}

    def _wait_for_image(self, ami: str) -> dict[str, Any]:
        deadline = time.monotonic() + self.settings.wait_timeout
        while True:
            image = self._call("describe_images", ImageIds=[ami])["Images"][0]
            if image["State"] == "available":
                return image
            if image["State"] in ("failed", "invalid", "deregistered", "error"):
                raise ProviderError(f"EC2 could not make image {ami}: {image.get('StateReason', {}).get('Message')}")
            if time.monotonic() > deadline:
                raise ProviderError(f"image {ami} was not available within {self.settings.wait_timeout} s")
            time.sleep(self.settings.poll_interval)

    def _golden_ami(self, image: str) -> str:
        entry = ImageCatalog(self.settings.images_dir).find(parse_ref(image))
        if entry.provider != self.name or entry.region != self.region:
            raise ProviderError(f"golden image {entry.ref} is an image of the {entry.provider} provider"
                                f"{f' in {entry.region}' if entry.region else ''}, not of aws in {self.region}")
        return entry.image_id

    # -- EC2 ----------------------------------------------------------------------------------------------------

    def describe(self, filters: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Live instances (not terminated) matching EC2 ``filters``, every page."""
        filters = [*filters, {"Name": "instance-state-name", "Values": LIVE_STATES}]
        instances: list[dict[str, Any]] = []
        token = None
        while True:
            page = self._call("describe_instances", Filters=filters, **({"NextToken": token} if token else {}))
            instances += [instance for reservation in page["Reservations"] for instance in reservation["Instances"]]
            token = page.get("NextToken")
            if not token:
                return instances

    def _call(self, operation: str, **arguments: Any) -> Any:
        def once() -> Any:
            try:
                return getattr(self.client, operation)(**arguments)
            except ClientError as error:
                raise _translated(error, operation) from None
            except _NETWORK_ERRORS as error:
                raise TransientError(str(error)) from None
            except (NoCredentialsError, PartialCredentialsError) as error:
                raise CredentialsError(f"no usable AWS credentials ({error}): set them in the environment, "
                                       "a profile or an instance role") from None
            except NoRegionError:
                raise ProviderError("no AWS region") from None
            except BotoCoreError as error:
                raise ProviderError(f"EC2 {operation} failed: {error}") from None

        return with_retries(once, self.settings, f"EC2 {operation} in {self.region}")

    def _state(self, instance: dict[str, Any]) -> ServerState:
        tags = {tag["Key"]: tag["Value"] for tag in instance.get("Tags", [])}
        state = instance["State"]["Name"]
        return ServerState(
            name=tags.get("Name", instance["InstanceId"]), provider=self.name, id=instance["InstanceId"],
            state=state, running=state == "running", public_address=instance.get("PublicIpAddress"),
            private_address=instance.get("PrivateIpAddress"),
            details={"region": self.region, "zone": instance.get("Placement", {}).get("AvailabilityZone"),
                     "instance_type": instance.get("InstanceType"), "image": instance.get("ImageId")})

    def _subnet(self, server: AwsServer) -> dict[str, Any]:
        if server.subnet:
            subnets = self._call("describe_subnets", SubnetIds=[server.subnet])["Subnets"]
        else:
            vpc = server.network or self._default_vpc()
            filters = [{"Name": "vpc-id", "Values": [vpc]}]
            if server.zone:
                filters.append({"Name": "availability-zone", "Values": [server.zone]})
            subnets = self._call("describe_subnets", Filters=filters)["Subnets"]
            subnets.sort(key=lambda subnet: (not subnet.get("DefaultForAz", False), subnet["SubnetId"]))
        if not subnets:
            where = f" in {server.zone}" if server.zone else ""
            raise ProviderError(f"server '{server.hostname}': no subnet{where} to start it in; set 'subnet'")
        return subnets[0]

    def _default_vpc(self) -> str:
        vpcs = self._call("describe_vpcs", Filters=[{"Name": "is-default", "Values": ["true"]}])["Vpcs"]
        if not vpcs:
            raise ProviderError(f"{self.region} has no default VPC: set 'network' (a VPC id) or 'subnet'")
        return vpcs[0]["VpcId"]

    def _security_groups(self, server: AwsServer, vpc: str) -> list[str]:
        names = server.security_groups or [SSH_GROUP]
        found = self._call("describe_security_groups", Filters=[{"Name": "vpc-id", "Values": [vpc]},
                                                                {"Name": "group-name", "Values": names}])
        ids = {group["GroupName"]: group["GroupId"] for group in found["SecurityGroups"]}
        missing = [name for name in names if name not in ids]
        if missing == [SSH_GROUP]:
            ids[SSH_GROUP] = self._make_ssh_group(vpc, server.ssh_port)
        elif missing:
            raise ProviderError(f"server '{server.hostname}': no security group {', '.join(missing)} in {vpc}")
        return [ids[name] for name in names]

    def _make_ssh_group(self, vpc: str, port: int) -> str:
        group = self._call("create_security_group", GroupName=SSH_GROUP, VpcId=vpc,
                           Description="SSH in, for servers made by provisioning")["GroupId"]
        self._call("authorize_security_group_ingress", GroupId=group, IpPermissions=[
            {"IpProtocol": "tcp", "FromPort": port, "ToPort": port, "IpRanges": [{"CidrIp": "0.0.0.0/0"}]}])
        return group

    def _key_pair(self, server: AwsServer) -> str | None:
        """The key pair to start with: ``key_name``, imported from ``ssh_key``'s public key when missing; a
        name made from the key itself when only ``ssh_key`` is given."""
        if not server.ssh_key:
            return server.key_name
        public_path = Path(server.ssh_key + ".pub")
        try:
            public_key = public_path.read_text().strip()
        except OSError as error:
            raise ProviderError(f"server '{server.hostname}': cannot read the public key {public_path}: "
                                f"{error.strerror}") from None
        name = server.key_name or "provisioning-" + hashlib.sha256(public_key.encode()).hexdigest()[:16]
        existing = self._call("describe_key_pairs", Filters=[{"Name": "key-name", "Values": [name]}])["KeyPairs"]
        if not existing:
            self._call("import_key_pair", KeyName=name, PublicKeyMaterial=public_key.encode())
        return name

    def _root_device(self, image: str) -> str:
        images = self._call("describe_images", ImageIds=[image])["Images"]
        if not images:
            raise ProviderError(f"image {image} does not exist in {self.region}")
        return images[0].get("RootDeviceName") or "/dev/xvda"


def _tags(server: AwsServer) -> list[dict[str, str]]:
    tags = {**server.tags, "Name": server.hostname}
    return [{"Key": key, "Value": value} for key, value in tags.items()]


def _translated(error: ClientError, operation: str) -> Exception:
    details = error.response.get("Error", {})
    code, message = details.get("Code", "Unknown"), details.get("Message", "")
    status = error.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0)
    if code in TRANSIENT_CODES or status >= 500:
        return TransientError(f"{code}: {message}")
    if code in CREDENTIAL_CODES:
        return CredentialsError(f"AWS refused the credentials for EC2 {operation} ({code}): {message}")
    if code in QUOTA_CODES:
        return QuotaError(f"AWS limit reached for EC2 {operation} ({code}): {message}")
    return ProviderError(f"EC2 {operation} failed ({code}): {message}")
