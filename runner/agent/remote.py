"""The remote agent: one long-lived Python process per host and per become-user.

This file runs on the target with the standard library alone (Python >= 3.8). The controller sends it through
the bootstrap (``BOOTSTRAP`` in ``runner/agent/__init__.py``) and then talks to it in frames over stdin/stdout:

    frame = struct "!II" (header length, body length) + JSON header + raw body

Requests carry an ``op``; every request gets exactly one reply frame, except ``put`` chunks that are not
``final`` (streamed without a reply) and ``fetch`` (one frame per chunk, then a final one). Module sources
arrive once (``load``) and are kept by hash for the life of the process; modules run in this interpreter, so a
task costs one request and one reply, no process spawn. Their compiled code is kept on the host between runs
(``BytecodeCache``), as Python keeps ``__pycache__``: compiling the module sources is a good part of an agent's
start.

Imports that only some requests need (tempfile, traceback, shutil) are made where they are used: every host
pays for the agent's start-up imports at every run.
"""

import hashlib
import json
import os
import select
import signal
import struct
import sys
import threading
import types

# Defined by the agent's first stage (boot.py), which runs this source in its own namespace on the host.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from runner.agent.boot import BytecodeCache, replace_file

HEADER = struct.Struct("!II")
CHUNK = 1 << 18
ASYNC_DIR = "~/.ansible_async"  # where async jobs keep their state unless ansible_async_dir says otherwise


class Channel(object):
    def __init__(self):
        # The protocol owns the original stdin/stdout; modules and their children get /dev/null and stderr,
        # so nothing they read or print can corrupt a frame.
        self.reader = os.fdopen(os.dup(0), "rb", buffering=1 << 16)
        self.writer = os.fdopen(os.dup(1), "wb", buffering=1 << 16)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        os.dup2(2, 1)
        sys.stdout = sys.stderr

    def _read_exact(self, size):
        data = self.reader.read(size)
        if data is None or len(data) < size:
            return None
        return data

    def receive(self):
        head = self._read_exact(HEADER.size)
        if head is None:
            return None, b""
        header_len, body_len = HEADER.unpack(head)
        data = self._read_exact(header_len)
        body = self._read_exact(body_len) if body_len else b""
        if data is None or body is None:
            return None, b""  # the channel closed in the middle of a frame: the controller has gone
        return json.loads(data.decode("utf-8")), body

    def send(self, header, body=b""):
        data = json.dumps(header, default=str, separators=(",", ":")).encode("utf-8")
        self.writer.write(HEADER.pack(len(data), len(body)) + data + body)
        self.writer.flush()


# What ends the agent before its exit request: the controller's interrupt (SIGINT, or SIGTERM sent over the
# channel), sshd's SIGHUP (a session with a terminal), or the end of its channel.
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
# Seconds the running module has to unwind once told to stop, before the agent ends everything without it.
STOP_GRACE = 5
# The start command's arguments (runner.agent.start_command), read at start: a module may change sys.argv. How
# interpreter discovery went when the start command chose this interpreter (found, none, error) and the path it
# found; None when the interpreter was configured. Last, the agent's temporary directory (under remote_tmp).
ARGUMENTS = sys.argv[1:] if sys.argv[:1] == ["-c"] else []
DISCOVERY = ARGUMENTS[0] if len(ARGUMENTS) >= 2 else None
DISCOVERED = ARGUMENTS[1] if len(ARGUMENTS) >= 2 else None
TEMP_DIR = ARGUMENTS[-1] if len(ARGUMENTS) in (1, 3) else None


class Stopped(BaseException):
    """Raised in the main thread when the agent must stop: the controller has gone (its channel closed without an
    exit request) or stopped the run (a signal). The running module unwinds, so its own clean-up runs (temp files
    beside their destination), then the agent's; a BaseException, so that no module's ``except Exception`` keeps
    it."""

    def __init__(self, signum):
        BaseException.__init__(self, signum)
        self.signum = signum


def stop_processes():
    """SIGTERM to the agent's process group: every process it started (modules' commands and their children).
    The agent ignores that signal, and any other stop signal, from here on: it is already stopping."""
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_IGN)
    try:
        os.killpg(os.getpgrp(), signal.SIGTERM)
    except OSError:
        pass


