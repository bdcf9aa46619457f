"""The plan as a JSON document (runner/plan/export.py): what ``--plan`` writes and run records hash."""

from __future__ import annotations

import base64
import json
from pathlib import Path

from runner.compiler import Compiler
from runner.plan.export import plan_document


def test_bytes_in_vars_are_base64_in_the_document(tmp_path: Path) -> None:
    # YAML's !!binary gives bytes that need not be UTF-8 (a GIF here); the document must still be JSON
    raw = b"GIF89a\x0c\x00\x0c\x00\x84\x00"
    playbook = tmp_path / "site.yml"
    playbook.write_text("- hosts: all\n  vars:\n    blob: !!binary " + base64.b64encode(raw).decode() + "\n"
                        "  tasks:\n    - debug: var=blob\n")
    document = plan_document(Compiler().compile_playbooks([playbook]))
    assert base64.b64encode(raw).decode() in json.dumps(document)
