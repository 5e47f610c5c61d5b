"""The thread count (attnmt.threads): one thread per core that other processes leave free, read from
/proc/stat and the cgroup's quota, looked at again at most once a second with hysteresis; a count
the user fixed wins.  The readings here are made by hand, 100 ticks a second per CPU."""

import importlib
import threading

import pytest
from support import ending_model

from attnmt.decoding.translate import translate
from attnmt.errors import AttnmtWarning
from attnmt.threads import (
    CHECK_EVERY_S,
    Choice,
    Reading,
    ThreadCount,
    cpu_quota,
    cpu_ticks,
    next_count,
    others_busy,
    own_ticks,
)

HZ = 100  # ticks a second, as USER_HZ on Linux


class FakeTorch:
    """PyTorch's thread count, one per thread as OpenMP keeps it, and every count set."""

    def __init__(self, default: int) -> None:
        self.default, self.this_thread, self.sets = default, threading.local(), []

    def get(self) -> int:
        return getattr(self.this_thread, "count", self.default)

    def set(self, count: int) -> None:
        self.this_thread.count = count
        self.sets.append(count)


class Machine:
    """CPUs whose counters advance a window at a time: ``others`` CPUs busy for other processes and
    ``ours`` for this one.  ``clock`` and ``read`` are what a ThreadCount reads."""

    def __init__(self) -> None:
        self.now, self.reading, self.reads = 0.0, Reading(busy=0, total=0, own=0), 0

    def run(self, seconds: float, others: float, ours: float = 1.0, cpus: int = 2) -> None:
        r, ticks = self.reading, seconds * HZ
        self.reading = Reading(busy=r.busy + round((others + ours) * ticks), total=r.total + round(cpus * ticks),
                               own=r.own + round(ours * ticks))
        self.now += seconds

    def clock(self) -> float:
        return self.now

    def read(self) -> Reading:
        self.reads += 1
        return self.reading


def counting(machine: Machine, torch: FakeTorch, cpus: int = 2, quota: float | None = None) -> ThreadCount:
    return ThreadCount(range(cpus), quota, machine.read, machine.clock, torch.get, torch.set)


def following(others: float, torch_count: int = 2, quota: float | None = None) -> tuple[ThreadCount, Machine,
                                                                                          FakeTorch]:
    """A ThreadCount that has followed the free cores since a 2-second start beside ``others``."""
    machine, torch = Machine(), FakeTorch(torch_count)
    threads = counting(machine, torch, quota=quota)
    machine.run(2.0, others)
    threads.follow(environ={})
    return threads, machine, torch


def test_others_busy_is_the_busy_time_of_the_cpus_less_our_own():
    before = Reading(busy=1000, total=5000, own=300)
    after = Reading(busy=1000 + 150, total=5000 + 200, own=300 + 80)  # 2 CPUs, 1 second: 150 busy, 80 ours
    assert others_busy(before, after, cpus=2, ticks_per_s=HZ) == pytest.approx(0.7)


def test_a_window_under_a_fifth_of_a_second_is_too_short_to_count_cores_by():
    before = Reading(busy=0, total=0, own=0)
    assert others_busy(before, Reading(busy=30, total=38, own=0), cpus=2, ticks_per_s=HZ) is None  # 0.19 s
    assert others_busy(before, Reading(busy=30, total=40, own=0), cpus=2, ticks_per_s=HZ) == pytest.approx(1.5)


def test_proc_stat_is_read_for_the_cpus_this_process_may_run_on():
    stat = ("cpu  60 0 6 120 4 0 0 0 0 0\n"
            "cpu0 10 0 1 80 2 0 0 0 0 0\n"
            "cpu1 20 1 2 20 1 3 4 5 7 0\n"  # guest (7) is counted in user already
            "cpu2 30 0 3 20 1 0 0 0 0 0\n"
            "intr 1 2 3\n")
    assert cpu_ticks(stat, {1, 2}) == (35 + 33, 35 + 21 + 33 + 21, 2)
    assert cpu_ticks(stat, {7}) == (11 + 35 + 33, 11 + 82 + 35 + 21 + 33 + 21, 3)  # none of ours named: all


