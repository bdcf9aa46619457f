"""The default view's settings beyond which results it hides and how it dumps them: ansible-core's
``default_callback`` and ``result_format_callback`` options, under the same names."""

from __future__ import annotations

from dataclasses import dataclass

# callback_result_yaml_line_width: the YAML line width each value asks for (None: PyYAML's own, about 80)
_NO_BREAK = 0x7FFFFFFF  # as ansible-core: a width no line reaches
YAML_LINE_WIDTHS = ("default", "no-break", "terminal-width")


@dataclass(frozen=True)
class DefaultOptions:
    """``display_failed_stderr``: failures (their ``[ERROR]`` lines too) and unreachable hosts on stderr;
    ``show_task_path_on_failure``: ``task path: FILE:LINE`` before a failure below -vv (which shows it for every
    task); ``display_included_hosts``: the ``included:`` lines; ``check_mode_markers``: ``[CHECK MODE]`` after a
    play or task run in check mode and ``DRY RUN`` banners around a ``--check`` run (on by default, unlike
    ansible-core); ``result_indentation``: of
    indented JSON and of YAML results; ``yaml_line_width``: one of YAML_LINE_WIDTHS."""

    display_failed_stderr: bool = False
    show_task_path_on_failure: bool = False
    display_included_hosts: bool = True
    check_mode_markers: bool = True  # off in ansible-core; on here, see docs/decisions.md
    result_indentation: int = 4
    yaml_line_width: str = "default"

    def yaml_width(self, columns: int) -> int | None:
        """The width PyYAML breaks lines at: None for its default, ``columns`` (the view's) for terminal-width."""
        if self.yaml_line_width == "no-break":
            return _NO_BREAK
        if self.yaml_line_width == "terminal-width":
            return columns
        return None
