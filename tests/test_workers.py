"""Worker processes: every result once, in this process, whatever happens to a worker."""
import os

import pytest

from conll_eval import workers
from conll_eval.workers import RemoteTraceback, run_tasks

PARENT = os.getpid()
MODES = [pytest.param(True, id="forked", marks=pytest.mark.skipif(
    not hasattr(os, "fork"), reason="no fork here")), pytest.param(False, id="executor")]


def square(k):
    return {"k": k, "square": k * k, "pid": os.getpid()}


def dies_on_three(k):
    if k == 3 and os.getpid() != PARENT:
        os._exit(9)  # as if killed by the OOM killer
    return square(k)


def always_dies(k):
    os._exit(9)


def fails_on_two(k):
    if k == 2:
        raise ValueError(f"task {k} is broken")
    return square(k)


def big(k):
    return bytes([k]) * (3 << 20)  # larger than a pipe's buffer, many reads


def collect(function, order, jobs, fork):
    got = {}

    def on_result(k, value):
        assert os.getpid() == PARENT and k not in got
        got[k] = value
    lost = run_tasks(function, order, jobs, on_result, fork=fork)
    return got, lost


@pytest.mark.parametrize("fork", MODES)
def test_every_task_once_with_its_own_result(fork):
    order = [5, 0, 3, 1, 4, 2]
    got, lost = collect(square, order, 2, fork)
    assert lost == [] and sorted(got) == list(range(6))
    assert all(got[k]["square"] == k * k for k in got)
    assert all(got[k]["pid"] != PARENT for k in got)


def test_one_forked_worker_runs_the_tasks_in_the_given_order():
    seen = []
    run_tasks(square, [4, 1, 3], 1, lambda k, value: seen.append(k), fork=True)
    assert seen == [4, 1, 3]


def test_nothing_to_do_starts_no_worker(monkeypatch):
    monkeypatch.setattr(os, "fork", None)  # would fail if called
    assert run_tasks(square, [], 4, lambda k, v: None, fork=True) == []


def test_a_dead_forked_worker_loses_only_its_task():
    got, lost = collect(dies_on_three, list(range(8)), 2, fork=True)
    assert lost == [3]
    assert sorted(got) == [0, 1, 2, 4, 5, 6, 7]


def test_a_dead_worker_in_the_executor_is_reported_as_lost():
    got, lost = collect(dies_on_three, list(range(8)), 2, fork=False)
    assert 3 in lost and set(got) | set(lost) == set(range(8)) and not set(got) & set(lost)


@pytest.mark.parametrize("fork", MODES)
def test_when_every_worker_dies_every_task_is_returned(fork):
    got, lost = collect(always_dies, [2, 0, 1], 2, fork)
    assert got == {} and sorted(lost) == [0, 1, 2]
    if fork:
        assert lost == [2, 0, 1]  # in the order given


@pytest.mark.parametrize("fork", MODES)
def test_an_exception_in_a_worker_is_raised_here_with_its_traceback(fork):
    with pytest.raises(ValueError, match="task 2 is broken") as caught:
        collect(fails_on_two, [0, 1, 2, 3], 2, fork)
    assert "fails_on_two" in str(caught.value.__cause__)
    if fork:
        assert isinstance(caught.value.__cause__, RemoteTraceback)


def test_results_larger_than_a_pipe_buffer_arrive_whole():
    got, lost = collect(big, [1, 2, 3], 2, fork=True)
    assert lost == [] and all(got[k] == bytes([k]) * (3 << 20) for k in (1, 2, 3))


def _recording_fork(monkeypatch):
    pids = []
    real_fork = os.fork

    def fork():
        pid = real_fork()
        if pid:
            pids.append(pid)
        return pid
    monkeypatch.setattr(os, "fork", fork)
    return pids


def _reaped(pid):
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def test_forked_workers_are_reaped(monkeypatch):
    pids = _recording_fork(monkeypatch)
    collect(dies_on_three, list(range(6)), 2, fork=True)
    assert len(pids) == 2 and all(_reaped(pid) for pid in pids)


