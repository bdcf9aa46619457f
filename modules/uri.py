"""Interact with web services: send an HTTP request from the host and return its status, headers and body."""

import json
import os
import time
from urllib.parse import urlencode

from modules._fsattrs import FILESYSTEM_ATTRIBUTE_DOCS
from modules._http import COMMON_OPTIONS, SAFE_METHODS, SOCKET_OPTIONS, download, filename_from_response, request
from modules._spec import argument_spec
from modules._utils import file_checksum, path_info, read_text, remove_quietly, text_diff

DOCUMENTATION = {  # type: dict
    "short_description": "Interacts with webservices",
    "description": [
        "Sends an HTTP or HTTPS request from the host and returns the status, the response headers (each as a "
        "result key, lower-cased with '-' turned into '_', as content_type), the body (content, and json when "
        "the response is JSON) and where redirects led.",
        "A status outside status_code fails the task. The task reports changed only when dest was written.",
        "Check mode: GET, HEAD and OPTIONS requests (which change nothing on the server) are sent, and a dest is "
        "compared but not written; other methods are skipped unless creates or removes decide.",
    ],
    "options": dict({
        "url": {"description": "HTTP or HTTPS URL (user:password@ in it is used for basic authentication).",
                "type": "str", "required": True},
        "method": {"description": "The HTTP method (GET, POST, PUT, DELETE, PATCH, HEAD, ...).", "type": "str",
                   "default": "GET"},
        "body": {"description": "The request body. With body_format json a dict or list is sent as JSON; with "
                                "form-urlencoded a dict is encoded as a form.", "type": "raw"},
        "body_format": {"description": "How body is encoded, and the Content-Type sent unless headers give one.",
                        "type": "str", "default": "raw", "choices": ["form-urlencoded", "json", "raw"]},
        "status_code": {"description": "The statuses that count as success.", "type": "list",
                        "elements": "int", "default": [200]},
        "return_content": {"description": "Return the body as content (always done when the request fails).",
                           "type": "bool", "default": False},
        "dest": {"description": "Write the response body to this file on the host (changed when it differs).",
                 "type": "path"},
        "creates": {"description": "When this path exists on the host, the request is not sent.",
                    "type": "path"},
        "removes": {"description": "When this path does not exist on the host, the request is not sent.",
                    "type": "path"},
        "follow_redirects": {"description": "Which redirects to follow: all/yes, safe/urllib2 (GET and HEAD "
                                            "only), none/no.", "type": "str", "default": "safe",
                             "choices": ["all", "no", "none", "safe", "urllib2", "yes"]},
        "timeout": {"description": "Socket timeout in seconds.", "type": "int", "default": 30},
        "mode": {"description": "Permissions of dest.", "type": "raw"},
        "owner": {"description": "User that should own dest.", "type": "str"},
        "group": {"description": "Group that should own dest.", "type": "str"},
        "src": {"description": "A file whose content is the request body (instead of body); with remote_src "
                               "it is read on the host. A file on the controller is not sent yet: the task "
                               "fails saying so.", "type": "path"},
        "remote_src": {"description": "src is a file on the host.", "type": "bool", "default": False},
        "force": {"description": "Never use a cached copy: accepted, as this module caches nothing.",
                  "type": "bool", "default": False},
    }, **dict(COMMON_OPTIONS, **SOCKET_OPTIONS)),
}
DOCUMENTATION["options"]["url_username"] = dict(COMMON_OPTIONS["url_username"], aliases=["user"])

EXAMPLES = """
- name: Check that the site answers
  uri:
    url: http://www.example.com
    return_content: true
  register: page
  failed_when: "'Example' not in page.content"

- name: Create an item through a JSON API
  uri:
    url: https://api.example.com/items
    method: POST
    body_format: json
    body:
      name: web-1
      size: small
    status_code: [200, 201]
    headers:
      Authorization: "Bearer {{ token }}"
  register: created

- name: Log in with a form, only once
  uri:
    url: https://example.com/login
    method: POST
    body_format: form-urlencoded
    body:
      user: deploy
      password: "{{ password }}"
    creates: /etc/app/.registered
"""

RETURN = {
    "status": "The HTTP status of the response (-1 when the server could not be reached)",
    "url": "The URL of the response, after redirects",
    "redirected": "Whether a redirect was followed",
    "msg": "OK (N bytes), or why the request failed",
    "content": "The body as text (return_content, or a failed request)",
    "json": "The body parsed, when the response is JSON",
    "elapsed": "Seconds the request took",
    "cookies": "Cookies the server set, by name",
    "cookies_string": "The cookies as a Cookie header value",
    "path": "dest, when the body was written there",
    "<header>": "Each response header, lower-cased with '-' as '_' (content_type, content_length, ...)",
}

DOCUMENTATION["options"].update(FILESYSTEM_ATTRIBUTE_DOCS)
ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
SPEC_RULES = {"mutually_exclusive": [["body", "src"]]}
SUPPORTS_CHECK_MODE = True

_CONTENT_TYPES = {"json": "application/json", "form-urlencoded": "application/x-www-form-urlencoded"}


def encode_body(body, body_format):
    """The request body as bytes for ``body_format``; ValueError when it cannot be encoded that way."""
    if body is None:
        return None
    if body_format == "json":
        if isinstance(body, (dict, list, bool, int, float)):
            return json.dumps(body).encode("utf-8")
        return str(body).encode("utf-8")
    if body_format == "form-urlencoded":
        if isinstance(body, dict):
            return urlencode(list(body.items()), doseq=True).encode("utf-8")
        if isinstance(body, list):
            try:
                return urlencode([tuple(pair) for pair in body], doseq=True).encode("utf-8")
            except (TypeError, ValueError):
                raise ValueError("failed to parse body as form_urlencoded: a list must hold [name, value] pairs")
        return str(body).encode("utf-8")
    if isinstance(body, (dict, list)):
        raise ValueError("body of type %s needs body_format json or form-urlencoded" % type(body).__name__)
    return body if isinstance(body, bytes) else str(body).encode("utf-8")


