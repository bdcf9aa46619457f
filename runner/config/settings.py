"""Every configuration setting, declared once: where it lives in the INI file, its type, default and env names.

Adding a setting is one ``Setting(...)`` entry in ``SETTINGS``; the file reader, the environment and command-line
overrides, ``provisioning-config list`` and ``dump`` all read this table. Names, INI keys, defaults and the
Ansible environment variables follow ansible.cfg, so an Ansible user's settings carry over.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

ENV_PREFIX = "PROVISIONING_"

# Sections a file may contain. A section with no setting yet is still known, so an empty one is not an error.
SECTIONS = ("defaults", "privilege_escalation", "ssh_connection", "connection", "inventory", "callbacks", "galaxy")


@dataclass(frozen=True)
class Unsupported:
    """What the product does not do of a setting, said to whoever sets it: to one of ``values`` (none: to
    anything but the default). ``fatal``: the run would go otherwise than the setting asks (what it does, where
    or how), so a command that runs anything stops with an error instead of a warning."""

    reason: str
    values: tuple[Any, ...] = ()
    fatal: bool = False

    def applies_to(self, value: Any, default: Any) -> bool:
        return value in self.values if self.values else value != default


@dataclass(frozen=True)
class Setting:
    """One setting. ``type`` is one of the converters in ``runner.config.values``."""

    name: str
    section: str
    type: str
    default: Any
    description: str
    key: str | None = None  # the INI key, when it differs from ``name``
    also: tuple[str, ...] = ()  # further INI spellings Ansible accepts, as "section.key"
    ansible_env: tuple[str, ...] = ()  # Ansible's variables, read when PROVISIONING_<NAME> is not set
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    # Accepted (an Ansible user's file carries it) but not done: reported when set (runner.config.support).
    # A setting with an ``Unsupported`` for every value is read nowhere; every other one is read by the code
    # (tests/unit/config/test_support.py checks both).
    unsupported: tuple[Unsupported, ...] = ()

    @property
    def env(self) -> str:
        return ENV_PREFIX + self.name.upper()

    @property
    def env_names(self) -> tuple[str, ...]:
        """Environment variables in the order they are tried: ours first, then Ansible's."""
        return (self.env, *self.ansible_env)

    @property
    def ini_keys(self) -> tuple[tuple[str, str], ...]:
        """Every (section, key) this setting can be written under, the main spelling first."""
        extra = tuple((section, key) for section, _, key in (spelling.partition(".") for spelling in self.also))
        return ((self.section, self.key or self.name), *extra)


