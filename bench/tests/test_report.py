"""Summaries, ratios and the parsing of each runner's output."""

from pathlib import Path

from measure import Measurement
from report import RunnerResults, marginal_ms_per_host_task, ratios, table
from runners import AnsibleRunner, PyinfraRunner


def _measured(*seconds: float) -> list[Measurement]:
    return [Measurement(seconds=value, exit_code=0, cpu_seconds=value / 2, peak_tree_mib=100.0, max_rss_mib=50.0)
            for value in seconds]


def test_marginal_cost_is_the_slope_between_two_host_counts() -> None:
    # 10 more hosts x 9 task executions = 90 more host-tasks for 4 more seconds
    assert marginal_ms_per_host_task(20, 10.0, 10, 6.0) == (4.0 / 90) * 1000
    assert marginal_ms_per_host_task(20, 10.0, 10, None) is None
    assert marginal_ms_per_host_task(1, 2.0, 0, 1.0) is not None
    assert marginal_ms_per_host_task(1, 2.0, 1, 1.0) is None


def test_summary_takes_medians_and_peak_memory() -> None:
    result = RunnerResults("ours", "0.1", 20, first=_measured(3.0, 1.0, 2.0), second=_measured(1.0, 5.0, 1.5),
                           smaller_hosts=10, smaller_first=_measured(1.1, 1.1, 1.1))
    summary = result.summary()
    assert summary["first_s"] == 2.0
    assert summary["second_s"] == 1.5
    assert summary["first_cpu_s"] == 1.0
    assert summary["peak_tree_mib"] == 100.0
    assert summary["ms_per_host_task"] == (2.0 - 1.1) / 90 * 1000


def test_ratios_divide_each_runner_by_ours_and_leave_out_failed_runners() -> None:
    ours = RunnerResults("ours", "", 20, first=_measured(2.0), second=_measured(1.0))
    ansible = RunnerResults("ansible", "", 20, first=_measured(30.0), second=_measured(20.0))
    broken = RunnerResults("pyinfra", "", 20, error="exit code 1")
    assert ratios([ours, ansible, broken]) == {"ansible": {"first_s": 15.0, "second_s": 20.0, "first_cpu_s": 15.0}}
    assert ratios([ansible]) == {}
    printed = table([ours, ansible, broken])
    assert "ansible / ours: first run (cold) 15.0x, second run warm 20.0x, CPU of first run 15.0x" in printed
    assert "pyinfra: FAILED: exit code 1" in printed


def test_changes_are_read_from_ansible_style_recaps(tmp_path: Path) -> None:
    log = (
        "PLAY RECAP *****\n"
        "host1                      : ok=7    changed=5    unreachable=0    failed=0    skipped=0\n"
        "host2                      : ok=7    changed=4    unreachable=0    failed=0    skipped=0\n"
    )
    assert AnsibleRunner(tmp_path).changed_count(log) == 9
    assert AnsibleRunner(tmp_path).changed_count("no recap here") is None


def test_changes_are_read_from_pyinfra_results(tmp_path: Path) -> None:
    first = "--> Results:\n    Operation   Hosts   Success   Error   No Change\n    Grand total  24  24  -  -\n"
    second = "    Grand total                    21      3         -       18\n"
    idle = "    Grand total                    21      -         -       21\n"
    runner = PyinfraRunner(tmp_path)
    assert runner.changed_count(first) == 24
    assert runner.changed_count(second) == 3
    assert runner.changed_count(idle) == 0
