"""Gather facts about the host under Ansible's names: platform, distribution, user, hardware, network.

Runs at the start of every play, so it reads /proc, /sys, os.uname() and the kernel's netlink (for every IPv4
address, secondary ones included) instead of starting programs.
"""

import fnmatch
import os
import socket
import struct
import sys
import time

DOCUMENTATION = {
    "short_description": "Gathers facts about remote hosts",
    "description": [
        "Returns ansible_facts under Ansible's names, with the ansible_ prefix (gather_subset and module_setup "
        "without), as a registered result shows them; the controller keeps them without the prefix and makes "
        "them available both as ansible_facts.NAME and as ansible_NAME (ansible_local keeps its prefix, as in "
        "Ansible).",
        "gather_subset picks groups of facts: all, min, hardware, network, virtual, or single collectors "
        "(platform, distribution, python, user, env, date_time, lsb, pkg_mgr, service_mgr, selinux, apparmor, "
        "dns, cmdline, fips, local, ssh_pub_keys, processor, memory, mounts, uptime, interfaces, systemd). A "
        "leading ! excludes one; min is always gathered unless !min is given.",
        "filter keeps only the facts whose names match one of its shell-style patterns (with or without the "
        "ansible_ prefix).",
        "gather_facts is the same file under the name of Ansible's action (modules/gather_facts.py links to it), "
        "so a task may call either; gather_facts' parallel is accepted and changes nothing, one host's facts "
        "being gathered in one process.",
    ],
    "options": {
        "gather_subset": {"description": "Which facts to gather.", "type": "list", "elements": "str",
                          "default": ["all"]},
        "filter": {"description": "Shell-style patterns of the fact names to return.", "type": "list",
                   "elements": "str", "default": []},
        "gather_timeout": {"description": "Accepted for compatibility; collectors here never wait.",
                           "type": "int", "default": 10},
        "fact_path": {"description": "Directory of local facts (*.fact files: JSON or INI, or executables "
                                     "printing JSON).", "type": "path", "default": "/etc/ansible/facts.d"},
        "parallel": {"description": "gather_facts' option, accepted for compatibility.", "type": "bool"},
    },
}

EXAMPLES = """
# provisioning all -m setup -a 'filter=distribution*'
- name: Gather only the network facts
  setup:
    gather_subset: ["!all", "network"]

- name: Only memory facts
  setup:
    filter: ["ansible_mem*"]

- name: The distribution's facts, unless the play gathered them
  gather_facts:
    gather_subset: distribution
  when: ansible_distribution is not defined
"""

RETURN = {"ansible_facts": "Facts by name, with the ansible_ prefix"}

ARGUMENT_SPEC = {
    "gather_subset": {"type": "list", "elements": "str", "default": ["all"]},
    "filter": {"type": "list", "elements": "str", "default": []},
    "gather_timeout": {"type": "int", "default": 10},
    "fact_path": {"type": "path", "default": "/etc/ansible/facts.d"},
    "parallel": {"type": "bool"},
}
SUPPORTS_CHECK_MODE = True


# -- small readers ------------------------------------------------------------------------------------------
def read_file(path, default=None):
    try:
        with open(path) as handle:
            return handle.read()
    except (OSError, IOError, UnicodeDecodeError):
        return default


def read_key_values(path, separator="="):
    """KEY=value lines (os-release, lsb-release) or 'key: value' lines (meminfo), quotes removed."""
    values = {}
    for line in (read_file(path) or "").splitlines():
        key, found, value = line.partition(separator)
        if found and key.strip() and not key.startswith("#"):
            values[key.strip()] = value.strip().strip("\"'")
    return values


# -- min: platform, distribution, python, user, env, date and time --------------------------------------------
def platform_facts(module):
    uname = os.uname()
    fqdn = socket.getfqdn()
    bits = struct.calcsize("P") * 8
    machine = uname.machine
    userspace = machine
    if machine == "x86_64" and bits == 32:
        userspace = "i386"
    machine_id = (read_file("/etc/machine-id") or read_file("/var/lib/dbus/machine-id") or "").strip()
    facts = {"system": uname.sysname, "kernel": uname.release, "kernel_version": uname.version,
             "machine": machine, "architecture": machine, "userspace_architecture": userspace,
             "userspace_bits": str(bits), "nodename": uname.nodename, "hostname": uname.nodename.split(".")[0],
             "fqdn": fqdn, "domain": fqdn.partition(".")[2], "python_version": "%d.%d.%d" % sys.version_info[:3]}
    if machine_id:
        facts["machine_id"] = machine_id
    return facts


