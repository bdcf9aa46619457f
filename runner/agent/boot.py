"""The agent's first stage on the host: it runs the agent (``remote.py``) from code compiled once per host and user.

The bootstrap (``BOOTSTRAP`` in ``runner/agent/__init__.py``) reads this source from stdin and runs it; this then
reads the agent's sha256 (64 hex digits), its length (10 digits) and its source, the same way (``os.read``, so
every byte after the source stays on stdin for the agent's frames), and runs the agent's code in this namespace,
where the agent finds ``BytecodeCache`` and ``replace_file``. The code comes from the cache the agent keeps for
its modules when it holds this version of the agent, else it is compiled and kept there: compiling the agent's
~33 KB of source took each host ~20 ms of CPU at every agent start, more than the interpreter's own start.

This file runs on the target with the standard library alone (Python >= 3.8), and is compiled at every start:
it stays small.
"""

import hashlib
import marshal
import os
import stat

# Not a module's name (those are identifiers): the cache's entries for modules and the agent's never mix.
AGENT_NAME = "@agent"
AGENT_FILENAME = "<string>"  # as the agent was named when the bootstrap ran its source: tracebacks read the same


class BytecodeCache(object):
    """Compiled module code under ``~/.cache/provisioning/bytecode`` of the user the agent runs as, one file per
    module name, source hash and interpreter bytecode version. Used only when that directory belongs to the user
    and nobody else can write to it; any trouble (no home, read-only, a damaged file) means compiling, as if there
    were no cache. Writing a module's new version removes its older ones."""

    def __init__(self):
        self.magic = self._magic()
        self.directory = self._directory() if self.magic is not None else None

    @staticmethod
    def _magic():
        try:
            import _frozen_importlib_external

            return _frozen_importlib_external.MAGIC_NUMBER.hex()
        except (ImportError, AttributeError):
            return None  # not CPython: no stable bytecode to keep

    @staticmethod
    def _directory():
        try:
            import pwd

            home = pwd.getpwuid(os.getuid()).pw_dir
            path = os.path.join(home, ".cache", "provisioning", "bytecode")
            if not os.path.isdir(path):
                os.makedirs(path, 0o700)
            info = os.lstat(path)
        except (ImportError, KeyError, OSError):
            return None
        if info.st_uid != os.getuid() or info.st_mode & 0o022 or not stat.S_ISDIR(info.st_mode):
            return None
        return path

    def _path(self, directory, name, digest):
        return os.path.join(directory, "%s-%s.%s" % (name, digest, self.magic))

    def code(self, name, digest, source, filename):
        """The code object of ``source`` (whose sha256 is ``digest``, already checked)."""
        directory = self.directory
        if directory is not None:
            try:
                with open(self._path(directory, name, digest), "rb") as handle:
                    return marshal.loads(handle.read())
            except (OSError, EOFError, ValueError, TypeError):
                pass
        code = compile(source, filename, "exec")
        if directory is not None:
            self._store(directory, name, digest, code)
        return code

    def _store(self, directory, name, digest, code):
        path = self._path(directory, name, digest)
        try:
            replace_file(path, marshal.dumps(code))
        except OSError:
            return  # not writable after all: compile next time
        # Module names are identifiers (no "-"): "name-" starts only this module's entries. Another agent (a host
        # sharing this home directory) may be removing them too.
        prefix, suffix, current = name + "-", "." + self.magic, os.path.basename(path)
        try:
            entries = os.listdir(directory)
        except OSError:
            return
        for entry in entries:
            if entry.startswith(prefix) and entry.endswith(suffix) and entry != current:
                try:
                    os.unlink(os.path.join(directory, entry))
                except OSError:
                    pass


def replace_file(path, data):
    """Write ``data`` (0600) beside ``path``, then rename it into place: a reader never sees half of it. The file
    beside is named after this process and host, since a home directory can be shared between hosts."""
    partial = "%s.%s.%d.tmp" % (path, os.uname()[1], os.getpid())
    try:
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.rename(partial, path)
    except BaseException:  # a failed write, or the agent told to stop: no partial file stays behind
        try:
            os.unlink(partial)
        except OSError:
            pass
        raise


def _read(size):
    data = b""
    while len(data) < size:
        chunk = os.read(0, size - len(data))
        if not chunk:
            os._exit(3)  # the controller went before the agent arrived, as the bootstrap itself exits
        data += chunk
    return data


def _agent_code():
    digest = _read(64).decode("ascii")
    source = _read(int(_read(10)))
    if hashlib.sha256(source).hexdigest() != digest:
        return compile(source, AGENT_FILENAME, "exec")  # not what the controller said it sent: nothing is kept
    return BytecodeCache().code(AGENT_NAME, digest, source, AGENT_FILENAME)


exec(_agent_code())
