"""HTTP requests for get_url and uri: urllib with Ansible's options (auth, redirects, certificates, proxies).

Runs on the target with the Python standard library alone. ``request`` never raises for an HTTP status: an
error status is a response like any other (the caller decides what is acceptable); a failure to reach the
server comes back as status -1 with the reason in ``msg``, as Ansible's ``fetch_url`` reports it.
"""

import base64
import gzip
import http.client
import os
import re
import socket
import ssl
import sys
import tempfile
import time
import urllib.error as urlerror
import urllib.parse as urlparse
import urllib.request as urlrequest

# Options every HTTP module accepts with the same meaning; each module adds them to its DOCUMENTATION options
# (and so to its ARGUMENT_SPEC, derived from those).
COMMON_OPTIONS = {  # type: dict
    "url_username": {"description": "User name for HTTP basic authentication (also read from the URL's "
                                    "user:password@ part).", "type": "str", "aliases": ["username"]},
    "url_password": {"description": "Password for HTTP basic authentication.", "type": "str",
                     "aliases": ["password"], "no_log": True},
    "force_basic_auth": {"description": "Send the basic authentication header with the first request instead "
                                        "of waiting for a 401 challenge.", "type": "bool", "default": False},
    "validate_certs": {"description": "Verify the server's TLS certificate (false: accept any, e.g. "
                                      "self-signed).", "type": "bool", "default": True},
    "use_proxy": {"description": "Use the proxies named by the host's http_proxy/https_proxy variables.",
                  "type": "bool", "default": True},
    "client_cert": {"description": "PEM client certificate for TLS client authentication.", "type": "path"},
    "client_key": {"description": "PEM private key of client_cert, when not inside it.", "type": "path"},
    "ciphers": {"description": "OpenSSL cipher list for TLS connections.", "type": "list", "elements": "str"},
    "decompress": {"description": "Decompress a gzip-encoded response.", "type": "bool", "default": True},
    "http_agent": {"description": "The User-Agent header sent.", "type": "str",
                   "default": "provisioning-httpget"},
    "headers": {"description": "Extra request headers, as a dictionary.", "type": "dict", "default": {}},
    "use_netrc": {"description": "Without a user name, take credentials for the server from the host's netrc "
                                 "file (NETRC, else ~/.netrc) and send them as basic authentication.",
                  "type": "bool", "default": True},
    "unredirected_headers": {"description": "Headers (of headers) not sent again to a redirect's location.",
                             "type": "list", "elements": "str", "default": []},
    "use_gssapi": {"description": "GSSAPI (Kerberos) authentication: needs the gssapi Python library on the "
                                  "host; without it the task fails with Ansible's message.", "type": "bool",
                   "default": False},
}
# Options of the uri module only, which request() reads too.
SOCKET_OPTIONS = {
    "ca_path": {"description": "PEM file of the certificate authorities to verify the server with, instead of "
                               "the host's.", "type": "path"},
    "unix_socket": {"description": "Send the request over this Unix domain socket (the URL still names the "
                                   "path and Host).", "type": "path"},
}

# follow_redirects values and which methods each one follows redirects for (None: every method).
_FOLLOW = {"all": None, "yes": None, "urllib2": ("GET", "HEAD"), "safe": ("GET", "HEAD"), "no": (), "none": ()}
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
_CHUNK = 1 << 16


class WriteFailed(Exception):
    """Writing a response's body to a file failed; ``error`` is the OSError."""

    def __init__(self, error):
        Exception.__init__(self, str(error))
        self.error = error


def _write(handle, block):
    """Write ``block`` (None: flush what is buffered); an OSError becomes ``WriteFailed``."""
    try:
        if block is None:
            handle.flush()
        else:
            handle.write(block)
    except (IOError, OSError) as exc:
        raise WriteFailed(exc)


class Response(object):
    """What a request returned: status, reason, final url, headers (lower-case names) and an open body."""

    def __init__(self, status, msg, url, headers=None, body=None, redirected=False):
        self.status = status
        self.msg = msg
        self.url = url
        self.headers = headers or {}
        self.body = body  # a readable binary file object, or None when nothing came back
        self.redirected = redirected

    def info(self):
        """Ansible's ``info`` dict: status, msg, url and each response header under its lower-case name."""
        info = dict(self.headers)
        info.update(status=self.status, msg=self.msg, url=self.url)
        return info

    def read(self):
        if self.body is None:
            return b""
        try:
            return self.body.read()
        finally:
            self.close()

    def save_to(self, path):
        """Stream the body into ``path``; return the number of bytes written. A failure to write (a full disk)
        raises ``WriteFailed``, told apart from a failure to read the body."""
        try:
            handle = open(path, "wb")
        except (IOError, OSError) as exc:
            raise WriteFailed(exc)
        size = 0
        try:
            block = self.body.read(_CHUNK) if self.body is not None else b""
            while block:
                _write(handle, block)
                size += len(block)
                block = self.body.read(_CHUNK)
            _write(handle, None)
        finally:
            try:
                handle.close()  # after a failure, what is still buffered fails again: already reported
            except (IOError, OSError):
                pass
        self.close()
        return size

    def close(self):
        if self.body is not None:
            try:
                self.body.close()
            except Exception:
                pass
            self.body = None


