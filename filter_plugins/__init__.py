"""Filters shipped with provisioning, loaded like a project's own ``filter_plugins/`` folder (FilterModule
classes in each file), so roles can use them without extra set-up."""
