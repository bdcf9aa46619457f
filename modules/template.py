"""Render a Jinja2 template on the controller and write the result to a file on the host.

The controller action (``runner/actions/template.py``) renders ``src`` with the task's variables and hands the
text to the copy module, so writing, ``validate``, ``backup``, attributes, check mode and diff are copy's.
"""

from modules._textfile import BACKUP_DOC, FILE_ATTRIBUTE_DOCS, FILE_ATTRIBUTE_SPEC, VALIDATE_DOC

DOCUMENTATION = {
    "short_description": "Template a file out to a target host",
    "description": [
        "Renders a Jinja2 template on the controller, with the task's variables, and writes the result to dest "
        "on the host (atomically; only when it differs).",
        "Relative src is looked up in the role's templates/, then the playbook's templates/ and directory.",
        "Besides the task's variables a template sees ansible_managed, template_host, template_path, "
        "template_fullpath, template_destpath, template_uid, template_mtime and template_run_date.",
    ],
    "options": dict({
        "src": {"description": "The template on the controller.", "type": "path", "required": True},
        "dest": {"description": "Where the rendered file goes on the host; a directory receives it under the "
                                "template's name.", "type": "path", "required": True},
        "backup": BACKUP_DOC,
        "validate": VALIDATE_DOC,
        "force": {"description": "Replace dest when it differs; false only writes a missing dest.",
                  "type": "bool", "default": True},
        "follow": {"description": "When dest is a symlink, write through it to its target.", "type": "bool",
                   "default": False},
        "newline_sequence": {"description": "Line ending of the rendered file.", "type": "str", "default": "\n",
                             "choices": ["\n", "\r", "\r\n"]},
        "trim_blocks": {"description": "Remove the first newline after a block tag.", "type": "bool",
                        "default": True},
        "lstrip_blocks": {"description": "Strip spaces and tabs from the start of a line up to a block tag.",
                          "type": "bool", "default": False},
        "block_start_string": {"description": "Marks the start of a block.", "type": "str", "default": "{%"},
        "block_end_string": {"description": "Marks the end of a block.", "type": "str", "default": "%}"},
        "variable_start_string": {"description": "Marks the start of a print statement.", "type": "str",
                                  "default": "{{"},
        "variable_end_string": {"description": "Marks the end of a print statement.", "type": "str",
                                "default": "}}"},
        "comment_start_string": {"description": "Marks the start of a comment.", "type": "str"},
        "comment_end_string": {"description": "Marks the end of a comment.", "type": "str"},
        "output_encoding": {"description": "Encoding of the written file.", "type": "str", "default": "utf-8"},
    }, **FILE_ATTRIBUTE_DOCS),
}

EXAMPLES = """
- name: nginx's site configuration from the role's templates/site.conf.j2
  template:
    src: site.conf.j2
    dest: /etc/nginx/sites-available/default
    owner: root
    group: root
    mode: "0644"
    validate: /usr/sbin/nginx -t -c %s
    backup: true

- name: A file whose text has its own {{ }} (other delimiters)
  template:
    src: app.tmpl
    dest: /etc/app/app.conf
    variable_start_string: "[%"
    variable_end_string: "%]"
"""

RETURN = {
    "dest": "The file written",
    "src": "The template on the controller",
    "checksum": "SHA1 of the rendered content",
    "md5sum": "MD5 of the rendered content, when it was written",
    "backup_file": "The backup made, when backup was asked and the file changed",
    "size": "Size of the file in bytes",
    "mode": "Permissions ('0644')",
    "owner": "Owner name",
    "group": "Group name",
    "uid": "Owner id",
    "gid": "Group id",
    "state": "file",
    "diff": "Content before and after (diff mode)",
}

ARGUMENT_SPEC = dict({
    "src": {"type": "path", "required": True},
    "dest": {"type": "path", "required": True},
    "backup": {"type": "bool", "default": False},
    "validate": {"type": "str"},
    "force": {"type": "bool", "default": True},
    "follow": {"type": "bool", "default": False},
    "newline_sequence": {"type": "str", "default": "\n", "choices": ["\n", "\r", "\r\n"]},
    "trim_blocks": {"type": "bool", "default": True},
    "lstrip_blocks": {"type": "bool", "default": False},
    "block_start_string": {"type": "str", "default": "{%"},
    "block_end_string": {"type": "str", "default": "%}"},
    "variable_start_string": {"type": "str", "default": "{{"},
    "variable_end_string": {"type": "str", "default": "}}"},
    "comment_start_string": {"type": "str"},
    "comment_end_string": {"type": "str"},
    "output_encoding": {"type": "str", "default": "utf-8"},
}, **FILE_ATTRIBUTE_SPEC)
SUPPORTS_CHECK_MODE = True
ACTION = "template"


def run(module):
    module.fail("a template is rendered on the controller: run template as a task (its action renders src and "
                "sends the result)")