# os-release ID -> Ansible's distribution name, and that name -> its os_family.
DISTRIBUTION_NAMES = {
    "debian": "Debian", "ubuntu": "Ubuntu", "raspbian": "Debian", "linuxmint": "Linux Mint", "kali": "Kali",
    "devuan": "Devuan", "pop": "Pop!_OS", "neon": "KDE neon", "rhel": "RedHat", "centos": "CentOS",
    "fedora": "Fedora", "rocky": "Rocky", "almalinux": "AlmaLinux", "ol": "OracleLinux", "amzn": "Amazon",
    "scientific": "Scientific", "cloudlinux": "CloudLinux", "alpine": "Alpine", "arch": "Archlinux",
    "manjaro": "Manjaro", "opensuse-leap": "openSUSE Leap", "opensuse-tumbleweed": "openSUSE Tumbleweed",
    "sles": "SLES", "sles_sap": "SLES_SAP", "gentoo": "Gentoo", "void": "Void", "nixos": "NixOS",
    "clear-linux-os": "ClearLinux", "flatcar": "Flatcar", "mariner": "Mariner", "azurelinux": "AzureLinux",
}
OS_FAMILIES = {
    "Debian": ["Debian", "Ubuntu", "Linux Mint", "Kali", "Devuan", "Pop!_OS", "KDE neon", "Raspbian"],
    "RedHat": ["RedHat", "CentOS", "Fedora", "Rocky", "AlmaLinux", "OracleLinux", "Amazon", "Scientific",
               "CloudLinux", "Mariner", "AzureLinux"],
    "Suse": ["SLES", "SLES_SAP", "openSUSE Leap", "openSUSE Tumbleweed", "SUSE"],
    "Archlinux": ["Archlinux", "Manjaro"],
    "Alpine": ["Alpine"],
    "Gentoo": ["Gentoo"],
    "Void": ["Void"],
    "Flatcar": ["Flatcar"],
}
FAMILY_OF = dict((name, family) for family, names in OS_FAMILIES.items() for name in names)


def _release_name(os_release):
    codename = os_release.get("VERSION_CODENAME") or os_release.get("UBUNTU_CODENAME")
    if codename:
        return codename
    version = os_release.get("VERSION", "")
    if "(" in version and version.endswith(")"):
        return version[version.index("(") + 1:-1]
    return "NA"


def distribution_facts(module):
    os_release = read_key_values("/etc/os-release") or read_key_values("/usr/lib/os-release")
    ident = os_release.get("ID", "").lower()
    name = DISTRIBUTION_NAMES.get(ident) or os_release.get("NAME") or os.uname().sysname
    version = os_release.get("VERSION_ID", "NA")
    if name == "Debian":
        # Debian's point release (12.5) is only in /etc/debian_version; os-release says 12.
        debian_version = (read_file("/etc/debian_version") or "").strip()
        if debian_version and debian_version[0].isdigit():
            version = debian_version
    return {"distribution": name, "distribution_version": version,
            "distribution_major_version": version.split(".")[0], "distribution_release": _release_name(os_release),
            "os_family": FAMILY_OF.get(name, name)}


def python_facts(module):
    info = sys.version_info
    try:
        import ssl
        has_sslcontext = hasattr(ssl, "SSLContext")
    except ImportError:
        has_sslcontext = False
    implementation = {"cpython": "CPython", "pypy": "PyPy"}.get(sys.implementation.name, sys.implementation.name)
    return {"python": {"version": {"major": info.major, "minor": info.minor, "micro": info.micro,
                                   "releaselevel": info.releaselevel, "serial": info.serial},
                       "version_info": list(info), "executable": sys.executable,
                       "has_sslcontext": has_sslcontext, "type": implementation}}


def user_facts(module):
    import pwd
    uid = os.getuid()
    try:
        entry = pwd.getpwuid(uid)
        name, gecos, home, shell, gid = entry.pw_name, entry.pw_gecos, entry.pw_dir, entry.pw_shell, entry.pw_gid
    except KeyError:
        name, gecos, home, shell, gid = str(uid), "", os.environ.get("HOME", "/"), "", os.getgid()
    return {"user_id": name, "user_uid": uid, "user_gid": gid, "user_gecos": gecos, "user_dir": home,
            "user_shell": shell, "real_user_id": uid, "effective_user_id": os.geteuid(),
            "real_group_id": os.getgid(), "effective_group_id": os.getegid()}


def env_facts(module):
    return {"env": dict(os.environ)}


