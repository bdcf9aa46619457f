"""Bytes that are not UTF-8 (``b64decode`` of latin-1 text) reach a file written with copy's ``content`` as the
bytes they were, as Ansible writes them."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts


def test_copy_content_writes_undecodable_bytes_back(local_hosts: LocalHosts) -> None:
    dest = local_hosts.base / "latin1.txt"
    run = local_hosts.play(f"""
        - hosts: h1
          gather_facts: false
          tasks:
            - copy: {{content: "{{{{ 'w6lhdQ==' | b64decode }}}}{{{{ '6WF1' | b64decode }}}}\\n", dest: {dest}}}
        """)
    assert run.exit_code == 0, run.output
    assert dest.read_bytes() == "éau".encode() + b"\xe9au\n"
