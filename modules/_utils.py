"""What every module shares: argument validation, the run context, atomic writes and file attributes.

Runs on the target with the Python standard library alone (Python >= 3.8), and on the controller, where the
compiler uses ``validate_arguments`` to check a task's arguments before any host is touched. The remote agent
sends this file to each host once, before the first module.

A module is one file in ``modules/`` that defines::

    DOCUMENTATION = {"short_description": ..., "description": [...], "options": {...}}   # shown by provisioning-doc
    EXAMPLES = '''yaml'''
    RETURN = {"key": "what it means", ...}
    ARGUMENT_SPEC = {"name": {"type": "str", "required": True, "aliases": [...], ...}, ...}
    SPEC_RULES = {"mutually_exclusive": [...], "required_one_of": [...], "required_together": [...],
                  "required_if": [[arg, value, [args...]], ...]}                          # optional
    FREE_FORM = "cmd"          # optional: which argument receives free-form text ("uptime" in -a 'uptime')
    SUPPORTS_CHECK_MODE = True
    def run(module): ...        # returns a result dict: changed, msg, diff and module-specific keys
"""

import errno
import grp
import hashlib
import os
import pwd
import shlex
import shutil
import stat
import tempfile
import time

# datetime, glob and subprocess are imported where they are used: this file loads into every agent, on every
# host and at every run, and most modules never run a command.

BOOLEANS_TRUE = frozenset(["y", "yes", "on", "1", "true", "t", "1.0"])
BOOLEANS_FALSE = frozenset(["n", "no", "off", "0", "false", "f", "0.0", ""])

# Internal parameters the controller may pass to any module; never part of a user's arguments.
INTERNAL_PREFIX = "_provisioning_"


if False:  # read by type checkers only: importing typing would cost every agent's start
    from typing import Any, NoReturn  # noqa: F401

class ArgumentError(Exception):
    """A task's arguments do not fit the module's spec; the message names the argument."""


class ModuleFailure(Exception):
    """Raised by ``Module.fail``: the module stops and its result is failed, with extra result keys."""

    def __init__(self, msg, result):
        Exception.__init__(self, msg)
        self.msg = msg
        self.result = result