def date_time_facts(module):
    import datetime
    epoch = time.time()
    now = datetime.datetime.fromtimestamp(epoch)
    utc = datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc)
    return {"date_time": {
        "year": now.strftime("%Y"), "month": now.strftime("%m"), "weekday": now.strftime("%A"),
        "weekday_number": now.strftime("%w"), "weeknumber": now.strftime("%W"), "day": now.strftime("%d"),
        "hour": now.strftime("%H"), "minute": now.strftime("%M"), "second": now.strftime("%S"),
        "epoch": str(int(epoch)), "epoch_int": str(int(epoch)), "date": now.strftime("%Y-%m-%d"),
        "time": now.strftime("%H:%M:%S"), "iso8601_micro": utc.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
        "iso8601": utc.strftime("%Y-%m-%dT%H:%M:%SZ"), "iso8601_basic": now.strftime("%Y%m%dT%H%M%S%f"),
        "iso8601_basic_short": now.strftime("%Y%m%dT%H%M%S"), "tz": time.strftime("%Z"),
        "tz_dst": time.tzname[1], "tz_offset": time.strftime("%z")}}


def lsb_facts(module):
    """From /etc/lsb-release; where only the lsb_release program exists it reads os-release, so do we."""
    values = read_key_values("/etc/lsb-release")
    if values:
        lsb = {"id": values.get("DISTRIB_ID"), "release": values.get("DISTRIB_RELEASE"),
               "codename": values.get("DISTRIB_CODENAME"), "description": values.get("DISTRIB_DESCRIPTION")}
    elif module.get_bin_path("lsb_release"):
        os_release = read_key_values("/etc/os-release")
        lsb = {"id": os_release.get("NAME", "").split()[0] if os_release.get("NAME") else None,
               "release": (read_file("/etc/debian_version") or "").strip() or os_release.get("VERSION_ID"),
               "codename": os_release.get("VERSION_CODENAME"), "description": os_release.get("PRETTY_NAME")}
    else:
        return {"lsb": {}}
    lsb = dict((key, value) for key, value in lsb.items() if value)
    if lsb.get("release"):
        lsb["major_release"] = lsb["release"].split(".")[0]
    return {"lsb": lsb}


# (program, pkg_mgr name) in the order Ansible prefers them.
PACKAGE_MANAGERS = (("/usr/bin/apt-get", "apt"), ("/usr/bin/dnf5", "dnf5"), ("/usr/bin/dnf", "dnf"),
                    ("/usr/bin/yum", "yum"), ("/usr/bin/zypper", "zypper"), ("/sbin/apk", "apk"),
                    ("/usr/bin/pacman", "pacman"), ("/usr/bin/emerge", "portage"), ("/usr/sbin/pkg", "pkgng"),
                    ("/usr/bin/xbps-install", "xbps"), ("/usr/bin/swupd", "swupd"), ("/usr/bin/rpm-ostree",
                                                                                    "atomic_container"))


def pkg_mgr_facts(module):
    for path, name in PACKAGE_MANAGERS:
        if os.path.exists(path):
            return {"pkg_mgr": name}
    return {"pkg_mgr": "unknown"}


def service_mgr_facts(module):
    """systemd only when it runs (/run/systemd/system); otherwise what pid 1 is, then init scripts."""
    if os.path.isdir("/run/systemd/system"):
        return {"service_mgr": "systemd"}
    init = (read_file("/proc/1/comm") or "").strip()
    named = {"runit": "runit", "runit-init": "runit", "s6-svscan": "s6", "openrc-init": "openrc",
             "systemd": "systemd", "launchd": "launchd"}
    if init in named:
        return {"service_mgr": named[init]}
    if os.path.exists("/sbin/openrc") or os.path.exists("/sbin/openrc-run"):
        return {"service_mgr": "openrc"}
    if os.path.isdir("/etc/init.d"):
        return {"service_mgr": "sysvinit"}
    return {"service_mgr": "service"}


# Where a running systemd leaves its mark (sd_booted(3)), as ansible-core's collectors look for it.
SYSTEMD_CANARIES = ("/run/systemd/system/", "/dev/.run/systemd/", "/dev/.systemd/")


def systemd_facts(module):
    """systemd's version and compile-time features where it runs, from systemctl --version (ansible-core's
    systemd collector, gathered with all, not in min)."""
    systemctl = module.get_bin_path("systemctl")
    if not systemctl or not any(os.path.exists(canary) for canary in SYSTEMD_CANARIES):
        return {}
    rc, out, _ = module.run_command([systemctl, "--version"])
    if rc != 0:
        return {}
    return {"systemd": {"features": str(out.split("\n")[1]), "version": int(out.split(" ")[1])}}


def selinux_facts(module):
    enforce = read_file("/sys/fs/selinux/enforce")
    if enforce is None:
        return {"selinux": {"status": "disabled"}, "selinux_python_present": False}
    return {"selinux": {"status": "enabled", "mode": "enforcing" if enforce.strip() == "1" else "permissive"},
            "selinux_python_present": False}