S = Setting
U = Unsupported
SETTINGS: tuple[Setting, ...] = (
    # [defaults]
    S("inventory", "defaults", "pathlist", ["/etc/provisioning/hosts"], "Inventory sources (comma-separated paths).",
      also=("defaults.hostfile",), ansible_env=("ANSIBLE_INVENTORY",)),
    S("forks", "defaults", "int", 5, "Worker processes (and concurrent hosts per task).", minimum=1,
      ansible_env=("ANSIBLE_FORKS",)),
    S("executor", "defaults", "str", "local",
      "Where the workers run: local (processes forked on this machine), ray (Ray actors: the cluster ray.init finds, "
      "else a private one), ray:auto (a running cluster, required) or ray://HOST:PORT (that cluster's GCS address); "
      "see docs/scale-out.md."),
    S("remote_user", "defaults", "str", None, "User to log in as; unset means the SSH default (~/.ssh/config).",
      ansible_env=("ANSIBLE_REMOTE_USER",)),
    S("remote_port", "defaults", "int", None, "SSH port; unset means the SSH default (~/.ssh/config, else 22).",
      minimum=1, ansible_env=("ANSIBLE_REMOTE_PORT",)),
    S("private_key_file", "defaults", "path", None, "Private key for SSH authentication.",
      ansible_env=("ANSIBLE_PRIVATE_KEY_FILE",)),
    S("ask_pass", "defaults", "bool", False, "Ask for the SSH password (like -k).", ansible_env=("ANSIBLE_ASK_PASS",)),
    S("host_key_checking", "defaults", "bool", True, "Reject hosts whose key is unknown or changed.",
      also=("ssh_connection.host_key_checking",),
      ansible_env=("ANSIBLE_HOST_KEY_CHECKING", "ANSIBLE_SSH_HOST_KEY_CHECKING")),
    S("timeout", "defaults", "float", 10, "Seconds to wait for a connection.", minimum=1,
      also=("ssh_connection.timeout",), ansible_env=("ANSIBLE_TIMEOUT", "ANSIBLE_SSH_TIMEOUT")),
    S("interpreter", "defaults", "interpreter", None,
      "Python on the targets, or a discovery mode (auto, auto_silent; unset: auto): the first of "
      "ansible_interpreter_python_fallback's names found, else /usr/bin/python3.", key="interpreter_python",
      also=("defaults.interpreter",), ansible_env=("ANSIBLE_PYTHON_INTERPRETER",)),
    S("roles_path", "defaults", "pathspec",
      ["~/.ansible/roles", "/usr/share/ansible/roles", "/etc/ansible/roles"],
      "Directories searched for roles (colon-separated); by default ansible-core's, where Ansible's roles are "
      "installed.", ansible_env=("ANSIBLE_ROLES_PATH",)),
    S("collections_path", "defaults", "pathspec",
      ["collections", "~/.ansible/collections", "/usr/share/ansible/collections"],
      "Directories holding ansible_collections/ (colon-separated); provisioning-galaxy installs into the first.",
      also=("defaults.collections_paths",), ansible_env=("ANSIBLE_COLLECTIONS_PATH", "ANSIBLE_COLLECTIONS_PATHS")),
    S("collections_scan_sys_path", "defaults", "bool", True,
      "Also look for collections in the ansible_collections/ of the Python path's folders, after collections_path "
      "(where pip installs the ansible package's collections).",
      ansible_env=("ANSIBLE_COLLECTIONS_SCAN_SYS_PATH",)),
    S("library", "defaults", "pathspec", ["~/.provisioning/plugins/modules", "/usr/share/provisioning/plugins/modules"],
      "Extra module directories (colon-separated); missing ones are skipped.", ansible_env=("ANSIBLE_LIBRARY",)),
    S("filter_plugins", "defaults", "pathspec",
      ["~/.provisioning/plugins/filter", "/usr/share/provisioning/plugins/filter"],
      "Extra Jinja2 filter directories (colon-separated); missing ones are skipped.",
      ansible_env=("ANSIBLE_FILTER_PLUGINS",)),
    S("inventory_plugins", "defaults", "pathspec",
      ["~/.provisioning/plugins/inventory", "/usr/share/provisioning/plugins/inventory"],
      "Folders of inventory plugins written against Ansible's Python API (colon-separated), beside an "
      "inventory_plugins/ folder next to the playbook; they need ansible-core on the controller.",
      ansible_env=("ANSIBLE_INVENTORY_PLUGINS",)),
    S("stdout_callback", "defaults", "str", "default",
      "How results are printed: default, minimal, oneline, json, or yaml (default with callback_result_format = "
      "yaml, as ansible-core reads community.general's retired yaml callback); any other name is a callback "
      "plugin written against Ansible's Python API (callback_plugins folders, a collection's NS.COLL.NAME).",
      ansible_env=("ANSIBLE_STDOUT_CALLBACK",)),
    S("vars_plugins", "defaults", "pathspec",
      ["~/.provisioning/plugins/vars", "/usr/share/provisioning/plugins/vars"],
      "Folders of vars plugins written against Ansible's Python API (colon-separated), beside a vars_plugins/ "
      "folder next to the playbook; they need ansible-core on the controller.",
      ansible_env=("ANSIBLE_VARS_PLUGINS",)),
    S("vars_enabled", "defaults", "list", ["host_group_vars"],
      "The vars plugins that run although they ask to be enabled (REQUIRES_ENABLED), and collections' vars "
      "plugins by full name; host_group_vars (group_vars/ and host_vars/ files) is always read.",
      key="vars_plugins_enabled", ansible_env=("ANSIBLE_VARS_ENABLED",)),
    S("callback_plugins", "defaults", "pathspec",
      ["~/.provisioning/plugins/callback", "/usr/share/provisioning/plugins/callback"],
      "Folders of callback plugins written against Ansible's Python API (colon-separated), beside the "
      "callback_plugins/ folders next to the playbook and in its roles; they need ansible-core on the controller.",
      ansible_env=("ANSIBLE_CALLBACK_PLUGINS",)),
    S("untrusted_template_behavior", "defaults", "str", "ignore",
      "What a template in untrusted data (!unsafe, __ansible_unsafe, a host's or a lookup's text) does when it is "
      "met: ignore leaves it as text, warning also says so, error fails the template. Ansible 2.19's diagnostic "
      "of the same name.", choices=("ignore", "warning", "error"),
      ansible_env=("_ANSIBLE_TEMPLAR_UNTRUSTED_TEMPLATE_BEHAVIOR",)),
    S("allow_broken_conditionals", "defaults", "bool", False,
      "A condition whose result is not a boolean is read as Python's truth, and an empty one as true, instead "
      "of failing: Ansible 2.19's setting for playbooks written for earlier versions (deprecated there).",
      ansible_env=("ANSIBLE_ALLOW_BROKEN_CONDITIONALS",)),
    S("module_strict_utf8_response", "defaults", "bool", True,
      "Decoded JSON (a module's response, from_json, an inventory script's output) with a string that is not "
      "valid UTF-8 (a lone surrogate) fails, as in ansible-core; off, such strings are let through.",
      ansible_env=("ANSIBLE_MODULE_STRICT_UTF8_RESPONSE",)),
    S("load_callback_plugins", "defaults", "bool", False,
      "Ad-hoc commands print with stdout_callback (oneline; minimal otherwise) instead of always minimal.",
      key="bin_ansible_callbacks", ansible_env=("ANSIBLE_LOAD_CALLBACK_PLUGINS",)),
    S("callback_result_format", "defaults", "str", "json",
      "How the default output prints a task's result after =>: json, or yaml (multi-line, as ansible-core's).",
      choices=("json", "yaml"), ansible_env=("ANSIBLE_CALLBACK_RESULT_FORMAT",)),
    S("callback_format_pretty", "defaults", "bool", None,
      "Results printed for reading: true always indents them; false never (and yaml keeps strings exact); unset: "
      "json indents from -vvv (and for debug), yaml always.", ansible_env=("ANSIBLE_CALLBACK_FORMAT_PRETTY",)),
    S("callbacks_enabled", "defaults", "list", [],
      "Extra callbacks to run beside stdout: junit (a report per run in junit_output_dir), or callback plugins "
      "written against Ansible's Python API that need enabling; a name not found is warned about.",
      also=("defaults.callback_whitelist",), ansible_env=("ANSIBLE_CALLBACKS_ENABLED",)),
    S("display_skipped_hosts", "defaults", "bool", True, "Show tasks skipped on a host.",
      ansible_env=("ANSIBLE_DISPLAY_SKIPPED_HOSTS",)),
    S("show_custom_stats", "defaults", "bool", False,
      "Print the statistics set_stats recorded (per host and for the run) after the recap.",
      ansible_env=("ANSIBLE_SHOW_CUSTOM_STATS",)),
    S("display_ok_hosts", "defaults", "bool", True, "Show tasks that were ok (unchanged) on a host.",
      ansible_env=("ANSIBLE_DISPLAY_OK_HOSTS",)),
    S("display_failed_stderr", "defaults", "bool", False,
      "The default output prints failed and unreachable results (and their [ERROR] lines) on stderr.",
      ansible_env=("ANSIBLE_DISPLAY_FAILED_STDERR",)),
    S("display_included_hosts", "defaults", "bool", True,
      "The default output prints an 'included:' line for each file an include_tasks or include_role brings in.",
      ansible_env=("ANSIBLE_DISPLAY_INCLUDED_HOSTS",)),
    S("show_task_path_on_failure", "defaults", "bool", False,
      "The default output prints 'task path: FILE:LINE' before a failed result (-vv prints it for every task).",
      ansible_env=("ANSIBLE_SHOW_TASK_PATH_ON_FAILURE",)),
    S("check_mode_markers", "defaults", "bool", True,
      "The default output marks plays and tasks run in check mode with [CHECK MODE], and a --check run with "
      "DRY RUN banners at its start and end (on by default, unlike Ansible: a CI log must say nothing changed).",
      ansible_env=("ANSIBLE_CHECK_MODE_MARKERS",)),
    S("callback_result_indentation", "defaults", "int", 4,
      "Spaces the default output indents YAML results and indented JSON ones by.", minimum=1,
      ansible_env=("ANSIBLE_CALLBACK_RESULT_INDENTATION",)),
    S("callback_result_yaml_line_width", "defaults", "str", "default",
      "Where YAML results break long lines: default (PyYAML's width, about 80), no-break, or terminal-width.",
      choices=("default", "no-break", "terminal-width"), ansible_env=("ANSIBLE_CALLBACK_YAML_LINE_WIDTH",)),
    S("strategy", "defaults", "strategy", "linear",
      "Default play strategy: linear, free, host_pinned, or a collection's strategy plugin (NS.COLL.NAME) that "
      "only subclasses one of ansible-core's, which runs as that one.", ansible_env=("ANSIBLE_STRATEGY",)),
    S("hash_behaviour", "defaults", "str", "replace",
      "How a mapping variable set at several levels (inventory sources, group and host vars, play, role, extra "
      "vars) combines: replace (the highest level's value wins whole) or merge (mappings merged recursively, the "
      "higher level's keys winning).", choices=("replace", "merge"), ansible_env=("ANSIBLE_HASH_BEHAVIOUR",)),
    S("gathering", "defaults", "str", "implicit",
      "Fact gathering: implicit (every play unless gather_facts: false), explicit (only with gather_facts: true), "
      "smart (as implicit, but a host whose facts were gathered, in this run or in the fact cache, is not "
      "gathered again).",
      choices=("implicit", "explicit", "smart"), ansible_env=("ANSIBLE_GATHERING",)),
    S("fact_caching", "defaults", "str", "memory",
      "Where facts and set_fact cacheable values are kept: memory (for the run), jsonfile (also one file per "
      "host in fact_caching_connection, read by later runs; the same files as ansible-core's), or the name of a "
      "cache plugin written against Ansible's Python API (beside the playbook in cache_plugins/, or NS.COLL.NAME; "
      "needs ansible-core).",
      ansible_env=("ANSIBLE_CACHE_PLUGIN",)),
    S("fact_caching_connection", "defaults", "path", None, "The jsonfile fact cache's directory.",
      ansible_env=("ANSIBLE_CACHE_PLUGIN_CONNECTION",)),
    S("fact_caching_prefix", "defaults", "str", "", "Prefix of the jsonfile fact cache's file names.",
      ansible_env=("ANSIBLE_CACHE_PLUGIN_PREFIX",)),
    S("fact_caching_timeout", "defaults", "int", 86400,
      "Seconds a cached host's facts are used for (0: always).", minimum=0,
      ansible_env=("ANSIBLE_CACHE_PLUGIN_TIMEOUT",)),
    S("any_errors_fatal", "defaults", "bool", False, "Default for the any_errors_fatal play keyword.",
      ansible_env=("ANSIBLE_ANY_ERRORS_FATAL",)),
    S("force_handlers", "defaults", "bool", False, "Run notified handlers even on hosts that failed (like "
      "--force-handlers).", ansible_env=("ANSIBLE_FORCE_HANDLERS",)),
    S("error_on_missing_handler", "defaults", "bool", True, "A changed task notifying a name no handler of the "
      "play answers stops the run (false: a warning).", ansible_env=("ANSIBLE_ERROR_ON_MISSING_HANDLER",)),
    S("error_on_undefined_vars", "defaults", "bool", True, "An undefined variable in a template fails the task.",
      ansible_env=("ANSIBLE_ERROR_ON_UNDEFINED_VARS",),
      unsupported=(U("an undefined variable in a template always fails its task", fatal=True),)),
    S("retry_files", "defaults", "bool", False, "Write a .retry file listing failed hosts.", key="retry_files_enabled",
      also=("defaults.retry_files",), ansible_env=("ANSIBLE_RETRY_FILES_ENABLED",)),
    S("plugin_filters_cfg", "defaults", "path", None,
      "A YAML file whose module_rejectlist names modules that may not be used (filter_version '1.0'), as "
      "ansible-core's plugin filter file; unset: /etc/ansible/plugin_filters.yml when it exists.",
      ansible_env=("ANSIBLE_PLUGIN_FILTERS_CFG",)),
    S("retry_files_save_path", "defaults", "path", None, "Where .retry files go; unset: beside the playbook.",
      ansible_env=("ANSIBLE_RETRY_FILES_SAVE_PATH",)),
    S("local_tmp", "defaults", "path", "~/.provisioning/tmp", "Controller directory for temporary files.",
      ansible_env=("ANSIBLE_LOCAL_TEMP",),
      unsupported=(U("the controller writes each file beside its destination and keeps no temporary directory"),)),
    # A path on the target: "~" is the remote user's home, so it is kept as written (type str, not path).
    S("remote_tmp", "defaults", "str", "~/.ansible/tmp",
      "Target directory for temporary files: each agent's (ansible-tmp-*, while it runs) and modules' own "
      "(ansible-moduletmp-*, while a task runs); the variable ansible_remote_tmp decides for a task.",
      ansible_env=("ANSIBLE_REMOTE_TEMP", "ANSIBLE_REMOTE_TMP")),
    S("python_module_rlimit_nofile", "defaults", "int", 0,
      "The soft limit of open files modules run with on the targets (ansible_python_module_rlimit_nofile); 0 "
      "leaves the host's.", minimum=0, ansible_env=("ANSIBLE_PYTHON_MODULE_RLIMIT_NOFILE",)),
    S("inject_invocation", "defaults", "bool", False,
      "Add invocation (the module's arguments) to the results of modules run on the hosts, as ansible-core 2.21 "
      "does only when asked; the variable ansible_inject_invocation decides for a task.",
      ansible_env=("ANSIBLE_INJECT_INVOCATION",)),
    S("log_path", "defaults", "path", None,
      "Also write the output to this file (appended, without colour, each line stamped; created 0600).",
      ansible_env=("ANSIBLE_LOG_PATH",)),
    S("log_verbosity", "defaults", "int", 0,
      "How many -v the run log (log_path) records, beyond what is displayed: its trace lines go to the log alone.",
      minimum=0, ansible_env=("ANSIBLE_LOG_VERBOSITY",)),
    S("debug", "defaults", "bool", False,
      "Ansible's debug log: the engine's decisions (implicit meta tasks, handler flushes) on stdout, one line each "
      "as ansible-core writes them ('<pid> <time>: <message>'), whatever the verbosity.",
      ansible_env=("ANSIBLE_DEBUG",)),
    S("vault_password_file", "defaults", "path", None,
      "Vault password file (or executable script printing it), as --vault-password-file.",
      ansible_env=("ANSIBLE_VAULT_PASSWORD_FILE",)),
    S("vault_identity_list", "defaults", "list", [], "Vault ids to use, LABEL@SOURCE each (as --vault-id).",
      ansible_env=("ANSIBLE_VAULT_IDENTITY_LIST",)),
    S("vault_identity", "defaults", "str", "default", "The label of passwords given without one.",
      ansible_env=("ANSIBLE_VAULT_IDENTITY",)),
    S("vault_encrypt_identity", "defaults", "str", None, "The vault id encryption uses (as --encrypt-vault-id).",
      ansible_env=("ANSIBLE_VAULT_ENCRYPT_IDENTITY",)),
    S("vault_id_match", "defaults", "bool", False,
      "Decrypt a vault only with the passwords of the vault id its header names (without one: 'default').",
      ansible_env=("ANSIBLE_VAULT_ID_MATCH",)),
    S("ask_vault_pass", "defaults", "bool", False, "Ask for the vault password (like --ask-vault-pass).",
      ansible_env=("ANSIBLE_ASK_VAULT_PASS",)),
    S("diff_secret_sources", "defaults", "bool", False,
      "--diff shows the content of files copied or templated from an encrypted source (vault, age), as "
      "ansible-core does; off, it says the content is hidden."),
    S("plan_cache", "defaults", "bool", True,
      "Keep compiled plans in the user's cache directory: a run of an unchanged playbook skips compiling it."),
    S("record_runs", "defaults", "bool", True,
      "Record every run (plays, tasks, host results, facts, files read) in the runs database."),
    S("runs_database", "defaults", "str", None,
      "Where runs are recorded: a SQLite file or a postgresql:// URL; unset: .provisioning/runs.db in the project "
      "when that directory exists, else ~/.local/share/provisioning/runs.db."),
    S("nocolor", "defaults", "bool", False, "Never colour the output.", ansible_env=("ANSIBLE_NOCOLOR",)),
    S("force_color", "defaults", "bool", False, "Colour the output even without a terminal.",
      ansible_env=("ANSIBLE_FORCE_COLOR",)),
    S("deprecation_warnings", "defaults", "bool", True,
      "Show deprecation warnings, and give them in task results (deprecations); the variable "
      "ansible_deprecation_warnings decides for a task.", ansible_env=("ANSIBLE_DEPRECATION_WARNINGS",)),
    S("validate_action_group_metadata", "defaults", "bool", True,
      "Warn of an action group (a collection's meta/runtime.yml) whose metadata entry is not as ansible-core "
      "expects it, when module_defaults name the group.", ansible_env=("ANSIBLE_VALIDATE_ACTION_GROUP_METADATA",)),
    # [privilege_escalation]
    S("become", "privilege_escalation", "bool", False, "Run tasks with privilege escalation.",
      ansible_env=("ANSIBLE_BECOME",)),
    S("become_method", "privilege_escalation", "str", "sudo", "How to become another user.", choices=("sudo", "su"),
      ansible_env=("ANSIBLE_BECOME_METHOD",)),
    S("become_user", "privilege_escalation", "str", "root", "User to become.", ansible_env=("ANSIBLE_BECOME_USER",)),
    S("become_ask_pass", "privilege_escalation", "bool", False, "Ask for the become password (like -K).",
      ansible_env=("ANSIBLE_BECOME_ASK_PASS",)),
    S("become_flags", "privilege_escalation", "str", None, "Extra flags for the become method.",
      ansible_env=("ANSIBLE_BECOME_FLAGS",)),
    # [ssh_connection]
    S("connect_retries", "ssh_connection", "int", 3, "Retries (with backoff) of a failed connection attempt.",
      key="retries", also=("ssh_connection.connect_retries",), minimum=0, ansible_env=("ANSIBLE_SSH_RETRIES",)),
    S("known_hosts_file", "ssh_connection", "path", None, "known_hosts file; unset: the SSH default."),
    S("ssh_args", "ssh_connection", "str", None,
      "OpenSSH arguments for every host, before the connection settings (-o Option=value, -J, -F, -p ...).",
      ansible_env=("ANSIBLE_SSH_ARGS",)),
    S("ssh_common_args", "ssh_connection", "str", None,
      "OpenSSH arguments for every host, after the connection settings (as ansible_ssh_common_args).",
      ansible_env=("ANSIBLE_SSH_COMMON_ARGS",)),
    S("ssh_extra_args", "ssh_connection", "str", None,
      "OpenSSH arguments for every host, last (as ansible_ssh_extra_args).", ansible_env=("ANSIBLE_SSH_EXTRA_ARGS",)),
    S("ssh_keepalive_interval", "ssh_connection", "float", None,
      "Seconds between SSH keepalive probes of a silent host (0: none); unset: ServerAliveInterval of the "
      "OpenSSH configuration, else 10.", minimum=0),
    S("ssh_keepalive_count_max", "ssh_connection", "int", None,
      "Unanswered keepalive probes after which a host is unreachable; unset: ServerAliveCountMax of the OpenSSH "
      "configuration, else 3.", minimum=1),
    S("persist", "ssh_connection", "float", 60,
      "Seconds an idle SSH connection and its agents are kept for the next run by this user's connection keeper "
      "(as OpenSSH's ControlPersist); 0: no keeper, every run connects anew.", minimum=0),
    S("pipelining", "ssh_connection", "bool", True, "Accepted for compatibility: the agent always pipelines.",
      also=("connection.pipelining",), ansible_env=("ANSIBLE_PIPELINING", "ANSIBLE_SSH_PIPELINING"),
      unsupported=(U("the agent always pipelines: modules run in one persistent process per host, "
                     "never as files copied to the target"),)),
    # [inventory]
    S("host_pattern_mismatch", "inventory", "str", "warning",
      "What a term of a play's or an ad-hoc host pattern that names no group and matches no host does: "
      "warning says so, error stops the run (exit 1) before the play runs, ignore says nothing.",
      choices=("warning", "error", "ignore"), ansible_env=("ANSIBLE_HOST_PATTERN_MISMATCH",)),
    S("transform_invalid_group_chars", "defaults", "str", "never",
      "Group names that are not valid variable names (web-servers): 'never' keeps them and warns, 'always' "
      "replaces each invalid character with '_' and warns, 'ignore' keeps them, 'silently' replaces them.",
      key="force_valid_group_names", choices=("never", "always", "ignore", "silently"),
      ansible_env=("ANSIBLE_TRANSFORM_INVALID_GROUP_CHARS",)),
    S("unparsed_is_failed", "inventory", "bool", False,
      "When none of the inventory sources can be read: true stops the command, false warns and goes on with "
      "the implicit localhost alone.",
      ansible_env=("ANSIBLE_INVENTORY_UNPARSED_FAILED",)),
    S("any_unparsed_is_failed", "inventory", "bool", False,
      "An inventory source that cannot be read (missing, or not an inventory of any kind): true stops the "
      "command, false warns and goes on with the other sources.",
      ansible_env=("ANSIBLE_INVENTORY_ANY_UNPARSED_IS_FAILED",)),
    S("inventory_unparsed_warning", "inventory", "bool", True,
      "Warn when no inventory source could be read and only the implicit localhost is left.",
      ansible_env=("ANSIBLE_INVENTORY_UNPARSED_WARNING",)),
    # [callbacks]
    S("junit_output_dir", "callbacks", "path", "~/.provisioning/junit",
      "Where the junit reporter of callbacks_enabled writes (<playbook>-<time>.xml).",
      ansible_env=("JUNIT_OUTPUT_DIR",)),
    # [galaxy]
    S("galaxy_cache_dir", "galaxy", "path", "~/.provisioning/cache/oci",
      "Content cache of roles pulled from OCI registries (by digest).", key="cache_dir",
      ansible_env=("ANSIBLE_GALAXY_CACHE_DIR",)),
    S("galaxy_registry", "galaxy", "str", None, "Registry (HOST[:PORT]) of role references that name no host.",
      key="registry"),
    S("galaxy_registry_file", "galaxy", "path", None,
      "YAML file with the OCI registry configuration (endpoint, port, TLS, auth, namespaces).", key="registry_file"),
    S("galaxy_namespace", "galaxy", "str", None,
      "Namespace of role references that name none; unset: the registry file's, else provisioning-extensions.",
      key="namespace"),
    S("galaxy_insecure", "galaxy", "bool", False, "Allow plain HTTP to registries that are not on loopback.",
      key="insecure"),
    S("galaxy_ca_cert", "galaxy", "path", None, "CA certificates (PEM) that registries' TLS certificates chain to.",
      key="ca_cert"),
    S("galaxy_auth_file", "galaxy", "path", "~/.provisioning/auth.json",
      "Registry credentials written by login (Docker config.json format); ~/.docker/config.json is read too.",
      key="auth_file"),
    S("galaxy_max_archive_size", "galaxy", "int", 104857600, "Largest role archive accepted, in bytes unpacked.",
      key="max_archive_size", minimum=1),
)
del S, U

BY_NAME: dict[str, Setting] = {setting.name: setting for setting in SETTINGS}
BY_INI_KEY: dict[tuple[str, str], Setting] = {pair: setting for setting in SETTINGS for pair in setting.ini_keys}


def keys_in_section(section: str) -> list[str]:
    return sorted(key for (sect, key) in BY_INI_KEY if sect == section)
