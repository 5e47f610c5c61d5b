"""Writing files so that a crash never leaves a broken one, without replacing what is no regular file:
a symbolic link is written through, a named pipe or a device is written as it is."""

import errno
import multiprocessing
import os
import signal
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from safetensors.torch import load_file
from support import tiny_config

from attnmt import checkpoint as ckpt
from attnmt.cli.main import main
from attnmt.errors import ModelDirError, OutputError
from attnmt.files import atomic_file, atomic_folder, atomic_write, write_text
from attnmt.training.trainer import Trainer


def read_fifo_in_background(fifo: Path) -> dict:
    """Reads ``fifo`` to its end in a thread; the bytes land in the returned dict's "data"."""
    got: dict = {}

    def read() -> None:
        got["data"] = fifo.read_bytes()

    got["thread"] = threading.Thread(target=read, daemon=True)
    got["thread"].start()
    return got


def test_a_symbolic_link_is_written_through_and_stays_a_link(tmp_path):
    (tmp_path / "real.txt").write_text("old")
    (tmp_path / "link.txt").symlink_to("real.txt")
    write_text(tmp_path / "link.txt", "new")
    assert (tmp_path / "link.txt").is_symlink() and os.readlink(tmp_path / "link.txt") == "real.txt"
    assert (tmp_path / "real.txt").read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.txt", "real.txt"]  # no temporary file left


def test_a_dangling_symbolic_link_makes_its_target(tmp_path):
    (tmp_path / "link.txt").symlink_to("made.txt")
    write_text(tmp_path / "link.txt", "new")
    assert (tmp_path / "link.txt").is_symlink() and (tmp_path / "made.txt").read_text() == "new"