def apparmor_facts(module):
    enabled = os.path.isdir("/sys/kernel/security/apparmor")
    return {"apparmor": {"status": "enabled" if enabled else "disabled"}}


def dns_facts(module):
    dns = {}  # type: dict
    for line in (read_file("/etc/resolv.conf") or "").splitlines():
        words = line.split()
        if not words or words[0].startswith(("#", ";")):
            continue
        if words[0] == "nameserver" and len(words) > 1:
            dns.setdefault("nameservers", []).append(words[1])
        elif words[0] == "domain" and len(words) > 1:
            dns["domain"] = words[1]
        elif words[0] == "search":
            dns["search"] = words[1:]
        elif words[0] == "options":
            for option in words[1:]:
                key, _, value = option.partition(":")
                dns.setdefault("options", {})[key] = value or True
    return {"dns": dns}


def cmdline_facts(module):
    text = (read_file("/proc/cmdline") or "").strip()
    cmdline, proc_cmdline = {}, {}  # type: dict, dict
    for word in text.split():
        key, found, value = word.partition("=")
        value = value if found else True
        cmdline[key] = value
        if key in proc_cmdline:
            existing = proc_cmdline[key]
            proc_cmdline[key] = (existing if isinstance(existing, list) else [existing]) + [value]
        else:
            proc_cmdline[key] = value
    return {"cmdline": cmdline, "proc_cmdline": proc_cmdline}


def fips_facts(module):
    return {"fips": (read_file("/proc/sys/crypto/fips_enabled") or "0").strip() == "1"}


def local_facts(module):
    """*.fact files under fact_path: JSON or INI text, or an executable (owner's x bit) that prints either. A
    fact that cannot be read becomes an error text under its name, with a warning, as in Ansible."""
    import glob
    import json
    import stat
    directory = module.params["fact_path"]
    local = {}  # type: dict
    if not directory or not os.path.exists(directory):
        return {"local": local}
    for path in sorted(glob.glob(directory + "/*.fact")):
        name = os.path.basename(path).replace(".fact", "")
        text, failure = _fact_text(module, path, stat)
        if failure is not None:
            local[name] = failure
            module.warn(failure)
            continue
        try:
            local[name] = json.loads(text)
        except ValueError:
            local[name] = _ini_sections(text, path, module)
    return {"local": local}


def _fact_text(module, path, stat):
    """(the fact file's text or its script's output, None), or (None, why there is none)."""
    try:
        executable = os.stat(path).st_mode & stat.S_IXUSR
    except OSError as exc:
        return None, "Could not stat fact (%s): %s" % (path, exc)
    if executable:
        rc, out, err = module.run_command([path])
        if rc != 0:
            return None, "Failure executing fact script (%s), rc: %s, err: %s" % (path, rc, err)
        return out, None
    try:
        with open(path, "rb") as handle:
            return handle.read().decode("utf-8"), None
    except OSError:
        return "", None  # unreadable: an empty fact, as Ansible reads it
    except UnicodeDecodeError:
        return None, 'error loading fact - content of "%s" was not utf-8' % path


def _ini_sections(text, path, module):
    """An INI fact file's sections, as Ansible reads them: a value ConfigParser cannot interpolate ('%' alone)
    turns the whole fact into an error text, with a warning, rather than failing fact gathering."""
    import configparser
    parser = configparser.ConfigParser()
    try:
        parser.read_string(text)
    except configparser.Error:
        message = "error loading facts as JSON or ini - please check content: %s" % path
        module.warn(message)
        return message
    sections = {}  # type: dict
    for section in parser.sections():
        sections[section] = {}
        for option in parser.options(section):
            try:
                sections[section][option] = parser.get(section, option)
            except configparser.Error as exc:
                message = "error loading facts as ini - please check content: %s (%s)" % (path, exc)
                module.warn(message)
                return message
    return sections


def ssh_pub_keys_facts(module):
    facts = {}
    for kind in ("dsa", "rsa", "ecdsa", "ed25519"):
        text = read_file("/etc/ssh/ssh_host_%s_key.pub" % kind)
        if text:
            words = text.split()
            facts["ssh_host_key_%s_public" % kind] = words[1] if len(words) > 1 else ""
            facts["ssh_host_key_%s_public_keytype" % kind] = words[0]
    return facts


