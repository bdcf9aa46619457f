"""Tag selection on a real run (tags.yml): which tasks run under --tags and --skip-tags, as Ansible chooses."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.playbook_run import run_playbook

pytestmark = pytest.mark.hosts

EVERY_DEFAULT_TASK = ["tagged a", "tagged always", "inside b", "untagged", "from a file",
                      "include tagged included", "from a file"]


@pytest.mark.parametrize(("options", "ran"), [
    ((), EVERY_DEFAULT_TASK),
    (("--tags", "a"), ["tagged a", "tagged always"]),
    (("--tags", "b"), ["tagged always", "inside b"]),  # a block's tags reach its tasks
    (("--tags", "imported"), ["tagged always", "from a file"]),  # so do an import's
    (("--tags", "included"), ["tagged always", "include tagged included"]),  # an include's select it alone
    (("--tags", "file"), ["tagged always", "from a file"]),  # an untagged include is not run: only the import
    (("--tags", "debug"), ["tagged always", "tagged never"]),  # never runs when another of its tags is asked
    (("--tags", "never"), ["tagged always", "tagged never"]),
    (("--tags", "a,b", "--skip-tags", "always"), ["tagged a", "inside b"]),
    (("--skip-tags", "b"), [t for t in EVERY_DEFAULT_TASK if t != "inside b"]),
    (("--skip-tags", "play"), []),  # skipping a play's tag skips always too
    (("--tags", "tagged"), EVERY_DEFAULT_TASK),
    (("--tags", "untagged"), ["tagged always"]),  # every task carries the play's tag
])
def test_tags_choose_the_tasks_that_run(inventory_path: Path, options: tuple[str, ...], ran: list[str]) -> None:
    run = run_playbook(inventory_path, "tags.yml", *options)
    assert run.exit_code == 0, run.output
    assert run.task_headers() == ran