def to_bool(value, name="value"):
    """Ansible's boolean reading: yes/no/on/off/true/false/1/0 in any case."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    text = str(value).strip().lower()
    if text in BOOLEANS_TRUE:
        return True
    if text in BOOLEANS_FALSE:
        return False
    raise ArgumentError("argument '%s' is of type %s and we were unable to convert to bool: "
                        "'%s' is not a valid boolean" % (name, type(value).__name__, value))


def _to_list(value, name):
    if isinstance(value, list):
        return value
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, str):
        return [part.strip() for part in value.split(",")] if value else []
    if isinstance(value, (int, float)):
        return [str(value)]
    raise ArgumentError("argument '%s' is of type %s and we were unable to convert to list: %s cannot be "
                        "converted to a list" % (name, type(value).__name__, type(value)))


def _to_dict(value, name):
    if isinstance(value, dict):
        return value
    if isinstance(value, str):
        import json
        try:
            loaded = json.loads(value)
        except ValueError:
            loaded = None
        if isinstance(loaded, dict):
            return loaded
        try:
            return dict(part.split("=", 1) for part in shlex.split(value.replace(",", " ")))
        except ValueError:
            pass
    raise ArgumentError("argument '%s' is of type %s and we were unable to convert to dict: %s cannot be "
                        "converted to a dict" % (name, type(value).__name__, type(value)))


def _to_int(value, name):
    if isinstance(value, bool):
        raise ArgumentError("argument '%s' is of type bool and we were unable to convert to int" % name)
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    try:
        return int(str(value).strip())
    except ValueError:
        raise ArgumentError("argument '%s' is of type %s and we were unable to convert to int: "
                            "\"%r\" cannot be converted to an int" % (name, type(value).__name__, value))


def _to_float(value, name):
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ArgumentError("argument '%s' is of type %s and we were unable to convert to float"
                            % (name, type(value).__name__))


def _to_str(value, name):
    if isinstance(value, str):
        return value
    # A mapping or a list becomes its Python text, as Ansible converts any value given for a str option (a loop
    # item that is a dict, given as a path, names a file that does not exist rather than failing the task).
    if isinstance(value, bool):
        return "True" if value else "False"
    return str(value)


def _to_path(value, name):
    return os.path.expanduser(os.path.expandvars(_to_str(value, name)))


def _to_raw(value, name):
    return value


def _to_jsonarg(value, name):
    import json
    if isinstance(value, (list, dict)):
        return json.dumps(value)
    return _to_str(value, name)


CONVERTERS = {
    "str": _to_str,
    "bool": to_bool,
    "int": _to_int,
    "float": _to_float,
    "list": _to_list,
    "dict": _to_dict,
    "path": _to_path,
    "raw": _to_raw,
    "jsonarg": _to_jsonarg,
    "json": _to_jsonarg,
}


def _convert(value, option, name, nested=None):
    """``value`` as ``option``'s type. ``nested``: with ansible-core's validator of role arguments, how its
    suboptions are checked (a ``_Nested``); else the first problem among them raises."""
    kind = option.get("type", "str")
    converter = CONVERTERS.get(kind)
    if converter is None:
        raise ArgumentError("argument '%s' declares unknown type '%s'" % (name, kind))
    converted = converter(value, name)
    if kind == "list" and option.get("elements"):
        element_option = dict(option, type=option["elements"])
        element_option.pop("elements", None)
        converted = [_convert(item, element_option, "%s[]" % name) for item in converted]
        if option.get("options"):
            converted = [_suboptions(option, item, name, nested) if isinstance(item, dict)
                         else item for item in converted]
    elif kind == "dict" and option.get("options"):
        converted = _suboptions(option, converted, name, nested)
    if "choices" in option and converted is not None:
        choices = option["choices"]
        values = converted if kind == "list" else [converted]
        for item in values:
            if item not in choices:
                raise ArgumentError("value of %s must be one of: %s, got: %s"
                                    % (name, ", ".join(str(c) for c in choices), item))
    return converted


class _Nested(object):
    """Where suboptions are checked, for ansible-core's validator of role arguments: the options above them
    (``context``), and the unsupported suboptions found anywhere, each with what its level supports, which that
    validator reports together once every option is checked."""

    def __init__(self, errors, context=(), unsupported=None):
        self.errors = errors
        self.context = list(context)
        self.unsupported = unsupported if unsupported is not None else []

    def under(self, name):
        return _Nested(self.errors, [*self.context, name], self.unsupported)

    def where(self):
        return " found in %s" % " -> ".join(self.context) if self.context else ""


def _suboptions(option, value, name, nested):
    if nested is None:
        return validate_arguments(option["options"], value, name=name)
    return _validate(option["options"], value, {}, None, True, None, nested.under(name))


def _unsupported_message(unsupported):
    """ansible-core's one message for every unsupported suboption: their dotted paths, then what the level of
    the last one supports."""
    paths = sorted(path for path, _ in unsupported)
    return "%s. Supported parameters include: %s." % (", ".join(paths), ", ".join(unsupported[-1][1]))


def alias_table(spec):
    """Every accepted spelling of every argument, mapped to its canonical name."""
    table = {}
    for name, option in spec.items():
        table[name] = name
        for alias in option.get("aliases", ()):
            table[alias] = name
    return table


def validate_arguments(spec, params, rules=None, name=None, check_values=True, module=None, errors=None):
    """Return ``params`` resolved against ``spec``: aliases folded, types converted, defaults filled.

    ``module``: the module being run, whose unknown parameters are reported in ansible-core's words (playbooks
    and tests match on them). ``errors``: a list that collects the missing arguments and each value that cannot
    be converted, as ansible-core's validator lists them all, instead of raising at the first.

    With ``check_values=False`` only the names are checked (unknown, duplicate, mutually exclusive): the compiler
    does this before templating, when values may still be Jinja expressions.
    """
    nested = _Nested(errors) if errors is not None else None
    resolved = _validate(spec, params, rules or {}, name, check_values, module, nested)
    if nested is not None and nested.unsupported:
        errors.append(_unsupported_message(nested.unsupported))
    return resolved


def _validate(spec, params, rules, name, check_values, module, nested):
    errors = nested.errors if nested is not None else None
    aliases = alias_table(spec)
    where = nested.where() if nested is not None and nested.context else " for %s" % name if name else ""
    resolved = {}
    unknown = []
    for key, value in params.items():
        if key.startswith(INTERNAL_PREFIX):
            # Passed through untouched: a controller-side action talking to its own module (copy's content).
            resolved[key] = value
            continue
        canonical = aliases.get(key)
        if canonical is None:
            unknown.append(key)
            continue
        if canonical in resolved:
            raise ArgumentError("argument '%s' was given twice (as '%s' and an alias)%s" % (canonical, key, where))
        resolved[canonical] = value
    if unknown and nested is not None and nested.context:
        supported = sorted(spec)
        nested.unsupported.extend((".".join([*nested.context, key]), supported) for key in sorted(unknown))
    elif unknown and module:
        canonical = sorted(spec)
        spelled = sorted(set(aliases) - set(spec))
        raise ArgumentError("Unsupported parameters for (%s) module: %s. Supported parameters include: %s%s." % (
            module, ", ".join(sorted(unknown)), ", ".join(canonical), " (%s)" % ", ".join(spelled) if spelled else ""))
    elif unknown:
        raise ArgumentError("unsupported parameter%s%s: %s. Supported parameters include: %s" % (
            "s" if len(unknown) > 1 else "", where, ", ".join(sorted(unknown)), ", ".join(sorted(aliases))))

    def present(arg):
        return resolved.get(arg) is not None

    for group in rules.get("mutually_exclusive", ()):
        given = [arg for arg in group if present(arg)]
        if len(given) > 1:
            raise ArgumentError("parameters are mutually exclusive: %s%s" % ("|".join(given), where))
    if not check_values:
        return resolved

    # Modules count a None value as missing; ansible-core's validator of role arguments (``errors`` given) only
    # an absent one, and then fails to convert the None of a required option that is not raw.
    by_presence = errors is not None
    missing = sorted(arg for arg, option in spec.items() if option.get("required")
                     and (arg not in resolved if by_presence else resolved.get(arg) is None))
    if missing:
        _failed(errors, "missing required arguments: %s%s" % (", ".join(missing), where))
    for arg, option in spec.items():
        convert_none = by_presence and option.get("required") and arg in resolved
        if resolved.get(arg) is None and not convert_none:
            resolved[arg] = option.get("default")
        if resolved[arg] is not None or (convert_none and option.get("type", "str") != "raw"):
            try:
                resolved[arg] = _convert(resolved[arg], option, arg, nested)
            except ArgumentError as exc:
                _failed(errors, str(exc))
    for group in rules.get("required_one_of", ()):
        if not any(present(arg) for arg in group):
            raise ArgumentError("one of the following is required: %s%s" % (", ".join(group), where))
    for group in rules.get("required_together", ()):
        given = [arg for arg in group if present(arg)]
        if given and len(given) != len(group):
            raise ArgumentError("parameters are required together: %s%s" % (", ".join(group), where))
    for rule in rules.get("required_if", ()):
        arg, value, needed = rule[0], rule[1], rule[2]
        any_of = len(rule) > 3 and rule[3]
        if resolved.get(arg) == value:
            missing = [other for other in needed if not present(other)]
            if (any_of and len(missing) == len(needed)) or (not any_of and missing):
                raise ArgumentError("%s is %s but %s of the following are missing: %s%s" % (
                    arg, value, "any" if any_of else "all", ", ".join(missing), where))
    return resolved


def _failed(errors, message):
    if errors is None:
        raise ArgumentError(message)
    errors.append(message)


def no_log_values(spec, params):
    """Values of arguments marked ``no_log``: the controller masks them in every output."""
    return [str(params[arg]) for arg, option in spec.items()
            if option.get("no_log") and params.get(arg) not in (None, "")]


class Module(object):
    """What a module's ``run`` receives: its validated parameters and helpers for running and writing."""

    def __init__(self, params, check_mode=False, diff_mode=False, tmpdir=None, predictions=None, staged=None):
        self.params = params
        self.check_mode = check_mode
        self.diff_mode = diff_mode
        # A directory, or a function that makes one: the agent creates its temp directory only for the modules
        # that ask for it.
        self._tmpdir = tmpdir
        self.warnings = []
        self.deprecations = []  # what deprecate() recorded, for the result's "deprecations"
        # Check mode within one run: what earlier tasks would have created or removed on this host (absolute
        # path -> absent/directory/file/link), so a later task predicts from that rather than from the disk.
        # The agent keeps this mapping for its lifetime.
        self.predictions = predictions if predictions is not None else {}
        # Staged uploads (paths the controller streams content to for a later call to move into place): the
        # agent holds this set and removes those still there when it ends, interrupted or not.
        self.staged = staged if staged is not None else set()
        self.start_error = None  # why the last run_command could not start its command, if it could not

    @property
    def tmpdir(self):
        """A private directory for this module's temporary files."""
        if callable(self._tmpdir):
            self._tmpdir = self._tmpdir()
        return self._tmpdir or tempfile.gettempdir()

    # -- check mode: the host as earlier tasks would have left it -------------------------------------------
    def predict(self, path, state):
        """Record, in check mode, that this task would leave ``path`` as ``state`` (absent/directory/file/link)."""
        if self.check_mode:
            self.predictions[os.path.abspath(path)] = state

    def predicted(self, path):
        """What an earlier task in this check run would have made of ``path``; None when nothing was predicted."""
        if not self.check_mode or not self.predictions:
            return None
        current = os.path.abspath(path)
        state = self.predictions.get(current)
        if state is not None:
            return state
        parent = os.path.dirname(current)
        while parent != current:
            if self.predictions.get(parent) == "absent":
                return "absent"
            current, parent = parent, os.path.dirname(parent)
        return None

    def lexists(self, path):
        state = self.predicted(path)
        return os.path.lexists(path) if state is None else state != "absent"

    def isdir(self, path):
        state = self.predicted(path)
        return os.path.isdir(path) if state is None else state == "directory"

    # -- results -------------------------------------------------------------------------------------------
    def fail(self, msg, **result):
        # type: (str, Any) -> NoReturn
        """Stop the module: its result is ``failed`` with ``msg`` and any extra keys."""
        raise ModuleFailure(msg, result)

    def warn(self, message):
        self.warnings.append(message)

    def deprecate(self, msg, version=None, date=None, collection_name=None):
        """A feature of the module that goes away (``version``, or after ``date``), reported in the result's
        ``deprecations`` as AnsibleModule.deprecate reports it; the controller gives it ansible-core's form."""
        entry = {"msg": msg, "collection_name": collection_name or "ansible.builtin"}
        entry.update({"date": date} if date else {"version": version})
        self.deprecations.append(entry)

    # -- processes -----------------------------------------------------------------------------------------
    def run_command(self, args, check_rc=False, data=None, cwd=None, environ_update=None,
                    use_unsafe_shell=False, executable=None, binary_data=False):
        """Run a command; return (rc, stdout, stderr) as text. ``args`` is a list, or a string split like a shell."""
        if isinstance(args, str) and not use_unsafe_shell:
            try:
                args = shlex.split(args)
            except ValueError as exc:  # unbalanced quotes: ansible-core's words (its module_utils' run_command)
                self.fail("Invalid command syntax in run_command", exception=str(exc))
        env = None
        if environ_update:
            env = dict(os.environ)
            env.update({k: str(v) for k, v in environ_update.items()})
        if use_unsafe_shell and isinstance(args, list):
            args = " ".join(shlex.quote(a) for a in args)
        import subprocess
        try:
            proc = subprocess.Popen(args, shell=use_unsafe_shell, executable=executable, cwd=cwd, env=env,
                                    stdin=subprocess.PIPE if data is not None else subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        except OSError as exc:
            if check_rc:
                self.fail("Error executing command: %s" % exc, rc=exc.errno or 2, cmd=args)
            self.start_error = str(exc)  # the command never started (no such program, not executable)
            return (exc.errno or 2, "", str(exc))
        if data is not None and not isinstance(data, bytes):
            data = data.encode("utf-8")
            if not binary_data and not data.endswith(b"\n"):
                data += b"\n"
        out, err = _communicate(proc, data)
        out_text = out.decode("utf-8", "replace")
        err_text = err.decode("utf-8", "replace")
        if check_rc and proc.returncode != 0:
            self.fail(err_text.strip() or out_text.strip() or "command failed", rc=proc.returncode,
                      cmd=args, stdout=out_text, stderr=err_text)
        return proc.returncode, out_text, err_text

    def get_bin_path(self, name, required=False, extra_dirs=()):
        """The path of the executable ``name``: looked for in ``extra_dirs``, then PATH, then the usual bin and sbin
        directories PATH lacks. Required and missing, the module fails with ansible-core's message."""
        search = []
        for directory in list(extra_dirs) + os.environ.get("PATH", "").split(os.pathsep) + [
                "/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"]:
            if directory and directory not in search:
                search.append(directory)
        found = shutil.which(name, path=os.pathsep.join(search))
        if found is None and required:
            self.fail('Failed to find required executable "%s" in paths: %s' % (name, os.pathsep.join(search)))
        return found

    # -- files ---------------------------------------------------------------------------------------------
    # Every file a module writes goes through ``atomic_write``: a temp file beside it, fsync, rename. A failure
    # (a full disk, a read-only mount) leaves the old file whole, removes the temp file, and fails the module with
    # a message naming the file it was writing: the temp file, the destination, or the backup.
    def replace_file(self, path, data=None, source=None, validate=None, backup=False):
        """Put new content at ``path``: ``data`` (bytes or a binary file object) or the file ``source`` (moved
        there, or removed when that fails); the one way modules with ``backup:`` write. With ``backup`` the
        previous file is kept beside it first; should the new content then fail to go in, the backup goes too (the
        old file is still there, and a backup per failed attempt would fill a full disk further). Return the
        backup's path, or ''."""
        backup_file = self.backup_local(path) if backup else ""
        try:
            if source is not None:
                self.atomic_move(source, path, validate)
            else:
                self.atomic_write(path, data, validate)
        except BaseException:
            remove_quietly(backup_file)
            remove_quietly(source)
            raise
        return backup_file

    def backup_local(self, path):
        """Copy ``path`` beside itself with a timestamp, as Ansible's ``backup: true`` does; return the copy.

        Written as atomically as the file itself, with its mode, owner and times: a disk too full for the copy
        leaves no partial backup behind.
        """
        if not os.path.exists(path):
            return ""
        backup = "%s.%s.%s~" % (path, os.getpid(), time.strftime("%Y-%m-%d@%H:%M:%S"))
        try:
            source = open(path, "rb")
        except (IOError, OSError) as exc:
            self.fail("Could not read %s to back it up: %s" % (path, error_text(exc)), path=path)
        with source:
            self.atomic_write(backup, source, attributes_from=path, what="the backup %s of %s" % (backup, path))
        return backup

    def atomic_write(self, path, data, validate=None, attributes_from=None, what=None):
        """Write ``data`` to ``path`` atomically: temp file in the same directory, fsync, rename.

        ``data`` is bytes or a readable binary file object (streamed, so a large file never sits in memory).
        An existing file keeps its mode and ownership (or those of ``attributes_from``, with its times too); an
        interrupted or failed write leaves the old file untouched and no temp file. ``validate(temp_path)`` runs
        before the rename and may fail the module, leaving ``path`` as it was. ``what`` names the file in a
        failure message ('the backup X of Y'); by default it is ``path``.
        """
        what = what or path
        directory = os.path.dirname(os.path.abspath(path)) or "."
        try:
            fd, tmp = tempfile.mkstemp(prefix=".%s." % os.path.basename(path), suffix=".tmp", dir=directory)
        except (IOError, OSError) as exc:
            self.fail("Could not create a temp file in %s for %s: %s" % (directory, what, error_text(exc)),
                      path=path)
        try:
            try:
                with os.fdopen(fd, "wb") as handle:
                    if isinstance(data, bytes):
                        handle.write(data)
                    else:
                        shutil.copyfileobj(data, handle, 1 << 20)
                    handle.flush()
                    os.fsync(handle.fileno())
                self._take_attributes(attributes_from or path, tmp)
                if attributes_from is not None:
                    shutil.copystat(attributes_from, tmp)
            except (IOError, OSError) as exc:
                self.fail_writing(tmp, what, exc, path=path)
            if validate is not None:
                validate(tmp)
            try:
                os.rename(tmp, path)
            except (IOError, OSError) as exc:
                if not self._write_in_place(tmp, path, exc):
                    self.fail("Could not rename the temp file %s to %s: %s" % (tmp, what, error_text(exc)),
                              path=path)
                remove_quietly(tmp)
        except BaseException:
            remove_quietly(tmp)
            raise

    def _write_in_place(self, temp, path, exc):
        """With ``unsafe_writes``, copy ``temp``'s content over ``path`` where the rename was refused as Ansible
        falls back (a bind-mounted or busy file); False when the module did not ask for it or it does not apply."""
        import errno
        if not self.params.get("unsafe_writes") or exc.errno not in (
                errno.EPERM, errno.EXDEV, errno.EACCES, errno.ETXTBSY, errno.EBUSY):
            return False
        try:
            with open(temp, "rb") as source, open(path, "wb") as target:
                shutil.copyfileobj(source, target, 1 << 20)
                target.flush()
                os.fsync(target.fileno())
        except (IOError, OSError) as write_exc:
            self.fail("Could not write %s in place (unsafe_writes): %s" % (path, error_text(write_exc)), path=path)
        return True

    def fail_writing(self, temp, what, exc, **result):
        """Fail because the temp file ``temp`` for ``what`` (a path, or words naming it) could not be written."""
        self.fail("Could not write the temp file %s for %s: %s" % (temp, what, error_text(exc)), **result)

    def reserve_upload(self, dest):
        """An empty file beside ``dest`` for the controller to stream content into, which a later call moves into
        place (a rename, on the same filesystem). It is staged: an interrupted run leaves none behind."""
        handle, path = tempfile.mkstemp(prefix=".provisioning-upload.", dir=os.path.dirname(dest) or ".")
        os.close(handle)
        self.staged.add(path)
        return path

    def atomic_move(self, src, dest, validate=None):
        """Move ``src`` over ``dest`` atomically, keeping dest's mode and ownership when it exists."""
        directory = os.path.dirname(os.path.abspath(dest)) or "."
        if os.stat(src).st_dev == os.stat(directory).st_dev:
            try:
                self._take_attributes(dest, src)
            except (IOError, OSError) as exc:
                self.fail("Could not set the attributes of %s for %s: %s" % (src, dest, error_text(exc)),
                          path=dest)
            if validate is not None:
                validate(src)
            try:
                os.rename(src, dest)
            except (IOError, OSError) as exc:
                self.fail("Could not rename %s to %s: %s" % (src, dest, error_text(exc)), path=dest)
            return
        with open(src, "rb") as handle:
            self.atomic_write(dest, handle, validate)
        os.unlink(src)

    @staticmethod
    def _take_attributes(existing, new):
        try:
            info = os.stat(existing)
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(new, 0o666 & ~umask)
            return
        os.chmod(new, stat.S_IMODE(info.st_mode))
        try:
            os.chown(new, info.st_uid, info.st_gid)
        except OSError:
            pass
        _copy_extended_attributes(existing, new)

    def set_file_attributes(self, path, mode=None, owner=None, group=None, diff=None, follow=True,
                            attributes=None):
        """Bring mode/owner/group (and chattr ``attributes``) of ``path`` to what was asked; return True when
        something changed (or would).

        ``diff`` (a dict with ``before``/``after`` dicts) records what changed. In check mode nothing is touched.
        """
        try:
            info = os.stat(path) if follow else os.lstat(path)
        except OSError:
            if self.check_mode:
                return mode is not None or owner is not None or group is not None or attributes is not None
            raise
        changed = self.set_flags(path, attributes, diff)
        for kind, wanted, current in (("owner", owner, info.st_uid), ("group", group, info.st_gid)):
            if wanted is not None and self._set_id(path, kind, wanted, current, diff, follow):
                changed = True
        if mode is not None and not (stat.S_ISLNK(info.st_mode) and not follow):
            current = stat.S_IMODE(info.st_mode)
            wanted = parse_mode(mode, current, stat.S_ISDIR(info.st_mode), self)
            if wanted != current:
                changed = True
                _record(diff, "mode", "0%03o" % current, "0%03o" % wanted)
                if not self.check_mode:
                    os.chmod(path, wanted)
        return changed

    def file_flags(self, path):
        """The chattr flags of ``path`` as lsattr shows them, without the dashes; None where lsattr cannot tell
        (no lsattr, or a filesystem without flags such as tmpfs or overlayfs)."""
        lsattr = self.get_bin_path("lsattr")
        if lsattr is None:
            return None
        rc, out, _ = self.run_command([lsattr, "-d", path])
        return out.split()[0].replace("-", "") if rc == 0 and out.split() else None

    def set_flags(self, path, attributes, diff=None):
        """chattr ``path`` to ``attributes`` ('ia' sets exactly those, '+i'/'-i' add or remove), as Ansible does:
        the flags are compared with lsattr's as text, '-' always runs chattr, and a chattr that fails or complains
        fails the module with 'chattr failed'. True when it changed (or would)."""
        if not attributes:
            return False
        operator, flags = ("=", attributes) if attributes[0] not in "+-" else (attributes[0], attributes[1:])
        current = self.file_flags(path)
        chattr = self.get_bin_path("chattr")
        if not flags or chattr is None or (current == flags and operator != "-"):
            return False
        _record(diff, "attributes", current, operator + flags)
        if not self.check_mode:
            rc, out, err = self.run_command([chattr, operator + flags, path])
            if rc != 0 or err:
                self.fail("chattr failed", path=path, details="Error while setting attributes: %s" % (out + err))
        return True

    @staticmethod
    def id_exists(kind, wanted):
        """Whether the owner (kind 'owner') or group exists: a name, or a number some account has."""
        try:
            if str(wanted).isdigit():
                (pwd.getpwuid if kind == "owner" else grp.getgrgid)(int(wanted))
            else:
                (pwd.getpwnam if kind == "owner" else grp.getgrnam)(str(wanted))
        except KeyError:
            return False
        return True

    def warn_missing_id(self, kind, wanted):
        """Check mode's warning for an owner (kind 'owner') or group that does not exist, in Ansible's words."""
        noun = "user" if kind == "owner" else "group"
        if str(wanted).isdigit():
            what = "%s with %s %s" % (noun, "uid" if kind == "owner" else "gid", wanted)
        else:
            what = "%s %s" % (noun, wanted)
        message = "failed to look up %s. Create %s up to this point in real play" % (what, noun)
        if message not in self.warnings:
            self.warn(message)

    def _set_id(self, path, kind, wanted, current, diff, follow):
        """chown (kind 'owner') or chgrp (kind 'group') when needed; True when it changed or would."""
        command, noun, lookup = _ID_KINDS[kind]
        number = lookup(wanted)
        if number is None:
            if not self.check_mode:
                self.fail("%s failed: failed to look up %s %s" % (command, noun, wanted), path=path)
            # In check mode an earlier task may be about to create it: predict the change.
            self.warn_missing_id(kind, wanted)
            return True
        if number == current:
            return False
        _record(diff, kind, current, number)
        if not self.check_mode:
            ids = (number, -1) if kind == "owner" else (-1, number)
            try:
                (os.chown if follow else os.lchown)(path, *ids)
            except OSError as exc:  # not root, or a filesystem that refuses: Ansible's words, no traceback
                self.fail("%s failed: %s" % (command, exc), path=path)
        return True


def _communicate(proc, data):
    """(stdout, stderr) of ``proc`` once it has ended. Unlike Popen.communicate this does not wait for a process
    it left in the background, which keeps the pipes open (``sleep 10 &``): as Ansible's run_command, reading
    stops when the command has exited and its pipes have been quiet for a second."""
    import selectors
    if data is not None:
        try:
            proc.stdin.write(data)
        except (IOError, OSError):
            pass  # the command exited without reading it all
        try:
            proc.stdin.close()
        except (IOError, OSError):
            pass
    chunks = {proc.stdout: [], proc.stderr: []}  # type: dict
    with selectors.DefaultSelector() as selector:
        for pipe in chunks:
            selector.register(pipe, selectors.EVENT_READ)
        while selector.get_map():
            events = selector.select(timeout=1)
            if not events and proc.poll() is not None:
                break
            for key, _ in events:
                block = os.read(key.fd, 1 << 16)
                if block:
                    chunks[key.fileobj].append(block)
                else:
                    selector.unregister(key.fileobj)
    proc.wait()
    for pipe in chunks:
        pipe.close()
    return b"".join(chunks[proc.stdout]), b"".join(chunks[proc.stderr])


def error_text(exc):
    """An OSError as a failure message quotes it: ``[Errno 28] No space left on device``, without the file name
    Python appends, since the message names the file itself (and says which one it was)."""
    if getattr(exc, "errno", None) and getattr(exc, "strerror", None):
        return "[Errno %d] %s" % (exc.errno, exc.strerror)
    return str(exc)


def _copy_extended_attributes(existing, new):
    """The extended attributes of ``existing`` (POSIX ACLs among them) onto ``new``, as Ansible's atomic_move keeps
    them (shutil.copystat); those the filesystem or our privileges refuse are left, as copystat leaves them."""
    import errno
    if not hasattr(os, "listxattr"):
        return
    try:
        names = os.listxattr(existing)
    except OSError:
        return
    for name in names:
        try:
            os.setxattr(new, name, os.getxattr(existing, name))
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.ENODATA, errno.EINVAL, errno.EACCES):
                raise