# -- hardware -------------------------------------------------------------------------------------------------
def processor_facts(module):
    processors, sockets, cores, siblings, entries = [], set(), 1, 1, 0
    for block in (read_file("/proc/cpuinfo") or "").split("\n\n"):
        values = {}
        for line in block.splitlines():
            key, _, value = line.partition(":")
            values[key.strip()] = value.strip()
        if "processor" not in values:
            continue
        entries += 1
        processors.extend([values["processor"], values.get("vendor_id", values.get("CPU implementer", "")),
                           values.get("model name", values.get("Processor", values.get("cpu model", "")))])
        if "physical id" in values:
            sockets.add(values["physical id"])
        cores = int(values.get("cpu cores", cores) or cores)
        siblings = int(values.get("siblings", siblings) or siblings)
    count = len(sockets) or entries or 1
    threads = max(siblings // cores, 1) if sockets else 1
    if not sockets:
        cores = 1
    try:
        nproc = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        nproc = os.cpu_count() or entries
    return {"processor": processors, "processor_count": count, "processor_cores": cores,
            "processor_threads_per_core": threads, "processor_vcpus": threads * cores * count if sockets else
            entries, "processor_nproc": nproc}


def memory_facts(module):
    kib = {}
    for key, value in read_key_values("/proc/meminfo", ":").items():
        kib[key] = int(value.split()[0]) if value.split() and value.split()[0].isdigit() else 0

    def megabytes(key):
        return kib.get(key, 0) // 1024

    total, free = megabytes("MemTotal"), megabytes("MemFree")
    nocache_free = free + megabytes("Buffers") + megabytes("Cached")
    swap_total, swap_free = megabytes("SwapTotal"), megabytes("SwapFree")
    return {"memtotal_mb": total, "memfree_mb": free, "swaptotal_mb": swap_total, "swapfree_mb": swap_free,
            "memory_mb": {"real": {"total": total, "used": total - free, "free": free},
                          "nocache": {"free": nocache_free, "used": total - nocache_free},
                          "swap": {"total": swap_total, "free": swap_free, "used": swap_total - swap_free,
                                   "cached": megabytes("SwapCached")}}}


# File systems whose statvfs may block on a server that does not answer: listed without sizes.
NETWORK_FILESYSTEMS = frozenset(["nfs", "nfs4", "cifs", "smbfs", "smb3", "sshfs", "fuse.sshfs", "glusterfs",
                                 "ceph", "9p", "afs"])
PSEUDO_FILESYSTEMS = frozenset(["proc", "sysfs", "devtmpfs", "devpts", "cgroup", "cgroup2", "securityfs",
                                "debugfs", "tracefs", "pstore", "bpf", "mqueue", "hugetlbfs", "configfs",
                                "fusectl", "binfmt_misc", "autofs", "rpc_pipefs", "nsfs", "efivarfs"])


def _unescape_mount_path(path):
    return path.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\")


def mounts_facts(module):
    mounts = []
    for line in (read_file("/proc/mounts") or "").splitlines():
        fields = line.split()
        if len(fields) < 4 or fields[2] in PSEUDO_FILESYSTEMS:
            continue
        mount = {"mount": _unescape_mount_path(fields[1]), "device": fields[0], "fstype": fields[2],
                 "options": fields[3]}
        if fields[2] not in NETWORK_FILESYSTEMS:
            try:
                info = os.statvfs(mount["mount"])
            except OSError:
                info = None
            if info is not None:
                mount.update(size_total=info.f_frsize * info.f_blocks, size_available=info.f_frsize * info.f_bavail,
                             block_size=info.f_bsize, block_total=info.f_blocks, block_available=info.f_bavail,
                             block_used=info.f_blocks - info.f_bfree, inode_total=info.f_files,
                             inode_available=info.f_favail, inode_used=info.f_files - info.f_ffree)
        mounts.append(mount)
    return {"mounts": mounts}


def uptime_facts(module):
    text = read_file("/proc/uptime")
    return {"uptime_seconds": int(float(text.split()[0]))} if text else {}


# -- network --------------------------------------------------------------------------------------------------
def _dotted(hex_little_endian):
    return socket.inet_ntoa(struct.pack("<I", int(hex_little_endian, 16)))


def _prefix_to_netmask(prefix):
    return socket.inet_ntoa(struct.pack("!I", (0xFFFFFFFF << (32 - prefix)) & 0xFFFFFFFF))


def _ipv4_entry(address, prefix, broadcast=None):
    mask = (0xFFFFFFFF << (32 - prefix)) & 0xFFFFFFFF
    number = struct.unpack("!I", socket.inet_aton(address))[0]
    return {"address": address, "broadcast": broadcast or "", "netmask": _prefix_to_netmask(prefix),
            "network": socket.inet_ntoa(struct.pack("!I", number & mask)), "prefix": str(prefix)}


def _broadcast(address, prefix):
    mask = (0xFFFFFFFF << (32 - prefix)) & 0xFFFFFFFF
    number = struct.unpack("!I", socket.inet_aton(address))[0]
    return socket.inet_ntoa(struct.pack("!I", (number & mask) | (~mask & 0xFFFFFFFF))) if prefix < 31 else None


def ipv4_addresses(names):
    """{interface: [address entries]}: every address from the kernel (netlink), else primary ones by ioctl."""
    found = dict((name, []) for name in names)
    listed = _netlink_ipv4_addresses()
    if listed is None:
        listed = _ioctl_ipv4_addresses(names)
    for name, address, prefix, broadcast in listed:
        found.setdefault(name, []).append(_ipv4_entry(address, prefix, broadcast))
    return found


# Netlink (NETLINK_ROUTE): message types, flags and address attributes from <linux/rtnetlink.h>.
RTM_NEWADDR, RTM_GETADDR, NLMSG_ERROR, NLMSG_DONE = 20, 22, 2, 3
NLM_F_REQUEST, NLM_F_DUMP = 0x1, 0x300
IFA_LOCAL, IFA_BROADCAST = 2, 4
NLMSG_HEADER, IFADDRMSG, RTATTR = struct.Struct("=IHHII"), struct.Struct("=BBBBI"), struct.Struct("=HH")


def _netlink_ipv4_addresses():
    """[(interface, address, prefix, broadcast)] as ``ip -4 addr`` lists them, or None without netlink."""
    try:
        sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
    except (AttributeError, OSError):
        return None
    try:
        request = NLMSG_HEADER.pack(NLMSG_HEADER.size + IFADDRMSG.size, RTM_GETADDR, NLM_F_REQUEST | NLM_F_DUMP,
                                    1, 0) + IFADDRMSG.pack(socket.AF_INET, 0, 0, 0, 0)
        sock.sendto(request, (0, 0))
        listed = []  # type: list
        while True:
            data = sock.recv(1 << 16)
            offset = 0
            while offset + NLMSG_HEADER.size <= len(data):
                length, kind = NLMSG_HEADER.unpack_from(data, offset)[:2]
                if kind == NLMSG_DONE:
                    return listed
                if kind == NLMSG_ERROR or length < NLMSG_HEADER.size:
                    return None
                if kind == RTM_NEWADDR:
                    listed.append(_address_message(data, offset, length))
                offset += (length + 3) & ~3
    except OSError:
        return None
    finally:
        sock.close()


def _address_message(data, offset, length):
    _, prefix, _, _, index = IFADDRMSG.unpack_from(data, offset + NLMSG_HEADER.size)
    attributes = {}
    position, end = offset + NLMSG_HEADER.size + IFADDRMSG.size, offset + length
    while position + RTATTR.size <= end:
        size, kind = RTATTR.unpack_from(data, position)
        if size < RTATTR.size:
            break
        attributes[kind] = data[position + RTATTR.size:position + size]
        position += (size + 3) & ~3
    try:
        name = socket.if_indextoname(index)
    except OSError:
        name = str(index)
    broadcast = attributes.get(IFA_BROADCAST)
    return (name, socket.inet_ntoa(attributes.get(IFA_LOCAL, b"\0\0\0\0")), prefix,
            socket.inet_ntoa(broadcast) if broadcast else None)


def _ioctl_ipv4_addresses(names):
    import fcntl
    listed = []
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        for name in names:
            request = struct.pack("256s", name.encode()[:15])
            try:
                address = socket.inet_ntoa(fcntl.ioctl(sock.fileno(), 0x8915, request)[20:24])  # SIOCGIFADDR
                netmask = socket.inet_ntoa(fcntl.ioctl(sock.fileno(), 0x891B, request)[20:24])  # SIOCGIFNETMASK
            except (OSError, IOError):
                continue
            prefix = bin(struct.unpack("!I", socket.inet_aton(netmask))[0]).count("1")
            listed.append((name, address, prefix, None if name == "lo" else _broadcast(address, prefix)))
    finally:
        sock.close()
    return listed


def ipv6_addresses():
    """{interface: [{address, prefix, scope}]} from /proc/net/if_inet6."""
    scopes = {"00": "global", "10": "host", "20": "link", "40": "site", "50": "compat"}
    found = {}  # type: dict
    for line in (read_file("/proc/net/if_inet6") or "").splitlines():
        fields = line.split()
        if len(fields) < 6:
            continue
        address = socket.inet_ntop(socket.AF_INET6, bytes(bytearray.fromhex(fields[0])))
        found.setdefault(fields[5], []).append({"address": address, "prefix": str(int(fields[2], 16)),
                                                "scope": scopes.get(fields[3], fields[3])})
    return found


def default_ipv4_route():
    """(interface, gateway) of the default route with the lowest metric, from /proc/net/route."""
    best = None
    for line in (read_file("/proc/net/route") or "").splitlines()[1:]:
        fields = line.split()
        if len(fields) < 8 or fields[1] != "00000000" or fields[7] != "00000000":
            continue
        flags, metric = int(fields[3], 16), int(fields[6])
        if flags & 0x1 and (best is None or metric < best[0]):  # RTF_UP
            best = (metric, fields[0], _dotted(fields[2]) if flags & 0x2 else None)
    return (best[1], best[2]) if best else (None, None)


def default_ipv6_route():
    for line in (read_file("/proc/net/ipv6_route") or "").splitlines():
        fields = line.split()
        if len(fields) < 10 or fields[0] != "0" * 32 or fields[1] != "00":
            continue
        flags = int(fields[8], 16)
        if flags & 0x2 and not flags & 0x200:  # RTF_GATEWAY, and not a reject route
            gateway = socket.inet_ntop(socket.AF_INET6, bytes(bytearray.fromhex(fields[4])))
            return fields[9], gateway
    return None, None


def interface_facts(module):
    sys_net = "/sys/class/net"
    names = sorted(os.listdir(sys_net)) if os.path.isdir(sys_net) else [name for _, name in socket.if_nameindex()]
    ipv4 = ipv4_addresses(names)
    ipv6 = ipv6_addresses()
    facts = {"interfaces": names}  # type: dict
    all_ipv4, all_ipv6 = [], []  # type: list, list
    for name in names:
        base = os.path.join(sys_net, name)
        kind = (read_file(os.path.join(base, "type")) or "").strip()
        flags = int((read_file(os.path.join(base, "flags")) or "0").strip() or "0", 16)
        info = {"device": name, "active": bool(flags & 0x1), "promisc": bool(flags & 0x100),
                "type": {"772": "loopback", "1": "ether"}.get(kind, "unknown")}
        mtu = (read_file(os.path.join(base, "mtu")) or "").strip()
        if mtu.isdigit():
            info["mtu"] = int(mtu)
        mac = (read_file(os.path.join(base, "address")) or "").strip()
        if mac and kind != "772":
            info["macaddress"] = mac
        if os.path.isdir(os.path.join(base, "bridge")):
            info["type"] = "bridge"
        addresses = ipv4.get(name) or []
        if addresses:
            info["ipv4"] = addresses[0]
            if len(addresses) > 1:
                info["ipv4_secondaries"] = addresses[1:]
        if ipv6.get(name):
            info["ipv6"] = ipv6[name]
        if name != "lo":
            all_ipv4.extend(entry["address"] for entry in addresses)
            all_ipv6.extend(entry["address"] for entry in ipv6.get(name, []))
        facts[name.replace("-", "_").replace(".", "_")] = info
    facts["all_ipv4_addresses"] = all_ipv4
    facts["all_ipv6_addresses"] = all_ipv6
    facts["default_ipv4"] = _default_ipv4(facts)
    facts["default_ipv6"] = _default_ipv6(facts)
    return facts


def _interface_summary(info, name):
    summary = {"interface": name, "alias": name}
    for key in ("macaddress", "mtu", "type"):
        if key in info:
            summary[key] = info[key]
    return summary


def _default_ipv4(facts):
    name, gateway = default_ipv4_route()
    info = facts.get((name or "").replace("-", "_").replace(".", "_"))
    if not info or "ipv4" not in info:
        return {}
    summary = _interface_summary(info, name)
    summary.update(info["ipv4"])
    summary["gateway"] = gateway or ""
    return summary


def _default_ipv6(facts):
    name, gateway = default_ipv6_route()
    info = facts.get((name or "").replace("-", "_").replace(".", "_"))
    if not info:
        return {}
    summary = _interface_summary(info, name)
    global_addresses = [entry for entry in info.get("ipv6", []) if entry["scope"] == "global"]
    if global_addresses:
        summary.update(global_addresses[0])
    summary["gateway"] = gateway
    return summary


# -- virtual --------------------------------------------------------------------------------------------------
VM_PRODUCTS = (("KVM", "kvm"), ("QEMU", "kvm"), ("VMware", "VMware"), ("VirtualBox", "virtualbox"),
               ("Xen", "xen"), ("HVM domU", "xen"), ("Hyper-V", "hyperv"), ("Microsoft", "hyperv"),
               ("Amazon EC2", "kvm"), ("Google", "kvm"), ("OpenStack", "openstack"), ("Parallels", "parallels"),
               ("BHYVE", "bhyve"))


def _container_type():
    environ = read_file("/proc/1/environ") or ""
    for variable in environ.split("\0"):
        if variable.startswith("container="):
            return {"podman": "podman", "oci": "docker", "lxc": "lxc", "systemd-nspawn": "systemd-nspawn",
                    "docker": "docker"}.get(variable[10:], variable[10:])
    container = (read_file("/run/systemd/container") or "").strip()
    if container:
        return container
    if os.path.exists("/run/.containerenv"):
        return "podman"
    if os.path.exists("/.dockerenv"):
        return "docker"
    cgroup = read_file("/proc/1/cgroup") or ""
    for marker, name in (("docker", "docker"), ("kubepods", "container"), ("lxc", "lxc"), ("libpod", "podman")):
        if marker in cgroup:
            return name
    return None


def virtual_facts(module):
    guests, hosts = set(), set()
    container = _container_type()
    if container:
        guests.add(container)
    product = " ".join((read_file(path) or "").strip() for path in (
        "/sys/class/dmi/id/product_name", "/sys/class/dmi/id/sys_vendor", "/sys/class/dmi/id/bios_vendor"))
    vm = None
    for marker, name in VM_PRODUCTS:
        if marker in product:
            vm = name
            break
    if vm is None and os.path.exists("/proc/xen"):
        vm = "xen"
    if vm:
        guests.add(vm)
    if os.path.exists("/dev/kvm") and not vm:
        hosts.add("kvm")
    kind = container or vm
    role = "guest" if kind else ("host" if hosts else "NA")
    return {"virtualization_type": kind or (sorted(hosts)[0] if hosts else "NA"), "virtualization_role": role,
            "virtualization_tech_guest": sorted(guests), "virtualization_tech_host": sorted(hosts)}


# -- subsets --------------------------------------------------------------------------------------------------
COLLECTORS = {
    "platform": platform_facts, "distribution": distribution_facts, "python": python_facts, "user": user_facts,
    "env": env_facts, "date_time": date_time_facts, "lsb": lsb_facts, "pkg_mgr": pkg_mgr_facts,
    "service_mgr": service_mgr_facts, "selinux": selinux_facts, "apparmor": apparmor_facts, "dns": dns_facts,
    "cmdline": cmdline_facts, "fips": fips_facts, "local": local_facts, "ssh_pub_keys": ssh_pub_keys_facts,
    "processor": processor_facts, "memory": memory_facts, "mounts": mounts_facts, "uptime": uptime_facts,
    "interfaces": interface_facts, "virtual": virtual_facts, "systemd": systemd_facts,
}
GROUPS = {
    "min": ["platform", "distribution", "python", "user", "env", "date_time", "lsb", "pkg_mgr", "service_mgr",
            "selinux", "apparmor", "dns", "cmdline", "fips", "local", "ssh_pub_keys"],
    "hardware": ["processor", "memory", "mounts", "uptime"],
    "network": ["interfaces"],
    "virtual": ["virtual"],
    "ohai": [],  # facts from other tools: accepted, nothing to gather here
    "facter": [],
}


def select_collectors(module, subsets):
    """Ansible's gather_subset rules: names and groups add, !names remove (unknown ones are ignored), only
    exclusions start from all, what is named explicitly survives the exclusions, and min stays unless !min."""
    everything = set(COLLECTORS)
    minimal = set(GROUPS["min"])
    wanted, excluded, explicit = set(), set(), set()
    for subset in subsets:
        exclude = subset.startswith("!")
        name = subset[1:] if exclude else subset
        if name == "all":
            members = everything - minimal if exclude else everything
        elif name in GROUPS or name in COLLECTORS:
            members = set(GROUPS.get(name, [name]))
        elif exclude:
            continue
        else:
            module.fail("Bad subset '%s' given to Ansible. gather_subset options allowed: all, %s"
                        % (name, ", ".join(sorted(set(GROUPS) | everything))))
        if exclude:
            excluded |= members
        else:
            wanted |= members
            if name not in ("all", "min"):
                explicit |= members
    if not wanted:
        wanted = set(everything)
    selected = (wanted - (excluded - explicit)) | (minimal - excluded)
    return [name for name in COLLECTORS if name in selected]


def keep_matching(facts, patterns):
    if not patterns:
        return facts
    kept = {}
    for name, value in facts.items():
        for pattern in patterns:
            if fnmatch.fnmatch(name, pattern) or fnmatch.fnmatch("ansible_" + name, pattern):
                kept[name] = value
                break
    return kept


def run(module):
    params = module.params
    subsets = params["gather_subset"] or ["all"]
    facts = {}
    for name in select_collectors(module, subsets):
        facts.update(COLLECTORS[name](module))
    facts = {"ansible_" + name: value for name, value in keep_matching(facts, params["filter"]).items()}
    # Ansible's names: its setup prefixes every fact but these two, and the controller strips the prefix
    facts.update(gather_subset=subsets, module_setup=True)
    return {"changed": False, "ansible_facts": facts}