def test_own_ticks_are_user_and_system_time_even_with_a_name_of_spaces_and_parentheses():
    assert own_ticks("4242 (attnmt (x) y) R 1 2 3 4 5 6 7 8 9 10 123 45 0 0 20 0") == 168


@pytest.mark.parametrize("current, free, most, count", [
    (None, 1.95, 2, 2), (None, 1.6, 2, 1),  # the first choice counts a core 3/4 free
    (2, 1.6, 2, 2), (2, 1.4, 2, 1),  # a thread goes once more than half its core is taken
    (1, 1.6, 2, 1), (1, 1.8, 2, 2),  # and comes back when 3/4 of a core is free
    (4, 2.3, 8, 2), (1, 5.9, 8, 6),  # jumps of several threads
    (1, 0.2, 2, 1), (2, 7.0, 4, 4), (None, -0.5, 2, 1),  # at least 1, at most ``most``
])
def test_next_count_adds_a_thread_at_three_quarters_of_a_free_core_and_drops_one_below_half(
        current, free, most, count):
    assert next_count(current, free, most) == count


def test_the_cgroup_quota_is_the_least_of_the_process_cgroup_and_those_above_it(tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "cpu.max").write_text("max 100000\n")
    (tmp_path / "a" / "cpu.max").write_text("150000 100000\n")
    assert cpu_quota("0::/a/b\n", tmp_path) == 1.5
    (tmp_path / "cpu.max").write_text("100000 100000\n")
    assert cpu_quota("0::/a/b\n", tmp_path) == 1.0
    assert cpu_quota("0::/elsewhere/on/the/host\n", tmp_path) == 1.0  # a container's own view: its root


def test_a_v1_cgroup_quota_and_none_at_all(tmp_path):
    (tmp_path / "cpu" / "job").mkdir(parents=True)
    (tmp_path / "cpu" / "job" / "cpu.cfs_quota_us").write_text("-1\n")
    (tmp_path / "cpu" / "job" / "cpu.cfs_period_us").write_text("100000\n")
    (tmp_path / "cpu" / "cpu.cfs_quota_us").write_text("250000\n")
    (tmp_path / "cpu" / "cpu.cfs_period_us").write_text("100000\n")
    assert cpu_quota("4:memory:/job\n3:cpu,cpuacct:/job\n", tmp_path) == 2.5
    assert cpu_quota("0::/\n", tmp_path) is None


def test_on_quiet_cores_it_keeps_pytorchs_count_without_setting_it():
    threads, _, torch = following(others=0.1)
    assert threads.choice.count == 2 and "0.1 of 2 CPUs busy with other processes" in threads.choice.why
    assert torch.sets == []


def test_beside_a_busy_process_it_drops_to_one_thread_and_comes_back_when_it_ends():
    threads, machine, torch = following(others=0.0)
    machine.run(1.0, others=0.67, ours=1.33)  # our 2 threads and a busy loop share 2 cores
    assert threads.recheck() == Choice(1, threads.choice.why) and torch.get() == 1
    machine.run(1.0, others=1.0)
    assert threads.recheck() is None and threads.choice.count == 1
    machine.run(1.0, others=0.1)
    assert threads.recheck().count == 2
    assert torch.sets == [1, 2]  # set only when the count changed


def test_it_looks_at_the_cores_at_most_once_a_second():
    threads, machine, torch = following(others=0.0)
    reads = machine.reads
    for _ in range(5):
        machine.run(CHECK_EVERY_S / 10, others=1.0)
        threads.recheck()
    assert machine.reads == reads and threads.choice.count == 2
    machine.run(CHECK_EVERY_S, others=1.0)
    assert threads.recheck().count == 1 and machine.reads == reads + 1


@pytest.mark.parametrize("start_others, count", [(0.0, 2), (1.0, 1)])
def test_between_the_two_thresholds_the_count_stays(start_others, count):
    threads, machine, torch = following(others=start_others)
    for _ in range(3):
        machine.run(1.0, others=0.4)  # 1.6 cores free: enough to keep 2 threads, too few to add one
        threads.recheck()
    assert threads.choice.count == count