class _Redirects(urlrequest.HTTPRedirectHandler):
    """Follow redirects only for the methods follow_redirects allows; the rest come back as 3xx responses."""

    def __init__(self, mode):
        self.methods = _FOLLOW[mode]

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        method = req.get_method()
        if self.methods is not None and method not in self.methods:
            return None
        if self.methods is None and method not in ("GET", "HEAD") and code in (307, 308):
            # 307/308 keep the method and body: build the same request for the new location.
            return urlrequest.Request(newurl, data=req.data, headers=dict(req.header_items()), method=method,
                                      origin_req_host=req.origin_req_host, unverifiable=True)
        new = urlrequest.HTTPRedirectHandler.redirect_request(self, req, fp, code, msg, headers, newurl)
        if new is not None and method == "HEAD":
            new.method = "HEAD"
        return new


def split_credentials(url):
    """``http://user:pw@host/x`` -> (``http://host/x``, user, pw); a URL without them comes back as it was."""
    parts = urlparse.urlsplit(url)
    if parts.username is None:
        return url, None, None
    netloc = parts.hostname or ""
    if ":" in netloc:
        netloc = "[%s]" % netloc
    if parts.port:
        netloc += ":%d" % parts.port
    clean = urlparse.urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))
    return clean, urlparse.unquote(parts.username), urlparse.unquote(parts.password or "")


def _ssl_context(params):
    context = ssl.create_default_context(cafile=params.get("ca_path"))
    if not params.get("validate_certs", True):
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    if params.get("client_cert"):
        context.load_cert_chain(params["client_cert"], params.get("client_key"))
    if params.get("ciphers"):
        context.set_ciphers(":".join(params["ciphers"]))
    return context


class _UnixConnection(http.client.HTTPConnection):
    """HTTP over a Unix domain socket: the URL's host only names the Host header."""

    def __init__(self, socket_path, *args, **kwargs):
        http.client.HTTPConnection.__init__(self, *args, **kwargs)
        self.socket_path = socket_path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self.socket_path)


class _UnixHandler(urlrequest.HTTPHandler, urlrequest.HTTPSHandler):
    handler_order = 499  # before the TLS handler of _opener: every URL goes through the socket

    def __init__(self, socket_path):
        urlrequest.HTTPHandler.__init__(self)
        self.socket_path = socket_path

    def http_open(self, req):
        return self.do_open(lambda host, **kwargs: _UnixConnection(self.socket_path, host, timeout=kwargs.get(
            "timeout", socket.getdefaulttimeout())), req)

    https_open = http_open


def netrc_credentials(host):
    """(user, password) for ``host`` from the netrc file (NETRC, else ~/.netrc); None when it has none."""
    import netrc
    try:
        login = netrc.netrc(os.environ.get("NETRC")).authenticators(host or "")
    except (OSError, netrc.NetrcParseError):
        return None
    if login and login[0] and login[2]:
        return login[0], login[2]
    return None


def _opener(params, url, follow_redirects, username, password):
    handlers = [urlrequest.HTTPSHandler(context=_ssl_context(params)), _Redirects(follow_redirects)]
    if params.get("unix_socket"):
        handlers.insert(0, _UnixHandler(params["unix_socket"]))
    if not params.get("use_proxy", True):
        handlers.append(urlrequest.ProxyHandler({}))
    if username is not None and not params.get("force_basic_auth"):
        manager = urlrequest.HTTPPasswordMgrWithDefaultRealm()
        manager.add_password(None, url, username, password or "")
        handlers.append(urlrequest.HTTPBasicAuthHandler(manager))
    return urlrequest.build_opener(*handlers)


def _header_table(message):
    table = {}  # type: dict
    for name, value in message.items():
        key = name.lower()
        # Repeated headers (Set-Cookie) are joined as one value, as Python's http.client and Ansible do.
        table[key] = "%s, %s" % (table[key], value) if key in table else value
    return table


def _body(handle, headers, decompress):
    if decompress and headers.get("content-encoding", "").lower() == "gzip":
        headers.pop("content-encoding")
        headers.pop("content-length", None)
        return gzip.GzipFile(fileobj=handle)
    return handle


