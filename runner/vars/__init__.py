"""Variables: Ansible's precedence as layered lookups, magic variables and fact aliases (see precedence.py)."""

from runner.vars.layers import DEFAULTS, VariableLayers, VariableView
from runner.vars.magic import FactsView, HostVars, MagicVariables
from runner.vars.precedence import Precedence, precedence_of

__all__ = ["DEFAULTS", "FactsView", "HostVars", "MagicVariables", "Precedence", "VariableLayers", "VariableView",
          "precedence_of"]
