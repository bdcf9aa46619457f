"""PID 1 of one local test host: builds its root, starts sshd, reaps every child, and ends them all on SIGTERM.

Started by ``unshare --mount --uts --pid --fork`` with one argument, the path of a JSON file (written by
``runner.testenv.host.launch``). A host that boots systemd (config ``init``) ends its set-up differently: this
process moves into the host's own cgroup namespace, builds the root as usual, then becomes systemd, which starts
sshd as a unit of a target of its own (boot_systemd).
Standard library only (Python 3.8+), and nothing imported after the root changes: the machine's Python runs
this file, and after ``pivot_root`` only the overlay (lower ``/``) is left to import from.

Because this process is PID 1 of its own PID namespace, the kernel ends every process of the host (daemons a
run started included) when it exits; that is what makes tearing a host down complete.
"""

import ctypes
import grp
import json
import os
import platform
import resource
import signal
import socket
import stat
import subprocess
import sys
import time

MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REMOUNT = 32
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18
MNT_DETACH = 2
CLONE_NEWCGROUP = 0x02000000

BOOT_ENV = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"}

# glibc has no wrapper for pivot_root(2); these are its syscall numbers.
PIVOT_ROOT_SYSCALL = {"x86_64": 155, "aarch64": 41, "riscv64": 41, "loongarch64": 41, "ppc64le": 203,
                      "s390x": 217, "i686": 217, "armv7l": 218}

# A minimal /dev: the character devices programs expect, nothing of the machine's disks.
DEVICES = {"null": (1, 3), "zero": (1, 5), "full": (1, 7), "random": (1, 8), "urandom": (1, 9), "tty": (5, 0)}
DEV_LINKS = {"fd": "/proc/self/fd", "stdin": "/proc/self/fd/0", "stdout": "/proc/self/fd/1",
             "stderr": "/proc/self/fd/2", "ptmx": "pts/ptmx"}

GRACE_SECONDS = 3.0
SSHD = "/usr/sbin/sshd"
SYSTEMD = "/lib/systemd/systemd"
RUNTIME_UNITS = "/run/systemd/system"
HOST_TARGET = "provisioning-host.target"
SSHD_UNIT = "provisioning-sshd.service"
# What systemd-detect-virt and the virtualization facts report for the host: a container of no known kind.
CONTAINER = "provisioning-testenv"

# sshd as the host's plain init runs it: its host ends when it exits (exit-force: the manager exits at once, and
# with it the PID namespace), and its sessions keep the open-files limit the host was started with, where systemd
# would give a service its own default (1024): what runs over SSH sees the limits a run on the machine has.
SSHD_UNIT_TEXT = """[Unit]
Description=OpenSSH server of the test host (provisioning-testenv)

[Service]
ExecStart={sshd} -D -e -f {config}
LimitNOFILE={nofile}
SuccessAction=exit-force
FailureAction=exit-force
"""

# What the host boots to: the base system and sshd, plus a golden image's boot services. Not multi-user.target,
# whose wants are the machine's own enabled services (its database, registry, ...), which would then run in
# every host with the machine's configuration; the host's enabled services stay what the machine has, to start.
HOST_TARGET_TEXT = """[Unit]
Description=A provisioning test host
Requires=basic.target
Wants={wants}
After=basic.target
AllowIsolate=yes
"""

libc = ctypes.CDLL(None, use_errno=True)


class Terminate(Exception):
    """Raised from the SIGTERM handler so that any blocking wait ends at once."""


def on_terminate(signum, frame):
    raise Terminate()


def _check(result, what):
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")


def mount(source, target, fstype=None, flags=0, data=None):
    def encode(text):
        return text.encode() if text is not None else None
    _check(libc.mount(encode(source), encode(target), encode(fstype), ctypes.c_ulong(flags), encode(data)),
           f"mount {fstype or source} on {target}")


