"""Running work on hosts: a pool of persistent forked workers, each an asyncio loop over its share of hosts."""