def remove_quietly(path):
    """Remove a file or a directory tree if it is there; a failure to do so is not the caller's failure."""
    if path and os.path.lexists(path):
        try:
            os.unlink(path) if not os.path.isdir(path) else shutil.rmtree(path)
        except OSError:
            pass


def _record(diff, key, before, after):
    if diff is not None:
        diff.setdefault("before", {})[key] = before
        diff.setdefault("after", {})[key] = after


def lookup_uid(owner):
    """The uid of a user name or number, or None when no such user exists."""
    try:
        return int(owner)
    except (TypeError, ValueError):
        pass
    try:
        return pwd.getpwnam(str(owner)).pw_uid
    except KeyError:
        return None


def lookup_gid(group):
    try:
        return int(group)
    except (TypeError, ValueError):
        pass
    try:
        return grp.getgrnam(str(group)).gr_gid
    except KeyError:
        return None


# owner/group: the command a failure names, the word for what was looked up, and the lookup itself.
_ID_KINDS = {"owner": ("chown", "user", lookup_uid), "group": ("chgrp", "group", lookup_gid)}


def _resolve(kind, name, module):
    command, noun, lookup = _ID_KINDS[kind]
    number = lookup(name)
    if number is None:
        module.fail("%s failed: failed to look up %s %s" % (command, noun, name))
    return number