def make_dev(root):
    dev = root + "/dev"
    mount("tmpfs", dev, "tmpfs", MS_NOSUID, "mode=0755,size=1m")
    for name, (major, minor) in DEVICES.items():
        path = dev + "/" + name
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(major, minor))
        os.chmod(path, 0o666)
    os.mkdir(dev + "/pts", 0o755)
    try:
        tty_gid = grp.getgrnam("tty").gr_gid
    except KeyError:
        tty_gid = 5
    mount("devpts", dev + "/pts", "devpts", MS_NOSUID | MS_NOEXEC,
          f"newinstance,ptmxmode=0666,mode=0620,gid={tty_gid}")
    os.mkdir(dev + "/shm")
    mount("tmpfs", dev + "/shm", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777")
    for name, target in DEV_LINKS.items():
        os.symlink(target, dev + "/" + name)


def stack_lowers(config):
    """The lower directory of the host's root: the machine's /, under the extra layers (a golden image's
    captured root), each stacked as the upper layer of a read-only overlay of its own.

    Not as more lowerdirs: a layer is a directory below /, and overlayfs refuses a lower layer inside another
    one ("overlapping lowerdir path"). A read-only overlay over / is a filesystem of its own, which the host's
    overlay may take as its lower layer; nothing is written through it (the host writes into its own upper)."""
    lower = "/"
    layers = config.get("lowers", [])
    for index, layer in enumerate(reversed(layers)):  # bottom first: the topmost layer ends up on top
        point = os.path.join(config["stack"], f"lower{index}")
        work = os.path.join(config["stack"], f"work{index}")
        for directory in (point, work):
            os.makedirs(directory, exist_ok=True)
        mount("overlay", point, "overlay", MS_RDONLY, f"lowerdir={lower},upperdir={layer},workdir={work}")
        lower = point
    return lower


def enter_cgroup(path):
    """Move into the host's own cgroup and make it the root of a new cgroup namespace, for systemd to manage the
    cgroups below it (the directory is the machine's, chosen by runner.testenv.cgroups.host_cgroup)."""
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "cgroup.procs"), "w") as handle:
        handle.write("0")  # cgroup v2: "0" is the writing process
    _check(libc.unshare(CLONE_NEWCGROUP), "unshare the cgroup namespace")


