"""What a source that cannot be read does, by Ansible's two settings: ``unparsed_is_failed`` (a run where no source
could be read fails) and ``any_unparsed_is_failed`` (any source that cannot be read fails). A source that is not
read is otherwise a warning, as ansible-core's inventory manager says it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from runner.errors import UserError

if TYPE_CHECKING:
    from runner.inventory.inventory import Inventory


@dataclass(frozen=True)
class UnparsedPolicy:
    none_parsed_fails: bool  # unparsed_is_failed
    any_unparsed_fails: bool  # any_unparsed_is_failed

    def unparsed(self, inventory: Inventory, source: str, error: UserError | None) -> bool:
        """Source ``source`` was not read (``error`` says why, when something failed): an error, or warnings.
        False, for the caller's count of sources read."""
        if self.any_unparsed_fails:
            if error is not None:
                raise error
            raise UserError(f"Completely failed to parse inventory source {source}")
        if error is not None:
            where = f"{error.position}: " if error.position else ""
            inventory.warnings.append(f"Failed to parse inventory source {source}: {where}{error.message}")
        inventory.warnings.append(f"Unable to parse {source} as an inventory source")
        return False

    def none_parsed(self, inventory: Inventory) -> None:
        """No source could be read."""
        if self.none_parsed_fails:
            raise UserError("No inventory was parsed, please check your configuration and options.")
        inventory.warnings.append("No inventory was parsed, only implicit localhost is available")
