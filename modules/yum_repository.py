"""Write or remove one repository section of a .repo file in /etc/yum.repos.d (for yum and dnf)."""

import configparser
import io
import os

from modules._spec import argument_spec
from modules._textfile import FILE_ATTRIBUTE_DOCS, content_diff
from modules._utils import remove_quietly


def _setting(description, kind="str", **extra):
    return dict({"description": description, "type": kind}, **extra)


def _flag(description):
    return _setting(description, "bool")


# The repository's settings, written as KEY = VALUE lines of its section (booleans as 1/0, lists as yum reads
# them); see dnf.conf(5) and yum.conf(5).
SETTINGS = {
    "async": _flag("Download in parallel (deprecated in dnf)."),
    "bandwidth": _setting("Maximum download bandwidth (with throttle)."),
    "baseurl": _setting("URLs of the repository; one of baseurl, metalink, mirrorlist is needed with state "
                        "present.", "list", elements="str"),
    "cost": _setting("Relative cost of the repository (default 1000)."),
    "countme": _flag("Add a countme flag to metalink or mirrorlist requests."),
    "deltarpm_metadata_percentage": _setting("When to download delta RPM metadata (no effect with dnf)."),
    "deltarpm_percentage": _setting("When to use a delta RPM rather than the whole package."),
    "description": _setting("The repository's human-readable name (its name = line); needed with state "
                            "present."),
    "enabled": _flag("Whether the repository is used."),
    "enablegroups": _flag("Whether package groups are used from it."),
    "exclude": _setting("Packages never taken from it (globs).", "list", elements="str", aliases=["excludepkgs"]),
    "failovermethod": _setting("roundrobin or priority among baseurls.", choices=["roundrobin", "priority"]),
    "gpgcakey": _setting("A CA key for the GPG keys (no effect with dnf)."),
    "gpgcheck": _flag("Check the packages' GPG signatures."),
    "gpgkey": _setting("URLs of the GPG keys.", "list", elements="str"),
    "module_hotfixes": _flag("Ignore module filtering for its packages."),
    "http_caching": _setting("HTTP caching of downloads (no effect with dnf).", choices=["all", "packages",
                                                                                       "none"]),
    "include": _setting("A file or URL with further settings."),
    "includepkgs": _setting("Only these packages are taken from it (globs).", "list", elements="str"),
    "ip_resolve": _setting("IPv4 or IPv6 addresses for downloads.", choices=["4", "6", "IPv4", "IPv6",
                                                                             "whatever"]),
    "keepalive": _flag("HTTP keep-alive (no effect with dnf)."),
    "keepcache": _setting("Keep downloaded packages (only valid in the main configuration).",
                          choices=["0", "1"]),
    "metadata_expire": _setting("How long its metadata stays valid (seconds, or with m, h, d)."),
    "metadata_expire_filter": _setting("Which commands may use expired metadata (no effect with dnf).",
                                       choices=["never", "read-only:past", "read-only:present",
                                                "read-only:future"]),
    "metalink": _setting("A metalink URL for the repository."),
    "mirrorlist": _setting("A mirror list URL for the repository."),
    "mirrorlist_expire": _setting("How long the mirror list stays valid (no effect with dnf)."),
    "password": _setting("Password for the repository's basic authentication.", no_log=True),
    "priority": _setting("Priority among repositories (lower wins)."),
    "protect": _flag("Protect its packages from updates elsewhere (no effect with dnf)."),
    "proxy": _setting("A proxy URL, or _none_."),
    "proxy_password": _setting("The proxy's password.", no_log=True),
    "proxy_username": _setting("The proxy's user name."),
    "repo_gpgcheck": _flag("Check the repository metadata's GPG signature."),
    "retries": _setting("How often a download is retried."),
    "s3_enabled": _flag("The repository is in Amazon S3."),
    "skip_if_unavailable": _flag("Go on without it when it cannot be reached."),
    "ssl_check_cert_permissions": _flag("Check the permissions of the TLS files (no effect with dnf)."),
    "sslcacert": _setting("CA certificate file for TLS.", aliases=["ca_cert"]),
    "sslclientcert": _setting("Client certificate file for TLS.", aliases=["client_cert"]),
    "sslclientkey": _setting("Client key file for TLS.", aliases=["client_key"], no_log=False),
    "sslverify": _flag("Verify the server's TLS certificate."),
    "throttle": _setting("Bandwidth limit (a size per second or a percentage of bandwidth)."),
    "timeout": _setting("Seconds a connection may stall."),
    "ui_repoid_vars": _setting("Variables shown in the repository id (no effect with dnf)."),
    "username": _setting("User name for the repository's basic authentication."),
}
SETTINGS["sslverify"]["aliases"] = ["validate_certs"]

