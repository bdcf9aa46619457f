"""Mount points as facts: from /proc/mounts, /etc/mtab, /etc/fstab or the mount command, with sizes and UUIDs."""

import codecs
import fnmatch
import os
import re
import subprocess
import threading

from modules._spec import argument_spec

DOCUMENTATION = {
    "short_description": "Retrieve mount information",
    "description": [
        "Sets ansible_facts.mount_points (each mount point's first definition among the sources) and "
        "ansible_facts.aggregate_mounts (every definition, with include_aggregate_mounts), each with device, "
        "mount, fstype, options, dump, passno, the sizes os.statvfs gives (size_total, size_available, "
        "block_*, inode_*), uuid, and ansible_context (the source and its line).",
        "sources: all (dynamic and static), dynamic (/etc/mtab, /proc/mounts, /etc/mnttab), static (/etc/fstab, "
        "/etc/vfstab, /etc/filesystems), mount (the output of mount_binary), or file paths. Missing or empty "
        "files are skipped, and so is a source seen before (through a link too). When no dynamic file lists any "
        "mount, mount_binary is run instead (unless it is null).",
        "Files are read in the fstab format (device, mount point, type, options, dump, passno; octal escapes "
        "such as \\040 decoded), and mount's output in its Linux and BSD forms; Solaris' vfstab/mnttab and AIX's "
        "filesystems formats are not read.",
        "timeout bounds each size query and the mount command; on_timeout says whether running out of it fails "
        "the task, warns, or is ignored. A UUID comes from /etc/fstab's UUID=, /dev/disk/by-uuid, or lsblk.",
        "It changes nothing.",
    ],
    "options": {
        "devices": {"description": "fnmatch patterns the device must match.", "type": "list", "elements": "str"},
        "fstypes": {"description": "fnmatch patterns the file system type must match.", "type": "list",
                    "elements": "str"},
        "sources": {"description": "Where to read mounts from (see above); default all.", "type": "list",
                    "elements": "str"},
        "mount_binary": {"description": "The mount command to run as a source, or null never to run it.",
                         "type": "raw", "default": "mount"},
        "timeout": {"description": "Seconds each mount's size query (and the mount command) may take; null: "
                                   "no limit.", "type": "float"},
        "on_timeout": {"description": "error, warn or ignore when timeout runs out.", "type": "str",
                       "default": "error", "choices": ["error", "warn", "ignore"]},
        "include_aggregate_mounts": {"description": "Return every definition in aggregate_mounts; null warns "
                                                    "when a mount point is defined twice in one source.",
                                     "type": "bool"},
    },
}

EXAMPLES = """
- name: Mounts of ext4 and xfs file systems, skipping any that hangs for 10 seconds
  mount_facts:
    fstypes: [ext4, xfs]
    timeout: 10
    on_timeout: warn
"""

RETURN = {"ansible_facts": "mount_points: mount point -> its details; aggregate_mounts: every mount found"}

ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
SUPPORTS_CHECK_MODE = True

STATIC_SOURCES = ["/etc/fstab", "/etc/vfstab", "/etc/filesystems"]
DYNAMIC_SOURCES = ["/etc/mtab", "/proc/mounts", "/etc/mnttab"]
# Solaris' and AIX's own formats: not read (ansible-core reads them on those systems).
OTHER_FORMATS = ("/etc/vfstab", "/etc/mnttab", "/etc/filesystems")
LINUX_MOUNT = re.compile(r"^(?P<device>\S+) on (?P<mount>\S+) type (?P<fstype>\S+) \((?P<options>.+)\)$")
BSD_MOUNT = re.compile(r"^(?P<device>\S+) on (?P<mount>\S+) \((?P<fstype>.+)\)$")


class TimedOut(Exception):
    pass


def decode_octal(value):
    return re.sub(r"(\\[0-7]{3})", lambda match: codecs.decode(match.group(0), "unicode_escape"), value)