def test_a_named_pipe_is_written_into_not_replaced(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = read_fifo_in_background(fifo)
    atomic_write(fifo, lambda tmp: tmp.write_bytes(b"weights"))
    reader["thread"].join(timeout=30)
    assert reader["data"] == b"weights"
    assert fifo.is_fifo()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_a_failed_write_through_a_pipe_is_one_line_naming_it(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)

    def full(tmp):
        raise OSError(28, "No space left on device")

    with pytest.raises(ModelDirError, match=f"^could not write {fifo}: no space left on device$"):
        atomic_write(fifo, full)
    assert fifo.is_fifo()


@pytest.fixture(scope="module")
def two_checkpoints(tmp_path_factory) -> Path:
    config = tiny_config(tmp_path_factory.mktemp("run"), max_steps=2, eval_every=1, eval_metric="loss",
                         model=dict(d_model=32, n_heads=4, encoder_layers=1, decoder_layers=1, d_ff=64))
    Trainer(config, progress=False).train()
    return Path(config.out_dir)


def test_average_out_through_a_symbolic_link_keeps_the_link(two_checkpoints, tmp_path):
    (tmp_path / "kept.safetensors").write_bytes(b"old")
    (tmp_path / "link.safetensors").symlink_to(tmp_path / "kept.safetensors")
    assert main(["average", "--model", str(two_checkpoints), "--last", "2",
                 "--out", str(tmp_path / "link.safetensors")]) == 0
    assert (tmp_path / "link.safetensors").is_symlink()
    assert set(load_file(tmp_path / "kept.safetensors")) == set(load_file(two_checkpoints / ckpt.WEIGHTS))


def test_average_out_into_a_named_pipe_writes_the_weights_into_it(two_checkpoints, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = read_fifo_in_background(fifo)
    assert main(["average", "--model", str(two_checkpoints), "--last", "2", "--out", str(fifo)]) == 0
    reader["thread"].join(timeout=30)
    assert fifo.is_fifo()
    assert main(["average", "--model", str(two_checkpoints), "--last", "2", "--out", str(tmp_path / "a")]) == 0
    assert reader["data"] == (tmp_path / "a").read_bytes()


def test_a_folder_write_deletes_the_temporary_folders_its_killed_writers_left(tmp_path):
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    killed = tmp_path / f".prepared.{int(gone.stdout)}.k2j4x9a1"  # its process is gone
    running = tmp_path / f".prepared.{os.getpid()}.q1w2e3r4"  # a living process's: in use
    unknown = tmp_path / ".prepared.q1w2e3r4"  # an earlier release's: whose, cannot be told
    other = tmp_path / f".data.{int(gone.stdout)}.k2j4x9a1"  # another folder's
    for folder in (killed, running, unknown, other):
        folder.mkdir()
    atomic_folder(tmp_path / "prepared", lambda tmp: (tmp / "header.json").write_text("{}"))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["prepared", running.name, unknown.name, other.name])



def test_a_folder_not_to_replace_keeps_what_was_put_there_while_it_was_written(tmp_path):
    """An export's --out, empty when checked before the work: a file put there meanwhile is kept and
    the write refused in one line, not deleted with the folder the export replaces."""
    out = tmp_path / "out"
    out.mkdir()

    def fill(tmp: Path) -> None:
        (tmp / "config.json").write_text("{}")
        (out / "mine.txt").write_text("kept")

    with pytest.raises(ModelDirError, match=f"^could not write {out}: directory not empty"):
        atomic_folder(out, fill, replace=False)
    assert [p.name for p in tmp_path.iterdir()] == ["out"] and (out / "mine.txt").read_text() == "kept"
    assert [p.name for p in out.iterdir()] == ["mine.txt"]


def config_and_folder(tmp: Path) -> None:
    (tmp / "config.json").write_text("{}")
    (tmp / "sub").mkdir()


def busy_folder(folder: Path, rename):
    """os.rename (or os.replace) refusing to move anything over ``folder``, as Linux refuses a
    mount point (a Docker volume) with EBUSY."""
    def refuse(source, destination, *args, **kwargs):
        if Path(destination) == folder:
            raise OSError(errno.EBUSY, os.strerror(errno.EBUSY))
        return rename(source, destination, *args, **kwargs)
    return refuse


def test_an_empty_folder_not_to_replace_is_filled_in_place_so_a_mount_point_takes_it(tmp_path, monkeypatch):
    """An export's --out a mount point was refused ("device or resource busy"): the folder filled
    beside it was renamed over it."""
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.setattr(os, "rename", busy_folder(out, os.rename))
    monkeypatch.setattr(os, "replace", busy_folder(out, os.replace))
    atomic_folder(out, config_and_folder, replace=False)
    assert sorted(p.name for p in out.iterdir()) == ["config.json", "sub"] and (out / "sub").is_dir()
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


def test_an_empty_folder_not_to_replace_keeps_its_private_mode(tmp_path):
    """An --out made with mkdir -m 700 came back drwxr-xr-x, the mode of the folder renamed over it."""
    out = tmp_path / "out"
    out.mkdir(mode=0o700)
    atomic_folder(out, lambda tmp: (tmp / "config.json").write_text("{}"), replace=False)
    assert stat.S_IMODE(out.stat().st_mode) == 0o700 and [p.name for p in out.iterdir()] == ["config.json"]


def test_an_empty_folder_not_to_replace_is_filled_under_a_folder_that_cannot_be_written(tmp_path):
    """Its temporary folder was made beside it: "operation not permitted" (permission denied)."""
    parent, out = tmp_path / "readonly", tmp_path / "readonly" / "out"
    out.mkdir(parents=True)
    parent.chmod(0o555)
    try:
        if os.access(parent, os.W_OK):
            pytest.skip("the folder stays writable (root ignores its mode)")
        atomic_folder(out, lambda tmp: (tmp / "config.json").write_text("{}"), replace=False)
        assert [p.name for p in parent.iterdir()] == ["out"] and [p.name for p in out.iterdir()] == ["config.json"]
    finally:
        parent.chmod(0o755)


def test_a_folder_filled_in_place_and_cut_short_while_moving_up_is_left_empty(tmp_path, monkeypatch):
    out = tmp_path / "out"
    out.mkdir()
    rename, renamed = os.rename, []

    def interrupted_second(source, destination):
        if renamed:
            raise KeyboardInterrupt
        renamed.append(rename(source, destination))

    monkeypatch.setattr(os, "rename", interrupted_second)
    with pytest.raises(KeyboardInterrupt):
        atomic_folder(out, config_and_folder, replace=False)
    assert renamed and list(out.iterdir()) == [] and [p.name for p in tmp_path.iterdir()] == ["out"]


def test_a_folder_filled_in_place_deletes_the_hidden_folders_its_killed_writers_left(tmp_path):
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    out = tmp_path / "out"
    (out / f".attnmt-{int(gone.stdout)}-k2j4x9a1").mkdir(parents=True)  # its process is gone
    atomic_folder(out, lambda tmp: (tmp / "config.json").write_text("{}"), replace=False)
    assert [p.name for p in out.iterdir()] == ["config.json"]


def export_killed_after_two_moves(out: Path) -> None:
    """A forked writer of three files into ``out`` that SIGKILL ends after moving two of them up."""
    rename, moved = os.rename, []

    def killed_after_the_second(source, destination):
        moved.append(rename(source, destination))
        if len(moved) == 2:
            os.kill(os.getpid(), signal.SIGKILL)

    os.rename = killed_after_the_second
    atomic_folder(out, lambda tmp: [(tmp / name).write_text("old") for name in ("a.json", "b.bin", "c.spm")],
                  replace=False)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the kill is injected into a forked writer")
def test_what_a_writer_killed_between_two_moves_up_left_is_undone_by_the_next_write(tmp_path):
    """A SIGKILL between two moves left part of an export in its --out (a model without its tokenizer), which
    the next run refused as "not an empty directory"; the next write now deletes what the killed one moved."""
    out = tmp_path / "out"
    out.mkdir()
    writer = multiprocessing.get_context("fork").Process(target=export_killed_after_two_moves, args=(out,))
    writer.start()
    writer.join(60)
    assert writer.exitcode == -signal.SIGKILL
    assert len([p for p in out.iterdir() if not p.name.startswith(".")]) == 2  # beside the hidden folder
    atomic_folder(out, lambda tmp: (tmp / "config.json").write_text("new"), replace=False)
    assert [p.name for p in out.iterdir()] == ["config.json"]


def test_a_folder_through_a_symbolic_link_is_written_into_its_target_and_the_link_stays(tmp_path):
    """The link itself was refused ("cannot call rmtree on a symbolic link")."""
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to("real")
    atomic_folder(tmp_path / "link", lambda tmp: (tmp / "header.json").write_text("{}"))
    assert os.readlink(tmp_path / "link") == "real" and (tmp_path / "real" / "header.json").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link", "real"]


def test_a_folder_under_a_file_is_refused_naming_the_file(tmp_path):
    (tmp_path / "afile").write_text("kept")
    with pytest.raises(ModelDirError, match=f"^could not write {tmp_path}/afile/out: {tmp_path}/afile is a file, "
                                            "not a directory$"):
        atomic_folder(tmp_path / "afile" / "out", lambda tmp: None)
    assert (tmp_path / "afile").read_text() == "kept"


def test_sigterm_while_writing_leaves_the_old_output_and_no_temporary_file(tmp_path):
    """A command stopped by SIGTERM (``timeout``, ``kill``) left its hidden temporary file beside the output:
    only Ctrl-C ran the clean-up."""
    from attnmt.cli.main import Terminated, ended_by_signals

    output = tmp_path / "out.txt"
    output.write_text("old\n")
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(Terminated) as stopped, ended_by_signals(), atomic_file(output) as temporary:
        temporary.write_text("half")
        os.kill(os.getpid(), signal.SIGTERM)
    assert stopped.value.signal == signal.SIGTERM
    assert output.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == ["out.txt"]
    assert signal.getsignal(signal.SIGTERM) == before


def disk_full(tmp: Path) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_failed_write_says_the_previous_version_is_intact_only_where_there_was_one(tmp_path):
    with pytest.raises(ModelDirError, match=r"^could not write .*new.txt: no space left on device$"):
        atomic_write(tmp_path / "new.txt", disk_full)
    (tmp_path / "old.txt").write_text("yesterday's")
    with pytest.raises(ModelDirError, match=r"old.txt: no space left on device; the previous version is intact$"):
        atomic_write(tmp_path / "old.txt", disk_full)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["old.txt"]
    assert (tmp_path / "old.txt").read_text() == "yesterday's"


def test_a_failed_folder_write_says_the_previous_version_is_intact_only_where_there_was_one(tmp_path):
    with pytest.raises(ModelDirError, match=r"^could not write .*new: no space left on device$"):
        atomic_folder(tmp_path / "new", disk_full)
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "a.txt").write_text("yesterday's")
    with pytest.raises(ModelDirError, match=r"old: no space left on device; the previous version is intact$"):
        atomic_folder(tmp_path / "old", disk_full)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["old"]
    assert (tmp_path / "old" / "a.txt").read_text() == "yesterday's"