def request(params, url, method="GET", data=None, headers=None, timeout=10, follow_redirects="safe",
            last_modified=None):
    """Send one request with the HTTP options in ``params`` (see COMMON_OPTIONS); return a ``Response``.

    ``last_modified`` (seconds since the epoch) adds If-Modified-Since, so an unchanged file answers 304.
    """
    url, url_user, url_password = split_credentials(url)
    username = params.get("url_username") or url_user
    password = params.get("url_password") if params.get("url_password") is not None else url_password
    sent = {"User-Agent": params.get("http_agent") or COMMON_OPTIONS["http_agent"]["default"]}
    for name, value in (headers or {}).items():
        sent[str(name)] = str(value)
    if params.get("use_gssapi"):
        return Response(-1, "Failed to import the required Python library (gssapi) on %s's Python %s. This is "
                        "required for use_gssapi=True. See https://pypi.org/project/gssapi/ for more info."
                        % (socket.gethostname(), sys.executable), url)
    basic = (username, password) if username is not None and params.get("force_basic_auth") else None
    if username is None and params.get("use_netrc", True):
        basic = netrc_credentials(urlparse.urlsplit(url).hostname)
    if basic is not None:
        token = base64.b64encode(("%s:%s" % (basic[0], basic[1] or "")).encode("utf-8")).decode("ascii")
        sent["Authorization"] = "Basic " + token
    if last_modified is not None:
        sent["If-Modified-Since"] = time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(last_modified))
    try:
        opener = _opener(params, url, follow_redirects, username, password)
        unredirected = set(name.lower() for name in params.get("unredirected_headers") or ())
        req = urlrequest.Request(url, data=data, method=method,
                                 headers=dict((k, v) for k, v in sent.items() if k.lower() not in unredirected))
        for name, value in sent.items():
            if name.lower() in unredirected:
                req.add_unredirected_header(name, value)
        handle = opener.open(req, timeout=timeout)
    except urlerror.HTTPError as exc:  # an HTTP status outside 2xx: still a response, with its body
        table = _header_table(exc.headers) if exc.headers is not None else {}
        final = exc.geturl() or url
        return Response(exc.code, "HTTP Error %s: %s" % (exc.code, exc.reason), final, table,
                        _body(exc, table, params.get("decompress", True)), final != url)
    except urlerror.URLError as exc:
        reason = exc.reason
        if isinstance(reason, socket.timeout):
            return Response(-1, "Connection failure: timed out", url)
        return Response(-1, "Request failed: %s" % reason, url)
    except socket.timeout:
        return Response(-1, "Connection failure: timed out", url)
    except (ssl.SSLError, OSError, ValueError) as exc:
        return Response(-1, "Request failed: %s" % exc, url)
    table = _header_table(handle.headers)
    final = handle.geturl()
    status = handle.status if handle.status is not None else 200  # file:// answers without a status
    reason = handle.reason if getattr(handle, "reason", None) else "OK"
    return Response(status, "%s (%s bytes)" % (reason, table.get("content-length", "unknown")), final, table,
                    _body(handle, table, params.get("decompress", True)), final != url)


def download(module, response, directory=None):
    """Save ``response``'s body to a temp file (in ``directory``, or the module's temp dir); return its path."""
    directory = directory or module.tmpdir
    if not os.path.isdir(directory):
        module.fail("tmp_dest directory %s does not exist" % directory)
    handle, path = tempfile.mkstemp(prefix=".provisioning-download.", dir=directory)
    os.close(handle)
    try:
        response.save_to(path)
    except WriteFailed as failed:
        os.unlink(path)
        module.fail_writing(path, "the download of %s" % response.url, failed.error, url=response.url)
    except (OSError, IOError, EOFError, socket.timeout) as exc:
        os.unlink(path)
        module.fail("failed to read the response body of %s: %s" % (response.url, exc), url=response.url)
    return path


_FILENAME = re.compile(r"""filename\*?=(?:UTF-8'')?["']?([^"';]+)["']?""", re.I)


def filename_from_response(response):
    """The file name a response names: its Content-Disposition, else the last part of its (final) URL."""
    match = _FILENAME.search(response.headers.get("content-disposition", ""))
    if match:
        name = os.path.basename(urlparse.unquote(match.group(1).strip()))
        if name and name not in (".", ".."):
            return name
    return url_filename(response.url)


def url_filename(url):
    """The last path element of ``url`` ('index.html' for a URL ending in '/'), as Ansible names downloads."""
    name = os.path.basename(urlparse.unquote(urlparse.urlsplit(url).path))
    return name or "index.html"

