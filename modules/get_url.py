"""Download a file over HTTP, HTTPS or FTP to the host, idempotently (by checksum), with its mode and owner."""

import hashlib
import os
import re
import time

from modules._fsattrs import FILESYSTEM_ATTRIBUTE_DOCS
from modules._http import COMMON_OPTIONS, download, filename_from_response, request, url_filename
from modules._spec import argument_spec
from modules._utils import file_checksum, path_info, read_text, remove_quietly, text_diff

DOCUMENTATION = {  # type: dict
    "short_description": "Downloads files from HTTP, HTTPS, or FTP to node",
    "description": [
        "Downloads url to dest on the host; the host itself makes the request. The download goes to a temp file "
        "first and is moved into place only when its content differs from dest (compared by SHA1), so a second "
        "run changes nothing.",
        "An existing dest is not downloaded again unless force is true or its checksum does not match the "
        "checksum option. A dest that is a directory always downloads, and names the file from the "
        "Content-Disposition header or the URL.",
        "In check mode the file is downloaded to a temp file and compared (never moved into place), so the "
        "predicted change is the real one.",
    ],
    "options": dict({
        "url": {"description": "The URL to download (http, https, ftp or file). user:password@ in it is used "
                               "for basic authentication.", "type": "str", "required": True},
        "dest": {"description": "Where to put the file: a path, or a directory to download into.",
                 "type": "path", "required": True},
        "tmp_dest": {"description": "Directory for the temp download (default: the agent's temp directory).",
                     "type": "path"},
        "force": {"description": "Download every time and replace dest when the content differs; false "
                                 "downloads only when dest is missing.", "type": "bool", "default": False,
                  "aliases": ["thirsty"]},
        "backup": {"description": "Keep the previous file as a timestamped copy when it is replaced.",
                   "type": "bool", "default": False},
        "checksum": {"description": "'algorithm:hexdigest' (sha256:abc...) or 'algorithm:URL' of a checksum "
                                    "file ('digest  filename' lines). A matching dest is not downloaded again; "
                                    "a download that does not match fails and leaves dest untouched.",
                     "type": "str", "default": ""},
        "timeout": {"description": "Timeout of the request in seconds.", "type": "int", "default": 10},
        "mode": {"description": "Permissions of dest: octal (0644 or '0644') or symbolic.", "type": "raw"},
        "owner": {"description": "User that should own dest.", "type": "str"},
        "group": {"description": "Group that should own dest.", "type": "str"},
    }, **COMMON_OPTIONS),
}

EXAMPLES = """
- name: Download a release, once
  get_url:
    url: https://example.com/app/app-1.2.tar.gz
    dest: /opt/app-1.2.tar.gz
    mode: "0440"
    checksum: sha256:b5bb9d8014a0f9b1d61e21e796d78dccdf1352f23cd32812f4850b878ae4944c

- name: Verify against a published checksum file
  get_url:
    url: https://example.com/app/app-1.2.tar.gz
    dest: /opt/
    checksum: sha256:https://example.com/app/SHA256SUMS

- name: Download with basic authentication and an extra header
  get_url:
    url: https://example.com/private/file.conf
    dest: /etc/app/file.conf
    url_username: deploy
    url_password: "{{ vault_password }}"
    force_basic_auth: true
    headers:
      X-Token: abc
"""

RETURN = {
    "url": "The URL requested",
    "dest": "Where the file is (a directory dest: the file inside it)",
    "checksum_src": "SHA1 of the downloaded content",
    "checksum_dest": "SHA1 of dest before the download, when it existed",
    "md5sum": "MD5 of dest",
    "status_code": "The HTTP status of the download",
    "msg": "The server's status message, or why nothing was downloaded",
    "elapsed": "Seconds the download took",
    "size": "Size of dest in bytes",
    "src": "The temp file the download went to",
    "backup_file": "The backup made, when backup was asked and dest was replaced",
    "mode": "Permissions of dest ('0644')",
    "owner": "Owner name",
    "group": "Group name",
    "uid": "Owner id",
    "gid": "Group id",
    "state": "file",
    "diff": "Content before and after (diff mode, text files only) and changed attributes",
}

DOCUMENTATION["options"].update(FILESYSTEM_ATTRIBUTE_DOCS)
ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
SUPPORTS_CHECK_MODE = True

_SCHEMES_WITHOUT_STATUS = ("file", "ftp")


def parse_checksum(text):
    """``'sha256:abc'`` -> ('sha256', 'abc'); the value may be a URL of a checksum file. ValueError when bad."""
    if ":" not in text:
        raise ValueError("The checksum parameter has to be in format <algorithm>:<checksum>")
    algorithm, value = text.split(":", 1)
    algorithm = algorithm.strip().lower()
    if algorithm not in hashlib.algorithms_available:
        raise ValueError("Unsupported checksum algorithm '%s'. Available algorithms: %s"
                         % (algorithm, ", ".join(sorted(hashlib.algorithms_guaranteed))))
    return algorithm, value.strip()


def checksum_from_listing(text, filename):
    """The digest for ``filename`` in a checksum file ('digest  name' or 'digest *name' lines, or one bare
    digest); None when the file names no such file."""
    lines = [line.rstrip("\r") for line in text.splitlines() if line.strip()]
    if len(lines) == 1 and len(lines[0].split()) == 1:
        return lines[0].strip()
    for line in lines:
        parts = line.split(None, 1)
        if len(parts) == 2:
            name = parts[1].strip().lstrip("*")
            if name.startswith("./"):
                name = name[2:]
            if name == filename:
                return parts[0]
    return None


def normalise_digest(value):
    """Strip anything that is not part of a hex digest (spaces, zero-width characters), lower-cased."""
    digest = re.sub(r"\W+", "", value).lower()
    try:
        int(digest, 16)
    except ValueError:
        raise ValueError("The checksum format is invalid")
    return digest


