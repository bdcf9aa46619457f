"""``provisioning-runs serve``: the run records as a read-only JSON API and server-rendered web pages.

The standard library's ThreadingHTTPServer with a small router (``router.py``), the API's answers
(``api.py``) built from the records' queries (``runner.records.queries`` and ``listing.py``), Jinja2 pages
over the same data (``pages.py``), and access control (``access.py``). Nothing here writes a record, and
nothing is served that the records do not already hold censored: no file contents, no facts.
"""