def within(seconds, what, function, *args):
    """``function(*args)``, or TimedOut after ``seconds`` (None: no limit). A call that hangs (a dead NFS server)
    is left to its thread, which never holds the module up."""
    if seconds is None:
        return function(*args)
    outcome = {}

    def call():
        try:
            outcome["value"] = function(*args)
        except Exception as exc:  # handed over to the caller's thread
            outcome["error"] = exc
    worker = threading.Thread(target=call)
    worker.daemon = True
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise TimedOut(what)
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


def timed_out(module, message):
    """What on_timeout says to do; the module fails for error."""
    if module.params["on_timeout"] == "error":
        module.fail(message)
    if module.params["on_timeout"] == "warn":
        module.warn(message)


def fstab_entries(lines):
    for line in lines:
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        fields = [decode_octal(field) for field in text.split()]
        if len(fields) < 4:
            continue
        entry = {"device": fields[0], "mount": fields[1], "fstype": fields[2], "options": fields[3]}
        if len(fields) > 5 and fields[4].isdigit() and fields[5].isdigit():
            entry.update(dump=int(fields[4]), passno=int(fields[5]))
        yield text, entry


def mount_output_entries(output):
    lines = output.splitlines()
    if lines and all(LINUX_MOUNT.match(line) for line in lines):
        pattern = LINUX_MOUNT
    elif lines and all(BSD_MOUNT.match(line) for line in lines if not line.startswith("map ")):
        pattern = BSD_MOUNT
    else:
        return
    for line in lines:
        match = pattern.match(line)
        if not match:
            continue
        entry = match.groupdict()
        if pattern is BSD_MOUNT:
            parts = re.split(r"\s*,\s*", entry["fstype"], maxsplit=1)
            entry["fstype"] = parts[0]
            if len(parts) > 1:
                entry["options"] = parts[1]
        yield line, entry


def run_mount(module):
    binary = module.get_bin_path(module.params["mount_binary"], required=True)
    try:
        return subprocess.check_output([binary], universal_newlines=True, timeout=module.params["timeout"],
                                       stdin=subprocess.DEVNULL, env=dict(os.environ, LANG="C", LC_ALL="C"))
    except subprocess.TimeoutExpired:
        timed_out(module, "Command '%s' timed out after %s seconds" % (binary, module.params["timeout"]))
        return ""
    except (subprocess.CalledProcessError, OSError) as exc:
        module.fail("Failed to execute %s: %s" % (binary, exc))


def sources_asked(module):
    sources = []
    for source in module.params["sources"] or ["all"]:
        if not source:
            module.fail("sources contains an empty string")
        if source in ("dynamic", "all"):
            sources.extend(DYNAMIC_SOURCES)
        if source in ("static", "all"):
            sources.extend(STATIC_SOURCES)
        if source not in ("static", "dynamic", "all"):
            sources.append(source)
    return sources


def read_lines(path):
    try:
        with open(path) as handle:
            return handle.read().splitlines()
    except (IOError, OSError, UnicodeDecodeError):
        return []


def mounts_by_source(module):
    """(source, line, entry) for every mount of every source asked for."""
    sources = sources_asked(module)
    if len(set(sources)) < len(sources):
        module.warn("mount_facts option 'sources' contains duplicate entries, repeat sources will be ignored: %s"
                    % sources)
    fallback = module.params["mount_binary"] and set(sources) & set(DYNAMIC_SOURCES)
    seen = set()
    for source in sources:
        real = os.path.realpath(source)
        if source in seen or real in seen:
            continue
        if source == "mount":
            seen.add(source)
            found = list(mount_output_entries(run_mount(module)))
        else:
            seen.add(real)
            found = [] if source in OTHER_FORMATS else list(fstab_entries(read_lines(source)))
        if found and source in ["mount", *DYNAMIC_SOURCES]:
            fallback = False
        for line, entry in found:
            yield source, line, entry
    if fallback:
        for line, entry in mount_output_entries(run_mount(module)):
            yield "mount", line, entry


