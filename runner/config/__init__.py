"""Configuration from ``provisioning.cfg`` (INI, like ansible.cfg), the environment and the command line.

``load_config()`` finds the file, layers the environment and command-line overrides over it, and returns a
``Config`` whose attributes are the typed settings declared in ``SETTINGS``.
"""

from runner.config.load import load_config
from runner.config.model import Config, Origin
from runner.config.settings import SETTINGS, Setting

__all__ = ["SETTINGS", "Config", "Origin", "Setting", "load_config"]
