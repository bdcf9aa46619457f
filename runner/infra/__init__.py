"""Infra files: servers (created by providers), the taskservs they carry, clusters over them.

```python
infra = load_infra("infra/wuji.yml")       # validated, defaults merged, every problem at file:line:col
for server in infra.servers:
    print(server.hostname, server.provider, [taskserv.name for taskserv in server.taskservs])
```

An infra file is also an inventory source (``runner.providers.infra_inventory``); JSON Schema: ``python -m
runner.infra.schemas``.
"""

from runner.infra.loader import MARKER, is_infra, load_infra, read_infra
from runner.infra.models import Cluster, Defaults, Infra
from runner.infra.servers import PROVIDERS, SERVERS, AnyServer, AwsServer, LocalServer, TaskservRef, UpcloudServer

__all__ = ["MARKER", "PROVIDERS", "SERVERS", "AnyServer", "AwsServer", "Cluster", "Defaults", "Infra",
           "LocalServer", "TaskservRef", "UpcloudServer", "is_infra", "load_infra", "read_infra"]
