"""Wait for a condition on the host: a port open or closed, a file present or absent, a string in a file or a
banner, connections drained, or simply a number of seconds."""

import os
import re
import select
import socket
import time

from modules._spec import argument_spec

DOCUMENTATION = {
    "short_description": "Waits for a condition before continuing",
    "description": [
        "Waits, on the host, until a TCP port accepts connections (state started) or refuses them (stopped), "
        "until a file exists (present/started) or is gone (absent), until a regular expression matches in a "
        "file or in what a port sends, or until no active connection to a port is left (drained).",
        "Without port or path it waits timeout seconds and succeeds. Otherwise it fails after timeout seconds "
        "with msg (or a message saying what it waited for).",
        "It never changes anything, and runs in check mode too.",
    ],
    "options": {
        "host": {"description": "The address or name to connect to (port) or to count connections on "
                                "(drained; 0.0.0.0 or :: for any address).", "type": "str",
                 "default": "127.0.0.1"},
        "port": {"description": "The TCP port to wait for.", "type": "int"},
        "path": {"description": "The file to wait for.", "type": "path"},
        "search_regex": {"description": "A regular expression (multi-line) that must match in the file, or in "
                                        "the data the port sends.", "type": "str"},
        "state": {"description": "started/present: open port or existing file (and match); stopped: closed "
                                 "port; absent: missing file (or, with search_regex, no longer matching); "
                                 "drained: no active connection to the port.", "type": "str",
                  "default": "started", "choices": ["absent", "drained", "present", "started", "stopped"]},
        "delay": {"description": "Seconds to wait before the first check.", "type": "int", "default": 0},
        "timeout": {"description": "Seconds to wait at most.", "type": "int", "default": 300},
        "sleep": {"description": "Seconds between two checks.", "type": "int", "default": 1},
        "connect_timeout": {"description": "Seconds one connection attempt may take.", "type": "int",
                            "default": 5},
        "exclude_hosts": {"description": "With drained: connections from these addresses do not count.",
                          "type": "list", "elements": "str"},
        "active_connection_states": {"description": "TCP states that count as active connections (drained).",
                                     "type": "list", "elements": "str",
                                     "default": ["ESTABLISHED", "FIN_WAIT1", "FIN_WAIT2", "SYN_RECV",
                                                 "SYN_SENT", "TIME_WAIT"]},
        "msg": {"description": "The failure message used instead of the default one.", "type": "str"},
    },
}

EXAMPLES = """
- name: Wait for the application to listen on its port
  wait_for:
    host: "{{ ansible_default_ipv4.address }}"
    port: 8080
    delay: 2
    timeout: 60

- name: Wait until the log says the server is ready, and read its version
  wait_for:
    path: /var/log/app/server.log
    search_regex: "ready \\\\(version (?P<version>[0-9.]+)\\\\)"
  register: ready

- name: Wait for the lock file to go away
  wait_for:
    path: /var/lock/app.lock
    state: absent

- name: Wait until no client is connected any more
  wait_for:
    host: 0.0.0.0
    port: 443
    state: drained
    exclude_hosts: [10.0.0.5]
"""

RETURN = {
    "elapsed": "Seconds waited",
    "state": "The state waited for",
    "port": "The port waited for",
    "path": "The file waited for",
    "search_regex": "The expression searched for",
    "match_groups": "The groups of the match of search_regex, as a list",
    "match_groupdict": "The named groups of the match of search_regex",
}

ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
SPEC_RULES = {"mutually_exclusive": [["port", "path"]]}
SUPPORTS_CHECK_MODE = True

# TCP states as /proc/net/tcp numbers them.
TCP_STATES = {"01": "ESTABLISHED", "02": "SYN_SENT", "03": "SYN_RECV", "04": "FIN_WAIT1", "05": "FIN_WAIT2",
              "06": "TIME_WAIT", "07": "CLOSE", "08": "CLOSE_WAIT", "09": "LAST_ACK", "0A": "LISTEN",
              "0B": "CLOSING"}
