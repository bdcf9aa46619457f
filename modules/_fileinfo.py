"""What a path is, as stat and find report it: kind, permissions, owner, size, times."""

import os
import stat

from modules._utils import group_name, user_name

_PERMISSIONS = (("rusr", stat.S_IRUSR), ("wusr", stat.S_IWUSR), ("xusr", stat.S_IXUSR),
                ("rgrp", stat.S_IRGRP), ("wgrp", stat.S_IWGRP), ("xgrp", stat.S_IXGRP),
                ("roth", stat.S_IROTH), ("woth", stat.S_IWOTH), ("xoth", stat.S_IXOTH),
                ("isuid", stat.S_ISUID), ("isgid", stat.S_ISGID))
_KINDS = (("isdir", stat.S_ISDIR), ("ischr", stat.S_ISCHR), ("isblk", stat.S_ISBLK), ("isreg", stat.S_ISREG),
          ("isfifo", stat.S_ISFIFO), ("islnk", stat.S_ISLNK), ("issock", stat.S_ISSOCK))


def describe(path, info):
    """The stat dictionary for what ``os.stat``/``os.lstat`` returned."""
    mode = info.st_mode
    result = {"exists": True, "path": path, "mode": "0%03o" % stat.S_IMODE(mode),
              "uid": info.st_uid, "gid": info.st_gid, "size": info.st_size, "inode": info.st_ino,
              "dev": info.st_dev, "nlink": info.st_nlink, "atime": info.st_atime, "mtime": info.st_mtime,
              "ctime": info.st_ctime, "blocks": info.st_blocks, "block_size": info.st_blksize,
              "disk_usage_bytes": info.st_blocks * 512,  # ansible-core 2.21's: st_blocks counts 512-byte units
              "pw_name": user_name(info.st_uid), "gr_name": group_name(info.st_gid)}
    for name, test in _KINDS:
        result[name] = bool(test(mode))
    for name, bit in _PERMISSIONS:
        result[name] = bool(mode & bit)
    if result["ischr"] or result["isblk"]:
        result["device_type"] = info.st_rdev
    result["readable"] = os.access(path, os.R_OK)
    result["writeable"] = os.access(path, os.W_OK)
    result["executable"] = os.access(path, os.X_OK)
    return result
