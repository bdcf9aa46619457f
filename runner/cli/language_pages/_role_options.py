"""The options include_role and import_role share (their pages add their own)."""

ROLE_OPTIONS = {
    "name": {"description": "The role: a name found on the roles path, a path, or a collection's NS.COLL.ROLE.",
             "type": "str", "required": True},
    "tasks_from": {"description": "File of the role's tasks/ to run instead of main.", "type": "str",
                   "default": "main"},
    "vars_from": {"description": "File of the role's vars/ to load instead of main.", "type": "str",
                  "default": "main"},
    "defaults_from": {"description": "File of the role's defaults/ to load instead of main.", "type": "str",
                      "default": "main"},
    "handlers_from": {"description": "File of the role's handlers/ to load instead of main.", "type": "str",
                      "default": "main"},
    "allow_duplicates": {"description": "Run the role again when it already ran with the same parameters.",
                         "type": "bool", "default": True},
    "rolespec_validate": {"description": "Check the role's arguments against its meta/argument_specs.yml first.",
                          "type": "bool", "default": True},
    "public": {"description": "The role's defaults and vars stay visible to the play's later tasks.",
               "type": "bool"},
}
