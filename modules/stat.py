"""Retrieve facts about a file or file system status: kind, mode, owner, size, times, checksum, mime type."""

import errno
import os
import struct

from modules._fileinfo import describe
from modules._utils import file_checksum, path_state

DOCUMENTATION = {
    "short_description": "Retrieve file or file system status",
    "description": [
        "Retrieves facts for a file, similar to the Linux/Unix stat command. It changes nothing.",
        "The mime type comes from libmagic (what the file command uses) when the host has it, else from the "
        "file name's extension.",
        "File attributes (as lsattr shows them) are read with the same system call lsattr uses.",
        "In check mode, a path that an earlier task of the run would create or remove is reported as that task "
        "would leave it: exists, isdir, isreg, islnk and predicted: true (nothing more can be read yet).",
    ],
    "options": {
        "path": {"description": "The full path of the file or object.", "type": "path", "required": True,
                 "aliases": ["dest", "name"]},
        "follow": {"description": "Whether to follow symlinks.", "type": "bool", "default": False},
        "get_checksum": {"description": "Whether to return a checksum of a regular file.", "type": "bool",
                         "default": True},
        "checksum_algorithm": {"description": "Algorithm of the checksum.", "type": "str", "default": "sha1",
                               "choices": ["md5", "sha1", "sha224", "sha256", "sha384", "sha512"],
                               "aliases": ["checksum", "checksum_algo"]},
        "get_selinux_context": {"description": "Return the SELinux context as [user, role, type, range]; "
                                               "[None, None, None, None] when the host has none (no SELinux).",
                                "type": "bool", "default": False},
        "get_mime": {"description": "Return mimetype and charset.", "type": "bool", "default": True,
                     "aliases": ["mime", "mime_type", "mime-type"]},
        "get_attributes": {"description": "Return the file attributes (as lsattr shows them).", "type": "bool",
                           "default": True, "aliases": ["attr", "attributes"]},
    },
}

EXAMPLES = """
- name: Look at a configuration file
  stat:
    path: /etc/app.conf
  register: conf

- name: Fail when it is not owned by root
  fail:
    msg: "app.conf is owned by {{ conf.stat.pw_name }}"
  when: conf.stat.exists and conf.stat.pw_name != 'root'
"""

RETURN = {
    "stat": "Dictionary of the path's status: exists, path, mode ('0644'), isdir, isreg, islnk, ischr, isblk, "
            "isfifo, issock, uid, gid, pw_name, gr_name, size, inode, dev, nlink, blocks, block_size, atime, "
            "mtime, ctime, wusr/rusr/xusr/wgrp/rgrp/xgrp/woth/roth/xoth, isuid, isgid, readable, writeable, "
            "executable, checksum, lnk_source, lnk_target, mimetype, charset, attributes, attr_flags, version",
}

ARGUMENT_SPEC = {
    "path": {"type": "path", "required": True, "aliases": ["dest", "name"]},
    "follow": {"type": "bool", "default": False},
    "get_checksum": {"type": "bool", "default": True},
    "checksum_algorithm": {"type": "str", "default": "sha1", "aliases": ["checksum", "checksum_algo"],
                           "choices": ["md5", "sha1", "sha224", "sha256", "sha384", "sha512"]},
    "get_mime": {"type": "bool", "default": True, "aliases": ["mime", "mime_type", "mime-type"]},
    "get_selinux_context": {"type": "bool", "default": False},
    "get_attributes": {"type": "bool", "default": True, "aliases": ["attr", "attributes"]},
}
SUPPORTS_CHECK_MODE = True

# The inode flags lsattr shows, in its order: (bit, letter, the name Ansible reports).
_ATTRIBUTE_FLAGS = (
    (0x00000001, "s", "zero"), (0x00000002, "u", "undelete"), (0x00000008, "S", "synchronous"),
    (0x00010000, "D", "dirsync"), (0x00000010, "i", "immutable"), (0x00000020, "a", "append"),
    (0x00000040, "d", "nodump"), (0x00000080, "A", "noatime"), (0x00000004, "c", "compressed"),
    (0x00000800, "E", "encrypted"), (0x00004000, "j", "journalled"), (0x00001000, "I", "indexed"),
    (0x00008000, "t", "notail"), (0x00020000, "T", "blockroot"), (0x00080000, "e", "extents"),
    (0x00800000, "C", "nocow"), (0x02000000, "x", "dax"), (0x40000000, "F", "casefold"),
    (0x10000000, "N", "inline"), (0x20000000, "P", "projinherit"), (0x00100000, "V", "verity"),
    (0x00000400, "m", "nocompress"),
)


def _ioctl_read(code, fd):
    """FS_IOC_GETFLAGS / FS_IOC_GETVERSION (_IOR with a long argument; the kernel fills an int)."""
    import fcntl
    request = 0x80000000 | (struct.calcsize("l") << 16) | (ord(code) << 8) | 1
    buffer = bytearray(struct.calcsize("l"))
    fcntl.ioctl(fd, request, buffer, True)
    return struct.unpack("i", bytes(buffer[:4]))[0]