OTHER_OPTIONS = {
    "name": _setting("The repository id: its [section] in the file.", required=True),
    "file": _setting("The file's name in reposdir, without .repo (default: name)."),
    "reposdir": _setting("The directory of .repo files; it must exist.", "path", default="/etc/yum.repos.d"),
    "state": _setting("present or absent.", default="present", choices=["absent", "present"]),
    "attributes": _setting("Accepted for compatibility: file attributes (chattr) are not set.",
                           aliases=["attr"]),
    "selevel": _setting("Accepted for compatibility: SELinux contexts are not set."),
    "serole": _setting("Accepted for compatibility: SELinux contexts are not set."),
    "setype": _setting("Accepted for compatibility: SELinux contexts are not set."),
    "seuser": _setting("Accepted for compatibility: SELinux contexts are not set."),
    "unsafe_writes": _setting("Accepted for compatibility: the file is always written atomically.", "bool",
                              default=False),
}

DOCUMENTATION = {
    "short_description": "Add or remove YUM repositories",
    "description": [
        "Keeps the section [name] of reposdir/FILE.repo as the options say (state present) or removes it (absent); "
        "a file left without sections is removed. The file is read and written as ansible-core does it (Python's "
        "configparser: comments are not kept, options as KEY = VALUE, booleans as 1/0, baseurl and gpgkey one "
        "per line, exclude and includepkgs space separated), and compared by its sorted sections and options, so "
        "a file either runner wrote stays as it is with the other.",
        "It only writes the file: nothing needs yum or dnf, so the task runs on any host; using the repository "
        "needs an RPM-based one.",
        "The file is written atomically; mode, owner and group apply to it. SELinux contexts and file attributes "
        "are accepted and not set.",
    ],
    "options": dict(SETTINGS, **OTHER_OPTIONS),
}
DOCUMENTATION["options"].update(FILE_ATTRIBUTE_DOCS)

EXAMPLES = """
- name: Add the EPEL repository
  yum_repository:
    name: epel
    description: EPEL YUM repo
    baseurl: https://download.fedoraproject.org/pub/epel/$releasever/$basearch/
    gpgcheck: true
    gpgkey: https://dl.fedoraproject.org/pub/epel/RPM-GPG-KEY-EPEL-9

- name: Remove it
  yum_repository:
    name: epel
    state: absent
"""

RETURN = {"repo": "The repository id", "state": "The state asked", "diff": "The file's sections before and after"}

ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
SPEC_RULES = {"required_if": [["state", "present", ["baseurl", "mirrorlist", "metalink"], True],
                              ["state", "present", ["description"]]]}
SUPPORTS_CHECK_MODE = True


def written_name(key):
    """The key in the file: description is the repository's name = line."""
    return "name" if key == "description" else key


def setting_value(key, value):
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, list):
        return ("\n" if key in ("baseurl", "gpgkey") else " ").join(value)
    return str(value)


def dump(parser):
    """The sections and options, sorted: what is compared, and shown as the diff."""
    text = ""
    for section in sorted(parser.sections()):
        text += "[%s]\n" % section
        for key, value in sorted(parser.items(section)):
            text += "%s = %s\n" % (key, value)
        text += "\n"
    return text


def run(module):
    params = module.params
    if not os.path.isdir(params["reposdir"]):
        module.fail("Repo directory '%s' does not exist." % params["reposdir"])
    dest = os.path.join(params["reposdir"], "%s.repo" % (params["file"] or params["name"]))
    parser = configparser.RawConfigParser()
    if os.path.isfile(dest):
        try:
            parser.read(dest)
        except configparser.Error as exc:
            module.fail("Cannot parse %s: %s" % (dest, exc))
    before = dump(parser)
    parser.remove_section(params["name"])
    if params["state"] == "present":
        parser.add_section(params["name"])
        for key in sorted(SETTINGS, key=written_name):  # in the order ansible-core writes them
            value = params["description"] if key == "description" else params[key]
            if value is not None:
                parser.set(params["name"], written_name(key), setting_value(key, value))
    after = dump(parser)
    changed = before != after
    if changed and not module.check_mode:
        if parser.sections():
            text = io.StringIO()
            parser.write(text)
            module.atomic_write(dest, text.getvalue().encode("utf-8"))
        else:
            remove_quietly(dest)
    attribute_diff = {}  # type: dict
    if os.path.isfile(dest) and not (module.check_mode and not parser.sections()):
        changed = module.set_file_attributes(dest, params["mode"], params["owner"], params["group"],
                                             attribute_diff, attributes=params.get("attributes")) or changed
    result = {"changed": changed, "repo": params["name"], "state": params["state"]}
    if module.diff_mode:
        result["diff"] = content_diff(dest, before.encode("utf-8"), after.encode("utf-8"))
        result["diff"]["before_header"] = result["diff"]["after_header"] = dest
    return result