def resolve_uid(owner, module):
    """The uid of ``owner``; the module fails when there is no such user."""
    return _resolve("owner", owner, module)


def resolve_gid(group, module):
    return _resolve("group", group, module)


_PERMISSION_BITS = {
    "u": {"r": stat.S_IRUSR, "w": stat.S_IWUSR, "x": stat.S_IXUSR, "s": stat.S_ISUID},
    "g": {"r": stat.S_IRGRP, "w": stat.S_IWGRP, "x": stat.S_IXGRP, "s": stat.S_ISGID},
    "o": {"r": stat.S_IROTH, "w": stat.S_IWOTH, "x": stat.S_IXOTH, "s": 0},
}


def parse_mode(mode, current, is_dir, module):
    """An octal (``0644``, ``'0644'``, ``420``) or symbolic (``u=rw,g+r,o-rwx``) mode, applied to ``current``."""
    if isinstance(mode, int) and not isinstance(mode, bool):
        if not 0 <= mode <= 0o7777:
            module.fail("mode must be in octal or symbolic form: invalid mode '%s'" % mode)
        return mode
    text = str(mode).strip()
    if text and all(ch in "01234567" for ch in text):
        value = int(text, 8)
        if value > 0o7777:
            module.fail("mode must be in octal or symbolic form: invalid mode '%s'" % mode)
        return value
    if text == "preserve":
        return current
    result = current
    for clause in text.split(","):
        who, op, perms = "", "", ""
        for index, ch in enumerate(clause):
            if ch in "=+-":
                who, op, perms = clause[:index], ch, clause[index + 1:]
                break
        if not op or any(c not in "ugoa" for c in who) or any(c not in "rwxXst" for c in perms):
            module.fail("mode must be in octal or symbolic form: invalid mode '%s'" % mode)
        targets = "ugo" if who in ("", "a") else who
        for target in targets:
            bits = 0
            for perm in perms:
                if perm == "X":
                    if is_dir or current & (stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH):
                        bits |= _PERMISSION_BITS[target]["x"]
                elif perm == "t":
                    bits |= stat.S_ISVTX if target == "o" or who in ("", "a") else 0
                else:
                    bits |= _PERMISSION_BITS[target][perm]
            mask = sum(_PERMISSION_BITS[target].values())
            if op == "=":
                result = (result & ~mask) | bits
            elif op == "+":
                result |= bits
            else:
                result &= ~bits
    return result