_READ_LIMIT = 1 << 20  # at most this much of a banner is searched


class Waiter(object):
    """One wait: checks its condition every ``sleep`` seconds until it holds or ``timeout`` has passed."""

    def __init__(self, module):
        self.module = module
        params = module.params
        self.params = params
        self.pattern = re.compile(params["search_regex"], re.M) if params["search_regex"] else None
        self.started = time.time()
        self.deadline = self.started + params["timeout"]
        self.match = None

    def remaining(self):
        return self.deadline - time.time()

    def until(self, condition):
        """True once ``condition()`` holds; False when the timeout passes first (checked at least once)."""
        while True:
            if condition():
                return True
            if self.remaining() <= 0:
                return False
            time.sleep(max(0.0, min(self.params["sleep"], self.remaining())))

    def elapsed(self):
        return int(time.time() - self.started)

    # -- files -----------------------------------------------------------------------------------------------
    def file_matches(self):
        path = self.params["path"]
        try:
            os.stat(path)
        except OSError as exc:
            if exc.errno != 2:
                self.module.fail(self.params["msg"] or "Failed to stat %s, %s" % (path, exc.strerror),
                                 elapsed=self.elapsed())
            return False
        if self.pattern is None:
            return True
        try:
            with open(path, "rb") as handle:
                text = handle.read().decode("utf-8", "replace")
        except (IOError, OSError):
            return False
        self.match = self.pattern.search(text)
        return self.match is not None

    def file_gone(self):
        path = self.params["path"]
        if not os.path.exists(path):
            return True
        if self.pattern is None:
            return False
        return not self.file_matches()

    # -- ports -----------------------------------------------------------------------------------------------
    def _connect(self):
        timeout = max(0.1, min(self.params["connect_timeout"], self.remaining()))
        try:
            return socket.create_connection((self.params["host"], self.params["port"]), timeout)
        except (socket.error, socket.timeout, OSError):
            return None

    def port_open(self):
        connection = self._connect()
        if connection is None:
            return False
        try:
            return self.pattern is None or self._banner_matches(connection)
        finally:
            _close(connection)

    def _banner_matches(self, connection):
        received = b""
        while self.remaining() > 0 and len(received) < _READ_LIMIT:
            readable = select.select([connection], [], [], self.remaining())[0]
            if not readable:
                continue
            try:
                chunk = connection.recv(4096)
            except (socket.error, OSError):
                return False
            if not chunk:
                return False  # the server closed the connection without sending a match
            received += chunk
            self.match = self.pattern.search(received.decode("utf-8", "replace"))
            if self.match is not None:
                return True
        return False

    def port_closed(self):
        connection = self._connect()
        if connection is None:
            return True
        _close(connection)
        return False

    def drained(self):
        return active_connections(self.params["host"], self.params["port"],
                                  self.params["active_connection_states"], self.params["exclude_hosts"] or []) == 0


def _close(connection):
    try:
        connection.shutdown(socket.SHUT_RDWR)
    except (socket.error, OSError):
        pass
    connection.close()


def _addresses(host):
    """The IP addresses ``host`` names; None for a wildcard (0.0.0.0 or ::) that matches every address."""
    if host in ("0.0.0.0", "::", ""):
        return None
    found = set()
    try:
        for info in socket.getaddrinfo(host, None):
            found.add(info[4][0])
    except socket.gaierror:
        found.add(host)
    return found


def decode_address(text, family):
    """An address from /proc/net/tcp{,6} ('0100007F:0050') as ('127.0.0.1', 80)."""
    address, port = text.split(":")
    raw = bytes.fromhex(address)
    if family == socket.AF_INET:
        ip = socket.inet_ntop(family, raw[::-1])
    else:
        # Four 32-bit words, each in host (little-endian) order.
        raw = b"".join(raw[i:i + 4][::-1] for i in range(0, 16, 4))
        ip = socket.inet_ntop(family, raw)
        if ip.startswith("::ffff:") and "." in ip:
            ip = ip[len("::ffff:"):]
    return ip, int(port, 16)


