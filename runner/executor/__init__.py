"""Running work on hosts: a pool of persistent forked workers, each an asyncio loop over its share of hosts."""

# The lookups that read the run's inventory and configuration join the others when tasks can run.
from runner.executor import run_lookups  # noqa: F401
