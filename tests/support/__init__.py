"""Helpers shared by unit and integration tests: running playbooks and reading their reports, the installed
console scripts, and servers the tests start on 127.0.0.1 as stand-ins for remote APIs."""