def test_a_failing_callback_stops_and_reaps_the_workers(monkeypatch):
    pids = _recording_fork(monkeypatch)

    def on_result(k, value):
        raise KeyError("the caller broke")
    with pytest.raises(KeyError):
        run_tasks(square, list(range(50)), 2, on_result, fork=True)
    assert len(pids) == 2 and all(_reaped(pid) for pid in pids)


def test_fork_is_used_only_on_linux(monkeypatch):
    monkeypatch.setattr(workers.sys, "platform", "darwin")
    assert not workers.fork_available()
    monkeypatch.setattr(workers.sys, "platform", "linux")
    assert workers.fork_available() == hasattr(os, "fork")


SLEEPY_PROGRAM = """
import os, sys, time
from conll_eval.workers import run_tasks
marks, seconds = sys.argv[1], float(sys.argv[2])
def sleepy(k):
    with open(os.path.join(marks, str(os.getpid())), "w"):
        pass
    time.sleep(seconds)
    return k
done = []
run_tasks(sleepy, list(range(4)), 2, lambda k, value: done.append(value), fork=True)
print(sorted(done))
"""


def _sleepy_group(marks, seconds, sigint):
    """SLEEPY_PROGRAM in a process group of its own, started with SIGINT set to ``sigint``
    whatever this process has (pytest run as a background job or by some CI runners
    ignores SIGINT, and children inherit that): (process, the pids of its two workers)."""
    import signal
    import subprocess
    import sys
    import time
    process = subprocess.Popen([sys.executable, "-c", SLEEPY_PROGRAM, str(marks), str(seconds)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               start_new_session=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, sigint))
    try:
        deadline = time.monotonic() + 30
        while len(os.listdir(marks)) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.1)  # the workers' marks are made before they sleep: let them get there
        return process, [int(name) for name in os.listdir(marks)]
    except BaseException:
        _end_group(process)
        raise


def _end_group(process):
    """Kill what is left of the process group (never leave sleeping processes behind)."""
    import signal
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.communicate()


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="no process groups here")
def test_ctrl_c_stops_the_parent_and_its_workers_at_once(tmp_path):
    import signal
    process, worker_pids = _sleepy_group(tmp_path, 60, signal.SIG_DFL)
    try:
        assert len(worker_pids) == 2
        os.killpg(process.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
        _, err = process.communicate(timeout=30)  # long before the 60 s sleeps end
        assert process.returncode != 0 and b"KeyboardInterrupt" in err
        for pid in worker_pids:
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)
    finally:
        _end_group(process)


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="no process groups here")
def test_started_with_sigint_ignored_parent_and_workers_keep_ignoring_it(tmp_path):
    """A shell runs a background job (``cmd &`` without job control) with SIGINT ignored so
    that a Ctrl-C at the terminal leaves it alone: the workers respect that like the parent."""
    import signal
    process, worker_pids = _sleepy_group(tmp_path, 1.5, signal.SIG_IGN)
    try:
        assert len(worker_pids) == 2
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=30)
        assert process.returncode == 0, err
        assert out.decode().strip() == "[0, 1, 2, 3]"  # no task lost: no worker was interrupted
    finally:
        _end_group(process)


def test_usable_cpus_counts_the_cpus_this_process_may_use(monkeypatch):
    monkeypatch.delattr(os, "process_cpu_count", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 3, 5}, raising=False)
    assert workers.usable_cpus() == 3  # taskset -c 0,3,5 on a larger machine
    monkeypatch.delattr(os, "sched_getaffinity")
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert workers.usable_cpus() == 1


def test_a_process_with_other_threads_is_not_forked(monkeypatch):
    import threading

    def no_fork(*args):
        raise AssertionError("forked while another thread ran")
    monkeypatch.setattr(workers, "_run_forked", no_fork)
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        got = {}
        assert run_tasks(square, [0, 1, 2], 2, got.__setitem__) == []
        assert sorted(got) == [0, 1, 2]
    finally:
        release.set()
        other.join()


def test_workers_reaped_by_someone_else_are_no_error():
    import signal
    previous = signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps children itself
    try:
        got, lost = collect(square, [0, 1, 2, 3], 2, fork=True)
    finally:
        signal.signal(signal.SIGCHLD, previous)
    assert lost == [] and sorted(got) == [0, 1, 2, 3]