def request_headers(headers, body_format, has_body):
    """The headers sent: the user's, plus the Content-Type body_format implies unless the user gave one."""
    sent = dict((str(name), str(value)) for name, value in (headers or {}).items())
    content_type = _CONTENT_TYPES.get(body_format)
    if has_body and content_type and not any(name.lower() == "content-type" for name in sent):
        sent["Content-Type"] = content_type
    return sent


def header_keys(headers):
    """Response headers as result keys: lower-cased, '-' as '_' (Content-Type -> content_type)."""
    return dict((name.lower().replace("-", "_"), value) for name, value in headers.items())


def parse_cookies(set_cookie):
    """{name: value} from a (comma-joined) Set-Cookie header."""
    cookies = {}
    for part in set_cookie.split(","):
        first = part.strip().split(";", 1)[0]
        if "=" in first:
            name, value = first.split("=", 1)
            if name.strip() and name.strip().lower() not in ("expires",):
                cookies[name.strip()] = value.strip()
    return cookies


def _is_json(headers):
    content_type = headers.get("content-type", "").split(";", 1)[0].strip().lower()
    return content_type == "application/json" or content_type.endswith("+json")


def _skip_result(module):
    """creates/removes: the result of a request that is not needed, or None when it must be sent."""
    params = module.params
    reason = None
    if params["creates"] is not None and module.lexists(params["creates"]):
        reason = "skipped, since '%s' exists" % params["creates"]
    elif params["removes"] is not None and not module.lexists(params["removes"]):
        reason = "skipped, since '%s' does not exist" % params["removes"]
    if reason is None:
        return None
    return {"changed": False, "msg": reason, "stdout": reason, "url": params["url"]}


def _write_dest(module, result, response):
    """Save the body to dest when it differs (check mode: compare only); True when dest changed."""
    params = module.params
    dest = params["dest"]
    if module.isdir(dest):
        dest = os.path.join(dest, filename_from_response(response))
    result["path"] = dest
    tmp = download(module, response)
    try:
        exists = module.lexists(dest) and os.path.isfile(dest)
        changed = not exists or file_checksum(tmp) != file_checksum(dest)
        if changed and module.diff_mode:
            result["diff"] = text_diff(read_text(dest) if exists else "", read_text(tmp), dest, params["url"])
        if changed and module.check_mode:
            module.predict(dest, "file")
        elif changed:
            if not module.isdir(os.path.dirname(os.path.abspath(dest))):
                module.fail("Destination directory %s does not exist" % os.path.dirname(dest), **result)
            module.atomic_move(tmp, dest)
    finally:
        remove_quietly(tmp)
    if module.set_file_attributes(dest, params["mode"], params["owner"], params["group"],
                                  attributes=params.get("attributes")):
        changed = True
    if os.path.exists(dest):
        result.update(dict((key, value) for key, value in path_info(dest).items() if key != "state"))
    return changed


def run(module):
    params = module.params
    skipped = _skip_result(module)
    if skipped is not None:
        return skipped
    method = params["method"].upper()
    if module.check_mode and method not in SAFE_METHODS:
        return {"changed": False, "skipped": True, "url": params["url"],
                "msg": "%s request not sent in check mode (it may change the server)" % method}
    try:
        data = _source_body(module) if params["src"] else encode_body(params["body"], params["body_format"])
    except ValueError as exc:
        module.fail(str(exc))
    headers = request_headers(params["headers"], params["body_format"], data is not None)
    started = time.time()
    response = request(params, params["url"], method=method, data=data, headers=headers,
                       timeout=params["timeout"], follow_redirects=params["follow_redirects"])
    result = header_keys(response.headers)
    result.update(status=response.status, url=response.url, redirected=response.redirected, msg=response.msg,
                  elapsed=int(time.time() - started), changed=False)
    cookies = parse_cookies(response.headers.get("set-cookie", ""))
    result.update(cookies=cookies, cookies_string="; ".join("%s=%s" % item for item in cookies.items()))
    accepted = params["status_code"] or [200]
    if params["dest"] is not None and response.status in accepted and response.status != -1:
        result["changed"] = _write_dest(module, result, response)
        return result
    _read_body(params, result, response, accepted)
    if response.status not in accepted:
        module.fail("Status code was %s and not %s: %s" % (response.status, accepted, response.msg),
                    **dict((key, value) for key, value in result.items() if key != "msg"))
    return result


def _source_body(module):
    """The content of src as the request body (remote_src: a file on the host)."""
    src = module.params["src"]
    if not module.params["remote_src"]:
        module.fail("src on the controller is not supported by this uri module: copy the file to the host and "
                    "set remote_src: true", src=src)
    try:
        with open(src, "rb") as handle:
            return handle.read()
    except (IOError, OSError) as exc:
        module.fail("failed to read src %s: %s" % (src, exc), src=src)


def _read_body(params, result, response, accepted):
    """content and json: the body is read when it is JSON, asked for, or explains a failure."""
    wanted = params["return_content"] or response.status not in accepted
    if not (wanted or _is_json(response.headers)):
        response.close()
        return
    content = response.read().decode("utf-8", "replace")
    if _is_json(response.headers) and content:
        try:
            result["json"] = json.loads(content)
        except ValueError:
            pass
    if wanted:
        result["content"] = content
