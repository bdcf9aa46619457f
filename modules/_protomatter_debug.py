"""ansible-core 2.19's internal ``ansible._protomatter.debug`` (reachable by that full name only): evaluate
expressions as written and show their results, an undefined one as a numbered placeholder, warned of."""

ACTION = "ansible._protomatter.debug"
DOCUMENTATION = {
    "short_description": "Evaluate expressions, showing undefined results instead of failing",
    "description": ["Each expression (Jinja2, without braces) is evaluated as written; a result that is undefined "
                    "becomes '<< error N - message >>' and a warning, as ansible-core 2.19's internal action does."],
    "options": {
        "expression": {"description": "The expressions to evaluate.", "type": "list", "elements": "str",
                       "required": True},
    },
}
EXAMPLES = """
- ansible._protomatter.debug:
    expression:
      - lookup('env', 'HOME')
      - missing_var
"""
RETURN = {"expression_result": "The result of each expression, in order"}
ARGUMENT_SPEC = {
    "expression": {"type": "list", "elements": "str", "required": True},
}