def file_checksum(path, algorithm="sha1", blocksize=1 << 16):
    """Hex digest of a file's content (sha1 like Ansible's ``checksum``), or None when it is not a file."""
    if not os.path.isfile(path):
        return None
    digest = hashlib.new(algorithm)
    with open(path, "rb") as handle:
        block = handle.read(blocksize)
        while block:
            digest.update(block)
            block = handle.read(blocksize)
    return digest.hexdigest()


def text_diff(before, after, before_header, after_header):
    """The ``diff`` entry for a content change, as Ansible modules return it (texts, rendered by the controller)."""
    return {"before": before, "after": after, "before_header": before_header, "after_header": after_header}


DIFF_LIMIT = 1 << 20


def read_text(path, limit=DIFF_LIMIT):
    """A file's text for a diff, or '' when it is missing; larger or binary files give a placeholder."""
    try:
        size = os.path.getsize(path)
    except OSError:
        return ""
    if size > limit:
        return _too_large(limit)
    with open(path, "rb") as handle:
        return diff_text(handle.read(), limit)


def diff_text(data, limit=DIFF_LIMIT):
    """Bytes as text for a diff: decoded UTF-8, or a placeholder for large or binary content."""
    if len(data) > limit:
        return _too_large(limit)
    if b"\x00" in data:
        return "[binary file: diff not shown]\n"
    return data.decode("utf-8", "replace")