def test_a_folder_or_a_path_under_a_file_is_refused_in_one_line_with_the_error_asked_for(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(OutputError, match=f"^could not write {tmp_path}: it is a directory; give the name of a file"):
        write_text(tmp_path, "text", OutputError)
    with pytest.raises(OutputError, match=f"^could not write {tmp_path}/file/a/b.txt: {tmp_path}/file is a file, "
                                          "not a directory$"):
        write_text(tmp_path / "file" / "a" / "b.txt", "text", OutputError)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["file"]


@pytest.mark.parametrize("raised", [OSError(errno.EIO, "Input/output error"), KeyboardInterrupt()])
def test_a_folder_replaced_keeps_the_previous_version_where_putting_the_new_one_in_place_fails(
        tmp_path, monkeypatch, raised):
    """The previous folder was deleted before the new one was renamed into its place, and the new one
    deleted on the way out: an error or a Ctrl-C in that rename left neither version."""
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "a.txt").write_text("yesterday's")
    rename = os.replace

    def failing(source, destination):
        if Path(destination) == tmp_path / "old" and (Path(source) / "b.txt").exists():  # the new one, not the old
            raise raised
        return rename(source, destination)

    monkeypatch.setattr(os, "replace", failing)
    with pytest.raises((ModelDirError, KeyboardInterrupt)):
        atomic_folder(tmp_path / "old", lambda tmp: (tmp / "b.txt").write_text("today's"))
    assert sorted(path.name for path in tmp_path.iterdir()) == ["old"]
    assert (tmp_path / "old" / "a.txt").read_text() == "yesterday's"