def mount_size(path):
    try:
        info = os.statvfs(path)
    except OSError:
        return {}
    return {"size_total": info.f_frsize * info.f_blocks, "size_available": info.f_frsize * info.f_bavail,
            "block_size": info.f_bsize, "block_total": info.f_blocks, "block_available": info.f_bavail,
            "block_used": info.f_blocks - info.f_bfree, "inode_total": info.f_files,
            "inode_available": info.f_favail, "inode_used": info.f_files - info.f_ffree}


class Uuids(object):
    """Device <-> UUID, from /dev/disk/by-uuid, blkid and lsblk, each asked at most once."""

    def __init__(self, module):
        self.module = module
        self._by_device = None

    def device_of(self, uuid):
        link = os.path.join("/dev/disk/by-uuid", uuid)
        if os.path.exists(link):
            return os.path.realpath(link)
        return next((device for device, known in self.by_device().items() if known == uuid), None)

    def uuid_of(self, device):
        return self.by_device().get(device)

    def by_device(self):
        if self._by_device is None:
            self._by_device = {}
            try:
                names = os.listdir("/dev/disk/by-uuid")
            except OSError:
                names = []
            for uuid in names:
                self._by_device[os.path.realpath(os.path.join("/dev/disk/by-uuid", uuid))] = uuid
            lsblk = self.module.get_bin_path("lsblk")
            if lsblk:
                rc, out, _err = self.module.run_command([lsblk, "--list", "--noheadings", "--paths", "--output",
                                                         "NAME,UUID", "--exclude", "2"])
                for fields in (line.split() for line in out.splitlines() if rc == 0):
                    if len(fields) == 2:
                        self._by_device.setdefault(fields[0], fields[1])
        return self._by_device


def run(module):
    params = module.params
    if params["timeout"] is not None and params["timeout"] <= 0:
        module.fail("argument 'timeout' must be a positive number or null, not %s" % params["timeout"])
    if params["mount_binary"] is not None and not isinstance(params["mount_binary"], str):
        module.fail("argument 'mount_binary' must be a string or null, not %s" % params["mount_binary"])
    uuids = Uuids(module)
    mounts = []
    for source, line, entry in mounts_by_source(module):
        device, fstype, uuid = entry["device"], entry["fstype"], None
        if device.startswith("UUID="):
            uuid = device.split("=", 1)[1]
            device = uuids.device_of(uuid) or device
        if not any(fnmatch.fnmatch(device, pattern) for pattern in params["devices"] or ["*"]):
            continue
        if not any(fnmatch.fnmatch(fstype, pattern) for pattern in params["fstypes"] or ["*"]):
            continue
        try:
            entry.update(within(params["timeout"], "Timed out getting mount size for mount %s (type %s)"
                                % (entry["mount"], fstype), mount_size, entry["mount"]))
        except TimedOut as exc:
            timed_out(module, str(exc))
        entry.update(uuid=uuid or uuids.uuid_of(device), ansible_context={"source": source, "source_data": line})
        mounts.append(entry)
    return {"changed": False, "ansible_facts": {"mount_points": first_of_each(module, mounts),
                                                "aggregate_mounts": mounts if params["include_aggregate_mounts"]
                                                else []}}


def first_of_each(module, mounts):
    points, by_source = {}, {}  # type: dict, dict
    for entry in mounts:
        points.setdefault(entry["mount"], entry)
        by_source.setdefault(entry["ansible_context"]["source"], []).append(entry["mount"])
    repeated = dict((source, names) for source, names in by_source.items() if len(set(names)) != len(names))
    if repeated and module.params["include_aggregate_mounts"] is None:
        module.warn("mount_facts: ignoring repeat mounts in the following sources: %s. You can disable this "
                    "warning by configuring the 'include_aggregate_mounts' option as True or False."
                    % ", ".join("%s (%s)" % (source, names) for source, names in repeated.items()))
    return points