def _too_large(limit):
    return "[file larger than %d bytes: diff not shown]\n" % limit


# -- paths and what a result says about them (copy, file, stat) ---------------------------------------------
def user_name(uid):
    """The name of ``uid``, or the number as text when no such user exists (as ``ls`` shows it)."""
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def group_name(gid):
    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        return str(gid)


def selinux_enabled():
    """Whether the host runs SELinux: its filesystem is mounted (what libselinux's is_selinux_enabled reads)."""
    return os.path.exists("/sys/fs/selinux/enforce")


def path_state(path, module=None):
    """What ``path`` is, in the file module's words: absent, link, directory, hard (more than one link) or file.

    With ``module`` in check mode, what an earlier task of the run would have made of it comes first.
    """
    predicted = module.predicted(path) if module is not None else None
    if predicted is not None:
        return predicted
    try:
        info = os.lstat(path)
    except OSError as exc:
        if exc.errno in (errno.EACCES, errno.EPERM) and module is not None:
            # ansible-core 2.21's file module says so (2.19 treated it as absent silently)
            module.warn("Insufficient permissions to access %s. Treating as absent" % path)
        return "absent"
    if stat.S_ISLNK(info.st_mode):
        return "link"
    if stat.S_ISDIR(info.st_mode):
        return "directory"
    if info.st_nlink > 1:
        return "hard"
    return "file"