def stop(signum, frame):
    stop_processes()
    raise Stopped(signum)


class AbortWatch(object):
    """While a module runs, no request may arrive: stdin becoming readable (the controller closed the channel, or
    gave up on the task) means stop now. The main thread is told with SIGHUP (a signal interrupts whatever it
    waits for); if the module does not let go within ``STOP_GRACE`` seconds, this thread removes the temp files
    and ends the whole process group itself."""

    def __init__(self, agent):
        self.agent = agent
        self.main_thread = threading.main_thread().ident  # the thread the signal must reach: a started one
        self.wake_read, self.wake_write = os.pipe()
        self.thread = threading.Thread(target=self._watch)
        self.thread.daemon = True

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc_info):
        os.write(self.wake_write, b"x")
        self.thread.join()
        os.close(self.wake_read)
        os.close(self.wake_write)
        return False

    def _watch(self):
        readable, _, _ = select.select([self.agent.channel.reader.fileno(), self.wake_read], [], [])
        if self.wake_read in readable:
            return
        if self.main_thread is not None:
            signal.pthread_kill(self.main_thread, signal.SIGHUP)
        readable, _, _ = select.select([self.wake_read], [], [], STOP_GRACE)
        if not readable:
            self.agent.cleanup()
            os.killpg(os.getpgrp(), signal.SIGKILL)