def count_connections(lines, family, port, addresses, states, excluded):
    """Active connections to ``port`` in /proc/net/tcp-style ``lines`` (header first)."""
    count = 0
    for line in lines[1:]:
        fields = line.split()
        if len(fields) < 4:
            continue
        local_ip, local_port = decode_address(fields[1], family)
        remote_ip, _ = decode_address(fields[2], family)
        if local_port != port or TCP_STATES.get(fields[3].upper()) not in states:
            continue
        if addresses is not None and local_ip not in addresses:
            continue
        if remote_ip in excluded:
            continue
        count += 1
    return count


def active_connections(host, port, states, excluded):
    addresses = _addresses(host)
    excluded_ips = set()  # type: set
    for name in excluded:
        excluded_ips.update(_addresses(name) or ())
    count = 0
    for path, family in (("/proc/net/tcp", socket.AF_INET), ("/proc/net/tcp6", socket.AF_INET6)):
        try:
            with open(path) as handle:
                lines = handle.read().splitlines()
        except (IOError, OSError):
            continue
        count += count_connections(lines, family, port, addresses, set(states), excluded_ips)
    return count


def _check_arguments(module):
    params = module.params
    state = params["state"]
    if params["path"] and state in ("stopped", "drained"):
        module.fail("state=%s should only be used for checking a port in the wait_for module" % state, elapsed=0)
    if params["exclude_hosts"] is not None and state != "drained":
        module.fail("exclude_hosts should only be with state=drained", elapsed=0)
    if state == "drained" and params["port"] is None:
        module.fail("state=drained needs a port", elapsed=0)
    if params["search_regex"]:
        try:
            re.compile(params["search_regex"])
        except re.error as exc:
            module.fail("search_regex is not a valid regular expression: %s" % exc, elapsed=0)


def _failure_message(params):
    host, port, path, regex, state = (params["host"], params["port"], params["path"], params["search_regex"],
                                      params["state"])
    if state == "drained":
        return "Timeout when waiting for %s:%s to drain" % (host, port)
    if state in ("absent", "stopped"):
        if port is not None:
            return "Timeout when waiting for %s:%s to stop." % (host, port)
        return "Timeout when waiting for %s to be absent." % path
    if port is not None:
        if regex:
            return "Timeout when waiting for search string %s in %s:%s" % (regex, host, port)
        return "Timeout when waiting for %s:%s" % (host, port)
    if regex:
        return "Timeout when waiting for search string %s in %s" % (regex, path)
    return "Timeout when waiting for file %s" % path


def run(module):
    _check_arguments(module)
    params = module.params
    state, port, path = params["state"], params["port"], params["path"]
    waiter = Waiter(module)  # before the delay: elapsed and timeout count from the start, as in Ansible
    if params["delay"]:
        time.sleep(params["delay"])
    if port is None and path is None and state != "drained":
        time.sleep(params["timeout"])
        return {"changed": False, "state": state, "elapsed": waiter.elapsed()}
    if state == "drained":
        condition = waiter.drained
    elif state in ("absent", "stopped"):
        condition = waiter.port_closed if port is not None else waiter.file_gone
    else:
        condition = waiter.port_open if port is not None else waiter.file_matches
    if not waiter.until(condition):
        module.fail(params["msg"] or _failure_message(params), elapsed=waiter.elapsed())
    result = {"changed": False, "state": state, "port": port, "path": path, "search_regex": params["search_regex"],
              "match_groups": [], "match_groupdict": {}, "elapsed": waiter.elapsed()}
    if waiter.match is not None and state in ("started", "present"):
        result["match_groups"] = list(waiter.match.groups())
        result["match_groupdict"] = waiter.match.groupdict()
    return result
