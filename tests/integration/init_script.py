"""An init script of the tests' own for host1 (a sleeping daemon with a pid file): the SysV service that the
sysvinit and service_facts tests start, stop and enable, installed and removed around each test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.remote_harness import RemoteHost

SERVICE = "provisioning-test-svc"
SCRIPT = f"""#!/bin/sh
### BEGIN INIT INFO
# Provides:          {SERVICE}
# Required-Start:
# Required-Stop:
# Default-Start:     2 3 4 5
# Default-Stop:      0 1 6
# Short-Description: a daemon for the sysvinit tests
### END INIT INFO
PIDFILE=/run/{SERVICE}.pid
running() {{ [ -f $PIDFILE ] && kill -0 "$(cat $PIDFILE)" 2>/dev/null; }}
case "$1" in
  start) running || {{ setsid sleep 100000 >/dev/null 2>&1 & echo $! > $PIDFILE; }} ;;
  stop) running && kill "$(cat $PIDFILE)"; rm -f $PIDFILE ;;
  restart|reload|force-reload) "$0" stop; "$0" start ;;
  status) running && {{ echo "{SERVICE} is running"; exit 0; }}; echo "{SERVICE} is not running"; exit 3 ;;
  *) echo "usage: $0 start|stop|restart|status"; exit 2 ;;
esac
exit 0
"""


@pytest.fixture
def service(host: RemoteHost) -> Iterator[None]:
    """The script installed on host1 for one test; stopped, unlinked from the runlevels and removed after it."""
    host.shell(f"cat > /etc/init.d/{SERVICE} <<'END'\n{SCRIPT}END\nchmod 755 /etc/init.d/{SERVICE}")
    yield
    host.shell(f"/etc/init.d/{SERVICE} stop; update-rc.d -f {SERVICE} remove >/dev/null; rm -f /etc/init.d/{SERVICE}")