def build_root(config):
    """Mount the overlay and the host's own /proc, /dev, /sys, /tmp and /run under config['root'] (and its
    cgroup hierarchy for systemd)."""
    root = config["root"]
    mount(None, "/", None, MS_REC | MS_PRIVATE)  # nothing we mount may propagate to the machine
    lower = stack_lowers(config)
    mount("overlay", root, "overlay", 0,
          f"lowerdir={lower},upperdir={config['upper']},workdir={config['work']}")
    mount("proc", root + "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    make_dev(root)
    mount("/sys", root + "/sys", None, MS_BIND)
    mount(None, root + "/sys", None, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC)
    if config.get("cgroup"):
        mount("cgroup2", root + "/sys/fs/cgroup", "cgroup2", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    mount("tmpfs", root + "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777")
    mount("tmpfs", root + "/run", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755")
    for name, mode in (("lock", 0o1777), ("sshd", 0o755)):
        os.mkdir(root + "/run/" + name)
        os.chmod(root + "/run/" + name, mode)
    # The env's state (client key, every host's upper layer) is on the lower layer; hide it from the host.
    hidden = root + config["hide"]
    if os.path.isdir(hidden):
        mount("tmpfs", hidden, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=0755")


def enter_root(root):
    """pivot_root into the overlay and drop the machine's root, so the host sees only its own mounts."""
    number = PIVOT_ROOT_SYSCALL.get(platform.machine())
    if number is None:
        raise OSError(f"pivot_root: unknown syscall number on {platform.machine()}")
    os.chdir(root)
    _check(libc.syscall(number, b".", b"."), "pivot_root")
    _check(libc.umount2(b".", MNT_DETACH), "detach the old root")
    os.chdir("/")


# A golden image's host-specific files and boot services (runner/providers/local_identity.py writes it).
IMAGE_HOST_MANIFEST = "/etc/provisioning/image-host.json"
SERVICE_START_SECONDS = 120


def personalize(config):
    """On a root from a golden image: render its tokens with this host's name and address; return the services
    the image enabled at boot, for the init to start, so the host is what a machine booted from the image would
    be."""
    try:
        with open(IMAGE_HOST_MANIFEST) as handle:
            manifest = json.load(handle)
    except (OSError, ValueError):
        return []
    values = {manifest["tokens"]["hostname"]: config["hostname"], manifest["tokens"]["address"]: config["address"]}
    for name in manifest.get("files", []):
        try:
            with open("/" + name, "r+b") as handle:
                content = handle.read()
                rendered = content
                for token, value in values.items():
                    rendered = rendered.replace(token.encode(), value.encode())
                if rendered != content:
                    handle.seek(0)
                    handle.write(rendered)
                    handle.truncate()
        except OSError as exc:
            sys.stderr.write(f"init: cannot render {name}: {exc}\n")
    return manifest.get("services", [])


def start_services(services):
    """Start services through their init scripts, as the plain init's boot."""
    for service in services:
        try:
            subprocess.run(["/etc/init.d/" + service, "start"], stdin=subprocess.DEVNULL, env=BOOT_ENV,
                           timeout=SERVICE_START_SECONDS, check=False)
        except (OSError, subprocess.SubprocessError) as exc:
            sys.stderr.write(f"init: cannot start {service}: {exc}\n")


def boot_systemd(config, services):
    """Become systemd, booting the host to its own target: sshd and ``services`` on the base system. The units
    are runtime ones (/run, a tmpfs of the host's), so nothing of them is left in its files."""
    os.makedirs(RUNTIME_UNITS, exist_ok=True)
    nofile = ":".join("infinity" if limit == resource.RLIM_INFINITY else str(limit)
                      for limit in resource.getrlimit(resource.RLIMIT_NOFILE))
    units = {SSHD_UNIT: SSHD_UNIT_TEXT.format(sshd=SSHD, config=config["sshd_config"], nofile=nofile),
             HOST_TARGET: HOST_TARGET_TEXT.format(wants=" ".join([SSHD_UNIT] + [f"{name}.service"
                                                                                for name in services]))}
    for name, text in units.items():
        with open(os.path.join(RUNTIME_UNITS, name), "w") as handle:
            handle.write(text)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.execve(SYSTEMD, [SYSTEMD, f"--unit={HOST_TARGET}", "--show-status=false"],
              dict(BOOT_ENV, container=CONTAINER))


def outer_pid():
    """Our pid as the machine sees it: /proc is still the machine's until the host's own is mounted."""
    return int(os.readlink("/proc/self"))


def end_all_processes():
    """SIGTERM every process of the namespace, reap them, SIGKILL what is left after the grace period."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    for signum in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.kill(-1, signum)  # from PID 1: every process in this namespace but ourselves
        except ProcessLookupError:
            return
        deadline = time.monotonic() + GRACE_SECONDS
        while time.monotonic() < deadline:
            try:
                while os.waitpid(-1, os.WNOHANG)[0] > 0:
                    pass
            except ChildProcessError:
                return
            time.sleep(0.02)


def reap_until_sshd_exits(sshd_pid):
    """Reap every child (orphaned daemons are re-parented to us); return sshd's exit status."""
    while True:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            signal.pause()
            continue
        if pid == sshd_pid:
            return os.WEXITSTATUS(status) if os.WIFEXITED(status) else -os.WTERMSIG(status)


def main():
    signal.signal(signal.SIGTERM, on_terminate)
    signal.signal(signal.SIGINT, on_terminate)
    with open(sys.argv[1]) as handle:
        config = json.load(handle)
    os.umask(0o022)
    try:
        with open(config["pid_file"], "w") as handle:
            handle.write(f"{outer_pid()}\n")
        socket.sethostname(config["hostname"])
        if config.get("cgroup"):
            enter_cgroup(config["cgroup"])
        build_root(config)
        enter_root(config["root"])
        services = personalize(config) if config.get("lowers") else []
        if config.get("init") == "systemd":
            boot_systemd(config, services)  # does not return
        start_services(services)
        sshd = subprocess.Popen([SSHD, "-D", "-e", "-f", config["sshd_config"]], stdin=subprocess.DEVNULL,
                                env=BOOT_ENV)
        code = reap_until_sshd_exits(sshd.pid)
        sys.stderr.write(f"init: sshd exited with status {code}; stopping the host\n")
        end_all_processes()
        return 1
    except Terminate:
        end_all_processes()
        return 0
    except OSError as exc:
        sys.stderr.write(f"init: {exc}\n")
        end_all_processes()
        return 1


if __name__ == "__main__":
    sys.exit(main())