def _expected_checksum(module):
    """(algorithm, hex digest) the download must have, or (None, None) without a checksum option."""
    params = module.params
    if not params["checksum"]:
        return None, None
    try:
        algorithm, value = parse_checksum(params["checksum"])
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*://", value):
            value = _checksum_from_url(module, value)
        return algorithm, normalise_digest(value)
    except ValueError as exc:
        module.fail(str(exc), url=params["url"], dest=params["dest"])


def _checksum_from_url(module, checksum_url):
    params = module.params
    response = request(params, checksum_url, headers=params["headers"], timeout=params["timeout"])
    listing = response.read()
    if response.status not in (200, None) and not _without_status(checksum_url):
        module.fail("Request failed for the checksum file %s" % checksum_url, status_code=response.status,
                    response=response.msg)
    filename = url_filename(params["url"])
    digest = checksum_from_listing(listing.decode("utf-8", "replace"), filename)
    if digest is None:
        module.fail("Unable to find a checksum for file '%s' in '%s'" % (filename, checksum_url))
    return digest


def _without_status(url):
    return url.split(":", 1)[0].lower() in _SCHEMES_WITHOUT_STATUS


def _attributes(module, dest, diffs):
    """Apply mode/owner/group to dest; True when they changed (or would)."""
    params = module.params
    attribute_diff = {}  # type: dict
    changed = module.set_file_attributes(dest, params["mode"], params["owner"], params["group"], attribute_diff,
                                         attributes=params.get("attributes"))
    if attribute_diff:
        attribute_diff.update(before_header=dest, after_header=dest)
        diffs.append(attribute_diff)
    return changed


def _finish(module, result, dest, changed, diffs):
    """The result for ``dest`` with its attributes brought in line."""
    if _attributes(module, dest, diffs):
        changed = True
    result["changed"] = changed
    if diffs:
        result["diff"] = diffs[0] if len(diffs) == 1 else diffs
    if os.path.exists(dest):
        result.update(path_info(dest))
        try:
            result["md5sum"] = file_checksum(dest, "md5")
        except ValueError:  # a FIPS host has no md5
            result["md5sum"] = None
    return result


def _existing_file_result(module, result, dest, algorithm, expected):
    """When dest exists and must not be downloaded again: the result, else None (download it)."""
    if module.params["force"]:
        return None
    if expected and file_checksum(dest, algorithm) != expected:
        return None
    result["msg"] = "file already exists"
    finished = _finish(module, result, dest, False, [])
    if finished["changed"]:
        finished["msg"] = "file already exists but file attributes changed"
    return finished


def run(module):
    params = module.params
    url, dest = params["url"], params["dest"]
    result = {"url": url, "dest": dest, "changed": False, "msg": ""}
    algorithm, expected = _expected_checksum(module)
    dest_is_dir = module.isdir(dest)
    # In check mode an earlier task may be about to create dest: it counts as existing, as it will in a real run.
    dest_exists = not dest_is_dir and module.lexists(dest)
    last_modified = None
    if dest_exists:
        kept = _existing_file_result(module, result, dest, algorithm, expected)
        if kept is not None:
            return kept
        if not expected and os.path.isfile(dest):
            # force: ask for it only if it changed since dest was written (a checksum mismatch always downloads)
            last_modified = os.path.getmtime(dest)

    started = time.time()
    response = request(params, url, headers=params["headers"], timeout=params["timeout"],
                       last_modified=last_modified)
    result["status_code"] = response.status
    if response.status == 304:
        response.close()
        result["msg"] = response.msg
        result["elapsed"] = int(time.time() - started)
        return _finish(module, result, dest, False, [])
    if response.status != 200 and not (_without_status(url) and response.status != -1):
        body = response.read()
        module.fail(response.msg if response.status == -1 else "Request failed", status_code=response.status,
                    response=response.msg, url=url, dest=dest, body=body.decode("utf-8", "replace")[:2000])
    tmp = download(module, response, params["tmp_dest"])
    result["elapsed"] = int(time.time() - started)
    result["src"] = tmp
    result["msg"] = response.msg
    try:
        return _place(module, result, response, tmp, dest_is_dir, algorithm, expected)
    finally:
        remove_quietly(tmp)


def _fail(module, message, result):
    module.fail(message, **dict((key, value) for key, value in result.items() if key != "msg"))


def _place(module, result, response, tmp, dest_is_dir, algorithm, expected):
    """Move the download ``tmp`` to dest when its content differs; verify the expected checksum first."""
    params = module.params
    dest = params["dest"]
    if dest_is_dir:
        dest = os.path.join(dest, filename_from_response(response))
        result["dest"] = dest
    parent = os.path.dirname(os.path.abspath(dest))
    if not module.isdir(parent):
        _fail(module, "Destination %s does not exist" % parent, result)
    if expected:
        actual = file_checksum(tmp, algorithm)
        if actual != expected:
            _fail(module, "The checksum for %s did not match %s; it was %s." % (dest, expected, actual), result)
    result["checksum_src"] = file_checksum(tmp)
    exists = module.lexists(dest) and os.path.isfile(dest)
    if exists:
        result["checksum_dest"] = file_checksum(dest)
    changed = result["checksum_src"] != result.get("checksum_dest")
    diffs = []
    if changed and module.diff_mode:
        diffs.append(text_diff(read_text(dest) if exists else "", read_text(tmp), dest, params["url"]))
    if changed and module.check_mode:
        module.predict(dest, "file")
    elif changed:
        backup_file = module.replace_file(dest, source=tmp, backup=params["backup"] and exists)
        if backup_file:
            result["backup_file"] = backup_file
    return _finish(module, result, dest, changed, diffs)