class AnsibleModuleRun(object):
    """A module written against Ansible's API, packed with its module_utils in a zip (see
    ``runner/ansible_api/packer.py``, unpacked by ``op_stash``), run as AnsiballZ runs it: in a child of its own,
    so its imports, global state, ``sys.exit`` and the JSON it prints on stdout never touch the agent. The child
    is in the agent's process group: stopping the agent stops it too."""

    def __init__(self, agent, modlib_path, fqn, header):
        self.agent, self.modlib_path, self.fqn, self.header = agent, modlib_path, fqn, header

    def run(self):
        errors_path = os.path.join(self.agent.workdir(), "module-stderr.%d" % os.getpid())
        read_fd, write_fd = os.pipe()
        child = os.fork()
        if child == 0:
            os.close(read_fd)
            self._child(write_fd, errors_path)  # never returns
        os.close(write_fd)
        chunks = []
        try:
            with AbortWatch(self.agent):
                while True:
                    block = os.read(read_fd, CHUNK)
                    if not block:
                        break
                    chunks.append(block)
                _, status = os.waitpid(child, 0)
        finally:
            os.close(read_fd)
        stderr = b""
        try:
            with open(errors_path, "rb") as handle:
                stderr = handle.read()
            os.unlink(errors_path)
        except OSError:
            pass
        rc = os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)
        errors = stderr.decode("utf-8", "replace")
        result = parse_module_output(b"".join(chunks).decode("utf-8", "replace"), errors, rc)
        if errors and self.header.get("async_job"):
            result["stderr"] = errors  # an async job's result carries what the module printed there, as Ansible's
        return result

    def _child(self, stdout_fd, errors_path):
        code = 1
        try:
            for signum in STOP_SIGNALS:
                signal.signal(signum, signal.SIG_DFL)
            os.close(self.agent.channel.reader.fileno())
            os.close(self.agent.channel.writer.fileno())
            os.dup2(stdout_fd, 1)
            os.close(stdout_fd)
            errors = os.open(errors_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(errors, 2)
            os.close(errors)
            sys.stdout = os.fdopen(1, "w")
            sys.stderr = os.fdopen(2, "w")
            if self.header.get("env"):
                os.environ.update({k: str(v) for k, v in self.header["env"].items()})
            set_open_files_limit(self.header.get("rlimit_nofile"))  # this child's own: nothing to restore
            try:
                attach_debugger(self.header.get("debugger"))
            except Exception as exc:  # the module's failure, as JSON it would have printed
                sys.stdout.write(json.dumps(module_failure(exc)))
                raise SystemExit(1) from None
            sys.path.insert(0, self.modlib_path)
            sys.argv = [self.modlib_path]
            params = json.dumps({"ANSIBLE_MODULE_ARGS": self.header["args"]}).encode("utf-8")
            try:
                from ansible.module_utils._internal._ansiballz import _loader  # ansible-core >= 2.19
            except ImportError:
                _loader = None
            if _loader is not None:
                _loader.run_module(json_params=params, profile=self.header.get("profile") or "legacy",
                                   module_fqn=self.fqn,
                                   modlib_path=self.modlib_path, extensions={})
            else:
                import runpy

                from ansible.module_utils import basic
                basic._ANSIBLE_ARGS = params
                runpy.run_module(self.fqn, run_name="__main__", alter_sys=True)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except BaseException:
            import traceback
            traceback.print_exc()
        finally:
            try:
                import atexit
                atexit._run_exitfuncs()  # AnsibleModule removes its temp directory at exit
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(code)


def make_private_dir(path, prefix="ansible-tmp-"):
    """Make the directory ``path`` (``~`` the agent's user's home), private to the user (0700), its missing parents
    too, as ansible-core makes a remote temporary directory (``umask 77 && mkdir -p``), and return its path. A
    name someone took already gets a fresh one beside it (``prefix`` and a random part); a parent that cannot be
    made (no home) one in the system's temporary directory, as AnsibleModule falls back for its own. None: a
    fresh one in the system's."""
    import tempfile
    if path:
        path = os.path.expanduser(os.path.expandvars(path.rstrip("/")))
        parent = os.path.dirname(path) or "."
        mask = os.umask(0o077)
        try:
            if not os.path.isdir(parent):
                os.makedirs(parent, 0o700)
            try:
                os.mkdir(path, 0o700)
                return path
            except FileExistsError:
                return tempfile.mkdtemp(prefix=os.path.basename(path) + "-", dir=parent)
        except OSError:
            pass
        finally:
            os.umask(mask)
    return tempfile.mkdtemp(prefix=prefix)


def async_directory(header):
    """The directory async jobs keep their state in (``ansible_async_dir``, else ``~/.ansible_async``), made
    private to the user when missing; OSError when it cannot be."""
    directory = os.path.expanduser(header.get("async_dir") or ASYNC_DIR)
    if not os.path.isdir(directory):
        os.makedirs(directory, 0o700)
    return directory


def parse_module_output(stdout, stderr, rc):
    """The result an Ansible module printed: the JSON object starting on the first line that starts with ``{``,
    with the lines before it left out and those after it warned about (as ansible-core does); none is a module
    failure with what the module said."""
    start, offset = -1, 0
    for line in stdout.splitlines(True):
        if line.strip().startswith("{"):
            start = offset + line.index("{")
            break
        offset += len(line)
    if start >= 0:
        try:
            result, end = json.JSONDecoder().raw_decode(stdout, start)
        except ValueError:
            result = None
        if isinstance(result, dict):
            junk = stdout[end:].split("\n", 1)[1] if "\n" in stdout[end:] else ""
            if junk.strip():
                result.setdefault("warnings", []).append(
                    "Module invocation had junk after the JSON data: %s" % "\n".join(junk.splitlines()))
            return result
    return {"failed": True, "rc": rc, "module_stdout": stdout, "module_stderr": stderr,
            "msg": "MODULE FAILURE: No start of json char found\nSee stdout/stderr for the exact error"}


def attach_debugger(options):
    """Attach the remote debugger ``options`` name (pydevd's options, as ansible-core's AnsiballZ takes them:
    ``module`` to import, the arguments of its ``settrace``, ``source_mapping``) before a module runs; an import
    that fails is the module's failure, raised. The tracer stays with the process it was attached to."""
    if not options:
        return
    import importlib
    mapping = [[key, value] for key, value in (options.get("source_mapping") or {}).items()]
    os.environ["PATHS_FROM_ECLIPSE_TO_PYTHON"] = json.dumps(mapping)
    importlib.import_module(options.get("module") or "pydevd").settrace(**(options.get("settrace") or {}))


def set_open_files_limit(limits):
    """Set the soft limit of open files to ``limits`` (a number, or (soft, hard) as returned here; at most the hard
    limit, as Ansible sets it for a module) and return what it was, for restoring; None changes nothing."""
    if not limits:
        return None
    import resource
    before = resource.getrlimit(resource.RLIMIT_NOFILE)
    if isinstance(limits, (list, tuple)):
        soft = limits[0]
    else:
        soft = int(limits) if before[1] == resource.RLIM_INFINITY else min(int(limits), before[1])
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, before[1]))
    except (ValueError, OSError):
        return None
    return before