def test_the_first_choice_waits_for_a_long_enough_window():
    machine, torch = Machine(), FakeTorch(2)
    threads = counting(machine, torch)
    machine.run(0.1, others=1.0)
    threads.follow(environ={})
    assert threads.choice is None and "not seen yet" in threads.describe()
    machine.run(0.2, others=1.0)
    assert threads.recheck().count == 1 and torch.sets == [1]


def test_a_count_the_user_fixed_is_set_once_and_never_changed():
    machine, torch = Machine(), FakeTorch(2)
    threads = counting(machine, torch)
    threads.fix(3, "--threads 3")
    for others in (0.0, 1.5, 0.0):
        machine.run(1.0, others=others)
        assert threads.recheck() is None
    assert torch.sets == [3] and threads.describe() == "3 (--threads 3)"


def test_omp_num_threads_fixes_the_count_pytorch_took_from_it():
    machine, torch = Machine(), FakeTorch(2)
    threads = counting(machine, torch)
    machine.run(2.0, others=1.5)
    threads.follow(environ={"OMP_NUM_THREADS": "2"})
    machine.run(2.0, others=1.5)
    assert threads.recheck() is None and torch.sets == []
    assert threads.describe() == "2 (OMP_NUM_THREADS=2)"


@pytest.mark.parametrize("value", ["abc", "0", "", "2.5", "5000", "99999999999999999999"])
def test_an_omp_num_threads_that_is_no_count_fixes_nothing_and_says_so(value):
    """OpenMP ignores it; --verbose said the count came from it, and nothing said it was ignored."""
    machine, torch = Machine(), FakeTorch(2)
    threads = counting(machine, torch)
    with pytest.warns(AttnmtWarning) as warned:
        threads.follow(environ={"OMP_NUM_THREADS": value})
    assert [str(w.message) for w in warned] == [
        f"OMP_NUM_THREADS={value!r} is not a thread count from 1 to 4,096; the count is automatic"]
    assert "OMP_NUM_THREADS" not in threads.describe()


def test_an_omp_num_threads_list_fixes_the_count_of_its_first_level():
    """OpenMP reads "2,1" as 2 threads, then 1 in each nested region: the count is fixed."""
    machine, torch = Machine(), FakeTorch(2)
    threads = counting(machine, torch)
    threads.follow(environ={"OMP_NUM_THREADS": "2,1"})
    assert threads.describe() == "2 (OMP_NUM_THREADS=2,1)"


def test_a_count_set_with_torch_set_num_threads_after_the_choice_is_kept():
    threads, machine, torch = following(others=0.0)
    torch.set(4)  # the user's own torch.set_num_threads(4)
    machine.run(1.0, others=1.0)
    assert threads.recheck() is None and torch.get() == 4
    assert threads.describe() == "4 (torch.set_num_threads(4), after attnmt chose)"


def test_the_cgroup_quota_caps_the_count():
    threads, _, torch = following(others=0.0, torch_count=2, quota=1.0)
    assert threads.choice.count == 1 and "cgroup quota 1 CPUs" in threads.choice.why


def test_a_thread_that_computes_gets_the_chosen_count_at_its_first_recheck():
    threads, machine, torch = following(others=0.0)
    machine.run(1.0, others=1.0)
    threads.recheck()  # the main thread drops to 1
    seen = []

    def model_thread():
        threads.recheck()  # within the second: no new look, but this thread's own count is set
        seen.append(torch.get())

    worker = threading.Thread(target=model_thread)
    worker.start()
    worker.join()
    assert seen == [1] and torch.sets == [1, 1]


def test_translate_looks_at_the_thread_count_before_each_batch(monkeypatch):
    module = importlib.import_module("attnmt.decoding.inputs")  # padded_sources looks before each batch
    calls = []
    monkeypatch.setattr(module, "recheck", lambda: calls.append(1))

    class WordTokenizer:
        source_eos = False

        def encode(self, text: str) -> list[int]:
            return [4] * len(text.split())

        def decode(self, ids) -> str:
            return " ".join("w" for _ in ids)

    translate(ending_model(), WordTokenizer(), ["a b", "", "c d e", "fg"], max_sentences=1)  # "f" would pass through
    assert len(calls) == 3  # one batch per non-blank sentence