def path_info(path):
    """The keys a result naming a path carries: uid, gid, owner, group, mode ('0644'), state and size.

    As Ansible adds them: read without following a final link, and only ``state: absent`` when nothing
    (or a dangling link) is there.
    """
    if not os.path.exists(path):
        return {"state": "absent"}
    info = os.lstat(path)
    return {"uid": info.st_uid, "gid": info.st_gid, "owner": user_name(info.st_uid), "group": group_name(info.st_gid),
            "mode": "0%03o" % stat.S_IMODE(info.st_mode), "state": path_state(path), "size": info.st_size}


def make_directories(module, path, mode=None, owner=None, group=None, diff=None):
    """``mkdir -p path``, giving each directory it creates ``mode``/``owner``/``group``; True when any was missing.

    Directories that already exist are left as they are. In check mode nothing is created.
    """
    missing = []
    current = os.path.abspath(path)
    while not module.lexists(current):
        missing.append(current)
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    if not missing:
        return False
    if not module.isdir(current):
        module.fail("cannot create directory %s: %s exists and is not a directory" % (path, current), path=path)
    if module.check_mode:
        for directory in missing:
            module.predict(directory, "directory")
        return True
    for directory in reversed(missing):
        try:
            os.mkdir(directory)
        except OSError as exc:
            if not os.path.isdir(directory):
                module.fail("There was an issue creating %s as requested: %s" % (directory, exc), path=path)
        module.set_file_attributes(directory, mode, owner, group, diff)
    return True


