"""What can go wrong when sharing roles through a registry, each a user-facing error with a clear message.

Every one is a ``UserError``: the CLI prints it as one line (no traceback) and exits 1, or 4 for a file that
cannot be read (requirements, lock, registry file), as the other commands do.
"""

from __future__ import annotations

from runner.errors import ParseError, UserError


class GalaxyError(UserError):
    """A role could not be built, published, fetched or installed."""


class RegistryError(GalaxyError):
    """The registry could not be reached or refused a request."""


class AuthenticationError(RegistryError):
    """The registry wants credentials we do not have, or rejected the ones we sent."""


class NotFoundError(RegistryError):
    """The repository, tag or blob does not exist in the registry."""


class VerificationError(GalaxyError):
    """Content whose digest (or size) is not the one it was referenced by: nothing of it is used."""


class UnsafeArchiveError(GalaxyError):
    """A role archive that would write outside the role's directory, or create what a role never holds."""


class ResolutionError(GalaxyError):
    """The requirements cannot all be met: conflicting constraints, a missing role or version."""


class LockMismatchError(GalaxyError):
    """``--frozen`` was asked for, but the lock file does not match the requirements."""


class RequirementsError(ParseError):
    """A requirements or lock file that cannot be read as one."""
