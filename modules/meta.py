"""Execute special actions that change how the run proceeds (handlers, end of play, facts)."""

ACTION = "meta"
FREE_FORM = "_raw_params"
DOCUMENTATION = {
    "short_description": "Execute special actions",
    "description": ["flush_handlers runs the notified handlers now; end_play and end_host stop the play for all "
                    "hosts or this host; clear_facts forgets gathered facts; refresh_inventory reloads the "
                    "inventory; clear_host_errors and reset_connection are accepted; noop does nothing."],
    "options": {"free_form": {"description": "The action", "type": "str", "required": True,
                              "choices": ["flush_handlers", "end_play", "end_host", "end_batch", "clear_facts",
                                          "clear_host_errors", "refresh_inventory", "reset_connection",
                                          "noop"]}},
}
EXAMPLES = """
- meta: flush_handlers
"""
RETURN = {}  # type: dict
ARGUMENT_SPEC = {
    "_raw_params": {"type": "str", "required": True, "aliases": ["free_form"],
                    "choices": ["flush_handlers", "end_play", "end_host", "end_batch", "clear_facts",
                                "clear_host_errors", "refresh_inventory", "reset_connection", "noop"]},
}
