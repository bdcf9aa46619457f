"""Set an answer in the debconf database, so a package installs (or reconfigures) without asking."""

import time

from modules._spec import argument_spec

DOCUMENTATION = {
    "short_description": "Configure a .deb package",
    "description": [
        "Sets question to value (of type vtype) for package name with debconf-set-selections, when debconf "
        "holds another value. The value held is read with debconf-communicate (GET), which also answers for "
        "questions of packages that are not installed yet and for passwords; debconf-utils is not needed.",
        "Booleans are compared as debconf writes them (true/false); a multiselect value may be a list, sorted "
        "first (so its order does not matter), or text, compared as written (as in Ansible). A password's value "
        "is never shown: only whether it changed.",
        "Without question nothing is set: current holds every question of the package with its value, as "
        "debconf-show lists them.",
        "While another process (apt, dpkg) holds debconf's database the module waits for it, up to a minute.",
    ],
    "options": {
        "name": {"description": "The package the question belongs to.", "type": "str", "required": True,
                 "aliases": ["pkg"]},
        "question": {"description": "The question, e.g. tzdata/Areas.", "type": "str",
                     "aliases": ["selection", "setting"]},
        "vtype": {"description": "Its type.", "type": "str",
                  "choices": ["boolean", "error", "multiselect", "note", "password", "seen", "select", "string",
                              "text", "title"]},
        "value": {"description": "The answer (a list for multiselect).", "type": "raw", "aliases": ["answer"]},
        "unseen": {"description": "Do not mark the question as seen (debconf-set-selections -u).",
                   "type": "bool", "default": False},
    },
}

EXAMPLES = """
- name: Accept the Oracle license before installing
  debconf:
    name: oracle-java7-installer
    question: shared/accepted-oracle-license-v1-1
    value: "true"
    vtype: select

- name: Set the default locale
  debconf:
    name: locales
    question: locales/default_environment_locale
    value: fr_FR.UTF-8
    vtype: select
"""

RETURN = {
    "current": "The question and its value after the task",
    "previous": "The question and its value before, when it changed",
    "diff": "previous and current",
}

ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
SPEC_RULES = {"required_together": [["question", "vtype", "value"]]}
SUPPORTS_CHECK_MODE = True

LOCKED = "is locked by another process"
LOCK_WAIT = 60


def debconf(module, argv, data):
    """Run a debconf tool, waiting while apt or dpkg holds the database; (rc, out, err)."""
    deadline = time.time() + LOCK_WAIT
    while True:
        rc, out, err = module.run_command(argv, data=data, environ_update={"DEBIAN_FRONTEND": "noninteractive",
                                                                           "LANG": "C", "LC_ALL": "C"})
        if LOCKED not in err or time.time() > deadline:
            return rc, out, err
        time.sleep(1)


def held_value(module, package, question):
    """The value debconf holds for ``question``; None when debconf does not know the question."""
    communicate = module.get_bin_path("debconf-communicate", required=True)
    rc, out, err = debconf(module, [communicate, package], "GET %s" % question)
    if rc != 0 and not out:
        module.fail("Failed to get the value '%s' from '%s': %s" % (question, package, err.strip()), rc=rc)
    status, _, value = out.rstrip("\n").partition(" ")
    if status == "10":  # no such question
        return None
    if status != "0":
        module.fail("Failed to get the value '%s' from '%s': %s" % (question, package, out.strip()))
    return value


def package_questions(module, package):
    """Every question debconf knows of ``package`` with its value, as debconf-show lists them (a password's
    value is left out by debconf-show itself)."""
    show = module.get_bin_path("debconf-show", required=True)
    rc, out, err = debconf(module, [show, package], None)
    if rc != 0:
        module.fail(err.strip() or "debconf-show %s failed" % package, rc=rc)
    questions = {}
    for line in out.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            questions[key.strip("*").strip()] = value.strip()
    return questions


def as_text(module, value, vtype):
    """The value as debconf stores it; a multiselect list sorted, as Ansible writes it (items that cannot be
    sorted together fail in Ansible's words)."""
    if isinstance(value, bool):
        value = "true" if value else "false"
    if vtype == "multiselect" and isinstance(value, list):
        try:
            return ", ".join(str(item) for item in sorted(value))
        except TypeError as exc:
            module.fail("Invalid value provided for 'multiselect': %s" % exc)
    text = str(value)
    return text.lower() if vtype == "boolean" else text


def same(held, wanted, vtype, listed):
    """Whether debconf holds the wanted value: a boolean in any case, a multiselect given as a list in any order
    (as Ansible compares it), anything else (a multiselect given as text too) exactly."""
    if held is None:
        return False
    if vtype == "boolean":
        return held.lower() == wanted
    if vtype == "multiselect" and listed:
        return sorted(part.strip() for part in held.split(",")) == sorted(part.strip() for part in wanted.split(","))
    return held == wanted


def run(module):
    params = module.params
    package, question, vtype = params["name"], params["question"], params["vtype"]
    if question is None:
        return {"changed": False, "msg": "", "current": package_questions(module, package)}
    value = as_text(module, params["value"], vtype)
    held = held_value(module, package, question)
    secret = vtype == "password"
    shown = (lambda text: "********" if text else "") if secret else (lambda text: text or "")
    if same(held, value, vtype, isinstance(params["value"], list)):
        return {"changed": False, "msg": "", "current": {question: shown(held)}}
    msg = ""
    if not module.check_mode:
        setsel = module.get_bin_path("debconf-set-selections", required=True)
        argv = [setsel] + (["-u"] if params["unseen"] else [])
        rc, msg, err = debconf(module, argv, " ".join([package, question, vtype, value]))
        if rc != 0:
            module.fail(err.strip() or msg.strip() or "debconf-set-selections failed", rc=rc)
    previous = {question: shown(held)}
    current = {question: shown(value) if not secret else "******** (changed)"}
    result = {"changed": True, "msg": msg, "current": current, "previous": previous}
    if module.diff_mode:
        result["diff"] = {"before": previous, "after": current}
    return result