def write_job_result(path, result):
    """An async job's state, replaced whole."""
    replace_file(path, json.dumps(result, default=str).encode("utf-8"))


def failure(exc):
    """The reply for an exception that escaped a module or a request: its message and traceback."""
    import traceback
    return {"failed": True, "msg": "%s: %s" % (type(exc).__name__, exc), "exception": traceback.format_exc()}


def module_failure(exc):
    """The result of a module that raised: the message in ansible-core 2.19's words for an exception that
    escapes a module, the traceback beside it."""
    result = failure(exc)
    result["msg"] = "Task failed: Module failed: %s" % exc if str(exc) else "Task failed: Module failed."
    return result


class Agent(object):
    def __init__(self, channel):
        self.channel = channel
        self.modules = {}  # name -> loaded python module, by the hash last loaded under that name
        self.hashes = {}
        self.uploads = {}  # remote path -> (open temp file, its path, running sha1) while a put streams
        self.upload_errors = {}
        self.temporaries = set()  # staged uploads a later module moves into place; removed at exit if still there
        self.tmpdir = None
        self.tmpdir_path = TEMP_DIR  # where it goes, as the controller named it
        self.other_tmpdirs = {}  # remote_tmp -> the directory made there for tasks that name another remote_tmp
        self.bytecode = BytecodeCache()
        self.predictions = {}  # check mode: paths earlier tasks would have changed (see modules._utils.Module)
        self.packed = {}  # name -> (zip path, dotted name) of the Ansible-API modules sent to this agent
        self._install_package()

    @staticmethod
    def _install_package():
        # Module files import their shared helpers as ``modules._utils``, on the target as on the controller.
        package = types.ModuleType("modules")
        package.__path__ = []
        sys.modules["modules"] = package

    def workdir(self):
        """The agent's private temp directory, made on first use and removed when the agent ends."""
        if self.tmpdir is None:
            self.tmpdir = make_private_dir(self.tmpdir_path)
        return self.tmpdir

    def temp_dir_for(self, remote_tmp):
        """Where a native module's temporary files go, for a task whose remote_tmp (ansible_remote_tmp) is
        ``remote_tmp``: the agent's directory when that is where it is (or None), else one named as it under
        ``remote_tmp``. Made on first use and kept until the agent ends, so that an action's several requests
        share it (script's upload, then its run), as they share ansible-core's directory of the task."""
        base = os.path.dirname(self.tmpdir_path.rstrip("/")) if self.tmpdir_path else None
        if not remote_tmp or remote_tmp.rstrip("/") == base:
            return self.workdir()
        path = self.other_tmpdirs.get(remote_tmp)
        if path is None:
            name = os.path.basename(self.tmpdir_path.rstrip("/")) if self.tmpdir_path else "ansible-tmp"
            path = self.other_tmpdirs[remote_tmp] = make_private_dir(os.path.join(remote_tmp, name))
        return path

    def op_hello(self, header, body):
        return {"python": list(sys.version_info[:3]), "executable": sys.executable, "pid": os.getpid(),
                "uid": os.getuid(), "cwd": os.getcwd(), "discovery": DISCOVERY,
                "discovered": DISCOVERED}

    def op_load(self, header, body):
        name, digest = header["name"], header["hash"]
        if hashlib.sha256(body).hexdigest() != digest:
            return {"failed": True, "msg": "module %s arrived damaged (hash mismatch)" % name}
        module = types.ModuleType("modules." + name)
        module.__file__ = "<provisioning module %s>" % name
        sys.modules["modules." + name] = module
        setattr(sys.modules["modules"], name, module)
        exec(self.bytecode.code(name, digest, body, module.__file__), module.__dict__)
        self.modules[name] = module
        self.hashes[name] = digest
        return {"loaded": name}

    def op_stash(self, header, body):
        """Keep a packed Ansible-API module (a zip, never executed here) unpacked in the temp directory, by its
        hash: unpacked, the children that run it leave their compiled code in ``__pycache__`` beside it, so only
        the first task of an agent compiles ansible-core's module_utils (from a zip, every task would)."""
        name, digest = header["name"], header["hash"]
        if hashlib.sha256(body).hexdigest() != digest:
            return {"failed": True, "msg": "module %s arrived damaged (hash mismatch)" % name}
        path = os.path.join(self.workdir(), "ansible-%s" % digest)
        if not os.path.isdir(path):
            import io
            import shutil
            import zipfile
            partial = path + ".partial"
            try:
                with zipfile.ZipFile(io.BytesIO(body)) as archive:
                    archive.extractall(partial)  # entry names are the packer's own, relative and plain
                os.rename(partial, path)
            except BaseException:  # a full disk, or the agent told to stop: nothing half-unpacked stays
                shutil.rmtree(partial, ignore_errors=True)
                raise
        self.packed[name] = (path, header["fqn"])
        self.hashes[name] = digest
        return {"loaded": name}

    def op_run_ansible(self, header, body):
        entry = self.packed.get(header["module"])
        if entry is None:
            return {"failed": True, "msg": "module %s was not loaded on this host" % header["module"]}
        return self.prepare_async(header) or AnsibleModuleRun(self, entry[0], entry[1], header).run()

    def op_run(self, header, body):
        if header.get("background"):
            return self.start_job(header)
        return self.prepare_async(header) or self.call_module(header, watch=True)

    def prepare_async(self, header):
        """An async task waited for runs here in the foreground, with no job to poll; its async directory is
        made all the same, as Ansible's job makes it (tasks and later async_status calls look there). A failure
        to make it is the task's, as Ansible's."""
        if not header.get("async_job"):
            return None
        try:
            async_directory(header)
        except OSError as exc:
            return {"failed": True, "msg": "cannot start the async job: %s" % exc}
        return None

    def call_module(self, header, watch):
        """Run a loaded module with its parameters; ``watch``: stop everything if the channel speaks meanwhile."""
        name = header["module"]
        module = self.modules.get(name)
        if module is None:
            return {"failed": True, "msg": "module %s was not loaded on this host" % name}
        utils = sys.modules["modules._utils"]
        saved_env = None
        saved_limit = set_open_files_limit(header.get("rlimit_nofile"))
        if header.get("env"):
            saved_env = dict(os.environ)
            os.environ.update({k: str(v) for k, v in header["env"].items()})
        cwd = os.getcwd()
        remote_tmp = header.get("remote_tmp")
        try:
            attach_debugger(header.get("debugger"))
            params = header.get("params") or {}
            if not getattr(module, "ANY_ARGUMENTS", False):  # such a module checks what it is given itself
                params = utils.validate_arguments(getattr(module, "ARGUMENT_SPEC", {}), params,
                                                  getattr(module, "SPEC_RULES", None), module=name)
            context = utils.Module(params, check_mode=header.get("check", False),
                                   diff_mode=header.get("diff", False),
                                   tmpdir=header.get("tmpdir") or (lambda: self.temp_dir_for(remote_tmp)),
                                   predictions=self.predictions, staged=self.temporaries)
            if context.check_mode and not getattr(module, "SUPPORTS_CHECK_MODE", True):
                return {"skipped": True, "changed": False, "msg": "module does not support check mode"}
            if watch:
                with AbortWatch(self):
                    result = module.run(context) or {}
            else:
                result = module.run(context) or {}
            if context.warnings:
                result.setdefault("warnings", []).extend(context.warnings)
            if context.deprecations:
                result.setdefault("deprecations", []).extend(context.deprecations)
        except utils.ArgumentError as exc:
            result = {"failed": True, "msg": str(exc)}
        except utils.ModuleFailure as exc:
            result = dict(exc.result)
            result.update(failed=True, msg=exc.msg)
            if context.warnings:  # what the module warned about before failing, as Ansible's failed results keep
                result.setdefault("warnings", []).extend(context.warnings)
        except Exception as exc:  # a bug in the module, or the host refused something unexpected
            result = module_failure(exc)
        finally:
            set_open_files_limit(saved_limit)
            if saved_env is not None:
                os.environ.clear()
                os.environ.update(saved_env)
            try:
                os.chdir(cwd)
            except OSError:
                pass
        result.setdefault("changed", False)
        return result

    # -- async jobs (the task keywords async and poll: 0) ---------------------------------------------------------
    def start_job(self, header):
        """Run the module in the background, apart from the agent and the channel, for at most ``background``
        seconds; its result goes to ``<async_dir>/<job id>`` (``~/.ansible_async``, as Ansible's), which the
        async_status module reads. The job outlives the agent, as Ansible's do (a reboot, a long upgrade)."""
        import random
        limit = int(header["background"])
        jid = "j%d.%d" % (random.randint(0, 999999999999), os.getpid())  # Ansible's form
        try:
            results = os.path.join(async_directory(header), jid)
            write_job_result(results, {"started": True, "finished": False, "ansible_job_id": jid})
        except OSError as exc:
            return {"failed": True, "msg": "cannot start the async job: %s" % exc}
        child = os.fork()
        if child == 0:  # a new session, and a second fork so that nothing waits for the job
            try:
                os.setsid()
                if os.fork() == 0:
                    self.run_job(header, jid, results, limit)
            finally:
                os._exit(0)
        os.waitpid(child, 0)
        return {"started": True, "finished": False, "ansible_job_id": jid, "results_file": results, "changed": True}

    def run_job(self, header, jid, results, limit):
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        self.channel.reader.close()
        self.channel.writer.close()
        # What the agent holds stays the agent's: the job has its own temp directory (the agent removes its own
        # when it ends, the job may go on), no staged uploads to clean, and the default signal handlers.
        self.tmpdir, self.uploads, self.temporaries = None, {}, set()
        self.tmpdir_path = self.tmpdir_path and "%s-%s" % (self.tmpdir_path.rstrip("/"), jid)
        self.other_tmpdirs = {}
        for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            signal.signal(signum, signal.SIG_DFL)

        def expire(signum, frame):
            write_job_result(results, {"failed": True, "finished": True, "ansible_job_id": jid,
                                       "msg": "async task did not complete within the requested time - %ds"
                                              % limit})
            os.killpg(os.getpgrp(), signal.SIGKILL)  # the job and whatever it started

        signal.signal(signal.SIGALRM, expire)
        signal.alarm(max(1, limit))
        try:
            result = self.call_module(header, watch=False)
            result.update(finished=True, ansible_job_id=jid)
            signal.alarm(0)
            write_job_result(results, result)
        finally:
            self.cleanup()  # the job's own temp directory
            os._exit(0)

    def op_put(self, header, body):
        """Receive a file in chunks into a temp file beside ``path``; the final chunk renames it into place. A
        failure (a full disk) removes the temp file and names it in the reply."""
        path = header["path"]
        if header.get("temporary"):
            # A staged upload (its name may already be reserved on disk): removed at exit unless a later
            # module moved it into place.
            self.temporaries.add(path)
        if path not in self.upload_errors:
            try:
                self._receive_chunk(path, body)
            except (OSError, IOError) as exc:
                # A chunk gets no reply: remember the failure, stop writing, and report it with the final chunk.
                self.upload_errors[path] = self._upload_error("write", path, exc)
                self.discard_upload(path)
        if not header.get("final"):
            return None
        if path in self.upload_errors:
            return {"failed": True, "msg": self.upload_errors.pop(path)}
        step = "write"
        try:
            self._flush_upload(path)
            step = "finish"
            return self._install_upload(path, header.get("mode"))
        except (OSError, IOError) as exc:
            message = self._upload_error(step, path, exc)
            self.discard_upload(path)
            return {"failed": True, "msg": message}

    def _receive_chunk(self, path, body):
        entry = self.uploads.get(path)
        if entry is None:
            directory = os.path.dirname(path) or "."
            import tempfile
            fd, tmp = tempfile.mkstemp(prefix=".provisioning.", dir=directory)
            entry = self.uploads[path] = (os.fdopen(fd, "wb"), tmp, hashlib.sha1())
        entry[0].write(body)
        entry[2].update(body)

    def _flush_upload(self, path):
        fileobj = self.uploads[path][0]
        fileobj.flush()
        os.fsync(fileobj.fileno())
        fileobj.close()

    def _install_upload(self, path, mode):
        _, tmp, digest = self.uploads[path]
        if mode is not None:
            os.chmod(tmp, int(mode))
        os.rename(tmp, path)
        del self.uploads[path]
        return {"path": path, "checksum": digest.hexdigest()}

    def _upload_error(self, step, path, exc):
        """What a failed upload says: the file it was writing (the temp file, or the directory it could not make
        one in) and the error without Python's own file name."""
        reason = "[Errno %d] %s" % (exc.errno, exc.strerror) if exc.errno and exc.strerror else str(exc)
        entry = self.uploads.get(path)
        if entry is None:
            return "could not create a temp file in %s for %s: %s" % (os.path.dirname(path) or ".", path, reason)
        if step == "write":
            return "could not write the temp file %s for %s: %s" % (entry[1], path, reason)
        return "could not move the temp file %s into place as %s: %s" % (entry[1], path, reason)

    def op_fetch(self, header, body):
        path = os.path.expanduser(header["path"])  # ~user/file, as the user this agent runs as reads it
        digest = hashlib.sha1()
        try:
            handle = open(path, "rb")
        except OSError as exc:
            return {"failed": True, "msg": "cannot read %s: %s" % (path, exc.strerror)}
        with handle:
            while True:
                block = handle.read(CHUNK)
                if not block:
                    break
                digest.update(block)
                self.channel.send({"chunk": True}, block)
        return {"eof": True, "checksum": digest.hexdigest()}

    def serve(self):
        try:
            while True:
                header, body = self.channel.receive()
                if header is None:  # the channel closed without an exit request: the controller has gone
                    stop_processes()
                    raise Stopped(signal.SIGHUP)
                if header.get("op") == "exit":
                    break
                handler = getattr(self, "op_" + str(header.get("op")), None)
                try:
                    reply = handler(header, body) if handler else {"failed": True, "msg": "unknown op"}
                except Exception as exc:
                    reply = failure(exc)
                if reply is not None:
                    try:
                        self.channel.send(reply)
                    except OSError:  # nobody reads the replies any more: the controller has gone
                        stop_processes()
                        raise Stopped(signal.SIGPIPE)
        finally:
            self.cleanup()

    def discard_upload(self, path):
        entry = self.uploads.pop(path, None)
        if entry is not None:
            try:
                entry[0].close()  # may fail again flushing what a full disk refused
            except (OSError, IOError):
                pass
            try:
                os.unlink(entry[1])
            except OSError:
                pass

    def cleanup(self):
        """Remove partial uploads, staged files nothing moved into place, and the temp directory. It runs again
        when a stop cut it short, so each step forgets what it has done."""
        for path in list(self.uploads):
            self.discard_upload(path)
        for path in list(self.temporaries):
            try:
                os.unlink(path)
            except OSError:
                pass  # moved into place, or never written
            self.temporaries.discard(path)
        if self.tmpdir or self.other_tmpdirs:
            import shutil
            for remote_tmp, path in list(self.other_tmpdirs.items()):
                shutil.rmtree(path, ignore_errors=True)
                del self.other_tmpdirs[remote_tmp]
            if self.tmpdir:
                shutil.rmtree(self.tmpdir, ignore_errors=True)
            self.tmpdir = None


def main():
    channel = Channel()
    agent = Agent(channel)
    for signum in STOP_SIGNALS:
        signal.signal(signum, stop)
    try:
        agent.serve()
    except Stopped as stopped:
        agent.cleanup()  # again: a signal may have cut the first one short (signals are ignored now)
        os._exit(128 + stopped.signum)


main()