def file_attributes(path):
    """attributes, attr_flags and version as lsattr shows them; {} where the file system has none."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return {}
    try:
        flags = _ioctl_read("f", fd)
        found = [(letter, name) for bit, letter, name in _ATTRIBUTE_FLAGS if flags & bit]
        result = {"attr_flags": "".join(letter for letter, _ in found), "attributes": [name for _, name in found]}
        try:
            result["version"] = str(_ioctl_read("v", fd) & 0xFFFFFFFF)
        except (OSError, IOError):
            pass
        return result
    except (OSError, IOError) as exc:
        if exc.errno not in (errno.ENOTTY, errno.EOPNOTSUPP, errno.EINVAL, errno.ENOSYS):
            raise
        return {}
    finally:
        os.close(fd)


# libmagic, opened once per agent: loading its database costs milliseconds, a lookup microseconds.
_MAGIC = {}  # type: dict
MAGIC_MIME = 0x410  # MAGIC_MIME_TYPE | MAGIC_MIME_ENCODING: "text/plain; charset=us-ascii", as file --mime


def _libmagic():
    if "cookie" not in _MAGIC:
        _MAGIC["cookie"] = None
        try:
            import ctypes
            library = ctypes.CDLL("libmagic.so.1")
            library.magic_open.restype = ctypes.c_void_p
            library.magic_open.argtypes = [ctypes.c_int]
            library.magic_load.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
            library.magic_file.restype = ctypes.c_char_p
            library.magic_file.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
            cookie = library.magic_open(MAGIC_MIME)
            if cookie and library.magic_load(cookie, None) == 0:
                _MAGIC["cookie"], _MAGIC["library"] = cookie, library
        except (OSError, AttributeError):
            pass
    return _MAGIC["cookie"]


def _describe_mime(text):
    mimetype, _, rest = text.strip().partition(";")
    return {"mimetype": mimetype.strip(), "charset": rest.strip().partition("=")[2] or "unknown"}


def mime_type(module, path):
    """mimetype and charset as ``file --mime`` says: through libmagic in this process when the host has it,
    else the file command, else a guess from the name."""
    cookie = _libmagic()
    if cookie:
        found = _MAGIC["library"].magic_file(cookie, path.encode("utf-8", "surrogateescape"))
        if found:
            return _describe_mime(found.decode("utf-8", "replace"))
    command = module.get_bin_path("file")
    if command:
        rc, out, _ = module.run_command([command, "--brief", "--mime", path])
        if rc == 0 and out.strip():
            return _describe_mime(out)
    import mimetypes
    guessed, _ = mimetypes.guess_type(path)
    return {"mimetype": guessed or "unknown", "charset": "unknown"}


def predicted_stat(path, state):
    """The stat of a path that an earlier task of this check run would create or remove (nothing is on disk
    yet to read more from)."""
    if state == "absent":
        return {"exists": False}
    return {"exists": True, "path": path, "predicted": True, "isdir": state == "directory",
            "isreg": _kind(state) == "file", "islnk": state == "link"}


def _kind(state):
    return "file" if state == "hard" else state


def run(module):
    params = module.params
    path = params["path"]
    predicted = module.predicted(path)
    if predicted is not None and _kind(predicted) != _kind(path_state(path)):
        return {"changed": False, "stat": predicted_stat(path, predicted)}
    try:
        info = os.stat(path) if params["follow"] else os.lstat(path)
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            return {"changed": False, "stat": {"exists": False}}
        module.fail("Permission denied" if exc.errno == errno.EACCES else str(exc), path=path)
    result = describe(path, info)
    result["device_type"] = info.st_rdev  # as Ansible's stat on Linux: for every file, 0 unless a device
    if result["islnk"]:
        result["lnk_source"] = os.path.realpath(path)
        result["lnk_target"] = os.readlink(path)
    if result["isreg"] and params["get_checksum"] and result["readable"]:
        result["checksum"] = file_checksum(path, params["checksum_algorithm"])
    if params["get_mime"]:
        result.update(mime_type(module, path))
    if params["get_attributes"] and (result["isreg"] or result["isdir"]):
        result.update(file_attributes(path))
    if params["get_selinux_context"]:
        result["selinux_context"] = selinux_context(path)
    return {"changed": False, "stat": result}


def selinux_context(path):
    """The path's SELinux context as ansible-core gives it, [user, role, type, range]; four Nones on a host
    without SELinux enabled or a path without a label."""
    if not os.path.isdir("/sys/fs/selinux"):
        return [None, None, None, None]
    try:
        label = os.getxattr(path, "security.selinux", follow_symlinks=False).rstrip(b"\0").decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return [None, None, None, None]
    parts = label.split(":", 3)  # the range (level) may itself hold colons
    return parts + [None] * (4 - len(parts))