# -- running a command as a task (command, shell) ----------------------------------------------------------
# What command and shell share: the arguments both take and the keys both return.
COMMAND_ARGUMENTS = {
    "_raw_params": {"type": "str", "aliases": ["cmd"]},
    "chdir": {"type": "path"},
    "creates": {"type": "path"},
    "removes": {"type": "path"},
    "stdin": {"type": "str"},
    "stdin_add_newline": {"type": "bool", "default": True},
    "strip_empty_ends": {"type": "bool", "default": True},
}
COMMAND_RETURN = {
    "cmd": "The command as run: the argument list",
    "rc": "The command's exit status (0 when skipped)",
    "stdout": "Its standard output",
    "stdout_lines": "stdout split into lines",
    "stderr": "Its standard error",
    "stderr_lines": "stderr split into lines",
    "start": "When it started (local time of the host)",
    "end": "When it ended",
    "delta": "How long it took",
    "msg": "Why it was skipped, or 'The command exited with a non-zero return code.'",
}

def _matches(pattern, chdir):
    import glob
    if chdir and not os.path.isabs(pattern):
        pattern = os.path.join(chdir, pattern)
    return bool(glob.glob(pattern))


def _command_skip_reason(params, chdir, check_mode):
    """Why ``creates``/``removes`` make the command unnecessary, as ansible-core's (msg, stdout), or None when it
    must run. The msg says whether it would have run (check mode) or did not; stdout keeps the older words."""
    creates, removes = params.get("creates"), params.get("removes")
    verb = "Would" if check_mode else "Did"
    if creates and _matches(creates, chdir):
        return "%s not run command since '%s' exists" % (verb, creates), "skipped, since %s exists" % creates
    if removes and not _matches(removes, chdir):
        return ("%s not run command since '%s' does not exist" % (verb, removes),
                "skipped, since %s does not exist" % removes)
    return None


def _command_line(params, use_shell):
    """What to run: the shell text as given, or an argv list (free form split like a shell, or ``argv``)."""
    text, argv = params.get("_raw_params"), params.get("argv")
    if (text is None or not text.strip()) and not argv:
        return None, "one of the following is required: _raw_params, cmd, argv"  # Ansible's words
    if text and argv:
        return None, "only command or argv can be given, not both"
    if use_shell:
        return text if text else " ".join(shlex.quote(str(arg)) for arg in argv), None
    args = shlex.split(text) if text else [str(arg) for arg in argv]
    if params.get("expand_argument_vars", True):
        args = [os.path.expanduser(os.path.expandvars(arg)) for arg in args]
    return args, None


# What a command that exited non-zero fails with: ansible-core 2.21's command module (2.19 said "non-zero return
# code", which its script action and raw still say).
COMMAND_FAILED = "The command exited with a non-zero return code."


def run_command_task(module, use_shell=False, executable=None, failed_msg=COMMAND_FAILED):
    """The command and shell modules: run once, or skip on ``creates``/``removes``; Ansible's result keys.
    ``failed_msg``: the ``msg`` of a command that exited non-zero.

    Every result carries rc, stdout, stderr and their ``_lines`` so a registered result can be read the
    same way whether the command ran, was skipped by creates/removes, or was skipped in check mode.
    """
    params = module.params
    result = {"changed": False, "cmd": None, "rc": None, "stdout": "", "stderr": "", "stdout_lines": [],
              "stderr_lines": [], "start": None, "end": None, "delta": None, "msg": ""}  # type: dict

    def fail(msg):
        module.fail(msg, **dict((key, value) for key, value in result.items() if key != "msg"))

    args, problem = _command_line(params, use_shell)
    if problem:
        result["rc"] = 256
        fail(problem)
    result["cmd"] = args
    chdir = params.get("chdir")
    if chdir and not os.path.isdir(chdir):
        fail("Unable to change directory before execution: [Errno 2] No such file or directory: '%s'" % chdir)
    skip = _command_skip_reason(params, chdir, module.check_mode)
    if skip:
        msg, stdout = skip
        result.update(rc=0, msg=msg, stdout=stdout, stdout_lines=[stdout])
        return result
    result["changed"] = True
    if module.check_mode:
        result.update(rc=0, msg="Command would have run if not in check mode")
        if params.get("creates") is None and params.get("removes") is None:
            # creates/removes could not decide, so this is a skip, not a predicted change
            result.update(skipped=True, changed=False)
        return result
    import datetime
    start = datetime.datetime.now()
    rc, out, err = module.run_command(args, data=params.get("stdin"), cwd=chdir, use_unsafe_shell=use_shell,
                                      executable=executable, binary_data=not params.get("stdin_add_newline", True))
    end = datetime.datetime.now()
    if module.start_error is not None:
        # As Ansible's command: nothing ran, so no output; the reason is in the log, not in stderr.
        result.update(rc=rc, changed=False)
        fail("Error executing command.")
    if params.get("strip_empty_ends", True):
        out, err = out.rstrip("\r\n"), err.rstrip("\r\n")
    result.update(rc=rc, stdout=out, stderr=err, stdout_lines=out.splitlines(), stderr_lines=err.splitlines(),
                  start=str(start), end=str(end), delta=str(end - start))
    if rc != 0:
        fail(failed_msg)
    return result
