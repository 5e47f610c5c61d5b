"""``attnmt translate`` under faults: a full disk, a reader that leaves early, a run that fails.

A failed write is one line naming the output and a non-zero exit status, never a short
output and status 0; an output file that existed stays as it was when a run fails.
"""

import os
import shlex
import shutil
import subprocess
import sys

import pytest
from support import PAIRS, can_mount_tmpfs, run_cli

TRANSLATE = [sys.executable, "-m", "attnmt", "translate", "--beam", "1", "--threads", "1"]
TRANSLATIONS = "".join(t + "\n" for _, t in PAIRS)


def write_source(folder, copies: int = 1):
    source = folder / "in.txt"
    source.write_text("".join(s + "\n" for s, _ in PAIRS) * copies, encoding="utf-8")
    return source


def test_a_full_stdout_is_one_line_and_exit_status_2(trained_model, tmp_path):
    with open("/dev/full", "w") as full:  # every write to it fails with ENOSPC
        done = subprocess.run([*TRANSLATE, "--model", str(trained_model), str(write_source(tmp_path))],
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr == "attnmt: error: could not write <stdout>: no space left on device\n"


def test_a_full_output_device_is_one_line_naming_it(trained_model, tmp_path, capsys):
    code, _, err = run_cli(["translate", "--model", trained_model, write_source(tmp_path), "/dev/full"], capsys)
    assert code == 2
    assert err == "attnmt: error: could not write /dev/full: no space left on device\n"


def test_a_failed_run_leaves_the_previous_output_file_as_it_was(trained_model, tmp_path, capsys):
    output = tmp_path / "out.txt"
    output.write_text("yesterday's translations\n", encoding="utf-8")
    source = tmp_path / "in.jsonl"
    source.write_text('{"text": "a dog runs"}\n{"txt": "a cat sleeps"}\n', encoding="utf-8")
    code, _, err = run_cli(["translate", "--model", trained_model, "--input-format", "jsonl", source, output], capsys)
    assert code == 2 and "in.jsonl:2" in err
    assert output.read_text(encoding="utf-8") == "yesterday's translations\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl", "out.txt"]  # no temporary file left


def test_an_output_file_appears_whole_at_the_end_of_a_run(trained_model, tmp_path, capsys):
    output = tmp_path / "out.txt"
    output.write_text("yesterday's translations\n", encoding="utf-8")
    code, _, _ = run_cli(["translate", "--model", trained_model, write_source(tmp_path), output], capsys)
    assert code == 0 and output.read_text(encoding="utf-8") == TRANSLATIONS
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt", "out.txt"]


def test_an_output_path_that_is_a_link_is_written_through_not_replaced(trained_model, tmp_path, capsys):
    """As /dev/stdout is: a rename over the link would replace the link itself."""
    (tmp_path / "real.txt").write_text("yesterday's translations\n", encoding="utf-8")
    link = tmp_path / "out.txt"
    link.symlink_to(tmp_path / "real.txt")
    code, _, _ = run_cli(["translate", "--model", trained_model, write_source(tmp_path), link], capsys)
    assert code == 0 and link.is_symlink()
    assert (tmp_path / "real.txt").read_text(encoding="utf-8") == TRANSLATIONS


def test_an_output_never_replaces_a_file_the_translation_is_made_from(trained_copy, tmp_path, capsys):
    """The glossary, --weights, the model's own files: written over, each would be lost (the run
    went on and exited 0).  The output and --review's table are refused in one line; what else
    lies beside the model stays the user's to write."""
    source, terms, weights = write_source(tmp_path), tmp_path / "terms.tsv", tmp_path / "averaged.safetensors"
    terms.write_text("dog\thund\n", encoding="utf-8")
    shutil.copy(trained_copy / "model.safetensors", weights)
    kept = {path: path.read_bytes() for path in [terms, weights, *trained_copy.iterdir()] if path.is_file()}
    cases = [(["--glossary", terms], terms, "--glossary"), (["--weights", weights], weights, "--weights"),
             *[([], trained_copy / name, f"model's {name}") for name in ("config.json", "model.safetensors",
                                                                        "spm.model")]]
    for extra, written, name in cases:
        translate = ["translate", "--model", trained_copy, *extra, source]
        code, _, err = run_cli([*translate, written], capsys)
        assert code == 2 and err == (f"attnmt: error: the output {written} is the {name} file: give it a file of "
                                     "its own (in.translated.txt)\n")
        code, _, err = run_cli([*translate, tmp_path / "out.txt", "--review", written], capsys)
        assert code == 2 and err == (f"attnmt: error: the --review {written} is the {name} file: give it a file "
                                     "of its own (report.review.tsv)\n")
    code, _, err = run_cli(["score", "--model", trained_copy, "--src", source, "--hyp", source, "--output",
                            trained_copy / "config.json"], capsys)
    assert code == 2 and f"the --output {trained_copy / 'config.json'} is the model's config.json file" in err
    code, _, err = run_cli(["shortlist", "--model", trained_copy, "--source", source, "--out", weights, "--weights",
                            weights], capsys)
    assert code == 2 and f"the --out {weights} is the --weights file" in err
    assert {path: path.read_bytes() for path in kept} == kept and not (tmp_path / "out.txt").exists()
    code, _, _ = run_cli(["translate", "--model", trained_copy, source, trained_copy / "in.de.txt"], capsys)
    assert code == 0 and (trained_copy / "in.de.txt").read_text(encoding="utf-8") == TRANSLATIONS


@pytest.mark.parametrize("slash", ["/", ""], ids=["named-as-a-folder", "an-existing-folder"])
@pytest.mark.parametrize(("source", "extra", "suggested"), [
    ("-", [], "translation.txt"), ("-", ["--input-format", "html", "--target-lang", "de"], "translation.de.html"),
    ("in.txt", [], "in.translated.txt")])
def test_an_output_folder_is_refused_before_the_model_loads_with_a_file_name_for_it(tmp_path, capsys, slash, source,
                                                                                     extra, suggested):
    """From stdin, ``translate - o/`` suggested o/-, a file named "-"; an existing folder named
    without its slash was found only once the model had loaded (here: none is there to load)."""
    folder, given = tmp_path / "o", source if source == "-" else write_source(tmp_path)
    folder.mkdir()
    code, _, err = run_cli(["translate", "--model", tmp_path / "no-model", *extra, given, f"{folder}{slash}"], capsys)
    assert code == 2 and err == (f"attnmt: error: the output {folder}{slash} names a folder: give it a file name "
                                 f"({folder}/{suggested})\n")


def test_an_empty_output_name_is_refused_as_one_not_as_a_folder(tmp_path, capsys):
    code, _, err = run_cli(["translate", "--model", tmp_path / "no-model", write_source(tmp_path), ""], capsys)
    assert code == 2 and err == "attnmt: error: the output is an empty name: give it a file name (in.translated.txt)\n"


@pytest.mark.parametrize(("command", "refused"), [
    ("printf 'a dog runs\\n' | {translate} - /dev/stdin", "output /dev/stdin"),
    ("printf 'a dog runs\\n' | {translate} - {folder}/out.txt --review /dev/stdin", "--review /dev/stdin"),
    ("{translate} - {folder}/in.txt < {folder}/in.txt", "output {folder}/in.txt")])
def test_an_output_into_the_pipe_or_file_stdin_is_is_refused_before_any_work(tmp_path, command, refused):
    """Written into stdin's own pipe, translate read its translations back as input and ran until
    killed; written over stdin's file, it replaced the text it was reading (here: no model is there
    to load, so the check comes first)."""
    source = write_source(tmp_path)
    translate = shlex.join([*TRANSLATE, "--model", str(tmp_path / "no-model")])
    done = subprocess.run(["sh", "-c", command.format(translate=translate, folder=tmp_path)], capture_output=True,
                          text=True, timeout=60)
    suggested = "report.review.tsv" if refused.startswith("--review") else "translation.txt"
    assert (done.returncode, done.stderr) == (2, f"attnmt: error: the {refused.format(folder=tmp_path)} is <stdin>, "
                                                 f"which the input is read from: give it a file of its own "
                                                 f"({suggested})\n")
    assert source.read_text(encoding="utf-8") == "".join(s + "\n" for s, _ in PAIRS)


@pytest.mark.parametrize(("command", "refused"), [
    (["translate", "-", "-"], "the output <stdout> is <stdin>, which the input is read from: give it a file of its own "
                              "(translation.txt)"),
    (["translate"], "the output <stdout> is <stdin>, which the input is read from: give it a file of its own "
                    "(translation.txt)"),
    (["translate", "in.txt"], "the output <stdout> is <stdin>: give it a file of its own (in.translated.txt)"),
    (["score", "--src", "-", "--hyp", "hyp.txt"], "the --output <stdout> is <stdin>, which the --src is read from: "
                                                  "give it a file of its own (hyp.scores.jsonl)"),
], ids=["translate - -", "translate", "translate in.txt", "score --src -"])
def test_stdout_into_the_named_pipe_stdin_is_is_refused_before_any_work(tmp_path, command, refused):
    """``attnmt translate - - < fifo > fifo``: the translations went into the pipe they were read from,
    and were read back as input without end, where an output naming the pipe is refused (here: no
    model is there to load, so the check comes first)."""
    write_source(tmp_path)
    (tmp_path / "hyp.txt").write_text("ein hund\n", encoding="utf-8")
    os.mkfifo(tmp_path / "fifo")
    both = os.open(tmp_path / "fifo", os.O_RDWR)  # as the shell's "< fifo > fifo" leaves it, without blocking
    try:
        done = subprocess.run([sys.executable, "-m", "attnmt", *command, "--model", str(tmp_path / "no-model")],
                              stdin=both, stdout=both, stderr=subprocess.PIPE, text=True, timeout=60, cwd=tmp_path)
    finally:
        os.close(both)
    assert (done.returncode, done.stderr) == (2, f"attnmt: error: {refused}\n")


def test_stdout_into_another_pipe_than_stdins_is_let_through(tmp_path):
    """``printf … | attnmt translate | cat``: two pipes (here: past the outputs' checks, to the missing model)."""
    done = subprocess.run(f"printf 'a dog runs\\n' | {shlex.join([*TRANSLATE, '--model', str(tmp_path / 'no-model')])} "
                          "| cat", shell=True, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (0, f"attnmt: error: {tmp_path}/no-model: no such model directory\n")


def test_an_output_that_is_the_file_stdin_comes_from_is_let_through_where_no_input_reads_stdin(tmp_path):
    """``translate in.txt out.txt < out.txt``: stdin is never read, so writing out.txt replaces nothing
    being read (here: past the outputs' checks, to the missing model)."""
    source, output = write_source(tmp_path), tmp_path / "out.txt"
    output.write_text("old\n", encoding="utf-8")
    with output.open("rb") as stdin:
        done = subprocess.run([*TRANSLATE, "--model", str(tmp_path / "no-model"), str(source), str(output)],
                              stdin=stdin, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (2, f"attnmt: error: {tmp_path}/no-model: no such model directory\n")


def test_a_terminal_as_stdin_and_output_is_let_through(tmp_path):
    """What a person types, translated onto the same terminal: /dev/stdin and /dev/tty are one."""
    import pty

    typed, terminal = pty.openpty()
    try:
        for output in ("/dev/stdin", os.ttyname(terminal)):
            done = subprocess.run([*TRANSLATE, "--model", str(tmp_path / "no-model"), "-", output], stdin=terminal,
                                  capture_output=True, text=True, timeout=60)
            assert (done.returncode, done.stderr) == (2, f"attnmt: error: {tmp_path}/no-model: no such model "
                                                         "directory\n")  # past the outputs' checks
    finally:
        os.close(typed)
        os.close(terminal)


def test_a_closed_standard_stream_is_one_line_or_nothing_never_a_traceback(trained_model, tmp_path):
    """``>&-``, ``<&-``, ``2>&-``: a closed stdout or stdin that the command needs is named in one
    line, exit status 2 (each was an AttributeError's traceback and status 1); a closed stderr
    takes nothing from a run that succeeds (it ended with status 1) and puts no error line into
    stdout (it did: print took the missing stderr for stdout)."""
    source, output, model = write_source(tmp_path), tmp_path / "out.txt", str(trained_model)
    translate = shlex.join([*TRANSLATE, "--model", model])
    cases = [
        (f"{translate} {source} >&-", 2, "attnmt: error: could not write <stdout>: it is closed (or open for "
                                         "reading only)\n"),
        (f"{translate} <&-", 2, "attnmt: error: could not read <stdin>: it is closed; give the input file\n"),
        (f"{translate} {source} {output} 2>&-", 0, ""),
        (f"{shlex.join([*TRANSLATE, '--model', str(tmp_path / 'missing')])} {source} 2>&- > {tmp_path / 'so.txt'}",
         2, ""),
    ]
    for command, status, err in cases:
        done = subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=120)
        assert (done.returncode, done.stderr, done.stdout) == (status, err, ""), command
    assert output.read_text(encoding="utf-8") == TRANSLATIONS and (tmp_path / "so.txt").read_text() == ""


def on_a_full_disk(tmp_path, command: str) -> tuple[int, str]:
    """Runs ``command`` (sh) with DISK, a 1 MB tmpfs with 16 KB left, in a mount namespace of
    its own; returns its exit status and stderr."""
    disk = tmp_path / "disk"
    script = f"""mount -t tmpfs -o size=1m tmpfs {disk}
        echo "yesterday's translations" > {disk}/out.txt
        dd if=/dev/zero of={disk}/filler bs=64k 2> /dev/null
        truncate -s -16K {disk}/filler
        DISK={disk} sh -c {shlex.quote(command)} 2> {tmp_path}/err
        echo $? > {tmp_path}/status
        ls -A {disk} > {tmp_path}/files
        cat {disk}/out.txt > {tmp_path}/previous
        """
    # Unbuffered, sys.stdout's text layer dropped the rest of a short write without an error.
    subprocess.run(["unshare", "-rm", "sh", "-c", script], check=True, timeout=300,
                   env={**os.environ, "OMP_NUM_THREADS": "1", "PYTHONUNBUFFERED": "1"})
    return int((tmp_path / "status").read_text()), (tmp_path / "err").read_text()


def test_stdout_redirected_to_a_full_disk_is_one_line_and_exit_status_2(trained_model, tmp_path):
    if not can_mount_tmpfs(tmp_path / "disk"):
        pytest.skip("cannot mount a small tmpfs here (needs root or user namespaces)")
    source = write_source(tmp_path, copies=50)  # about 19 KB of translations: more than the 16 KB left
    translate = shlex.join([*TRANSLATE, "--model", str(trained_model), str(source)])
    status, err = on_a_full_disk(tmp_path, f'{translate} > "$DISK/o.txt"')
    assert status == 2
    assert err == "attnmt: error: could not write <stdout>: no space left on device\n"


def test_an_output_file_on_a_full_disk_is_one_line_and_the_previous_file_stays(trained_model, tmp_path):
    if not can_mount_tmpfs(tmp_path / "disk"):
        pytest.skip("cannot mount a small tmpfs here (needs root or user namespaces)")
    source = write_source(tmp_path, copies=50)
    translate = shlex.join([*TRANSLATE, "--model", str(trained_model), str(source)])
    status, err = on_a_full_disk(tmp_path, f'{translate} "$DISK/out.txt"')
    assert status == 2
    assert err == (f"attnmt: error: could not write {tmp_path}/disk/out.txt: no space left on device; "
                   "the previous version is intact\n")
    assert (tmp_path / "previous").read_text() == "yesterday's translations\n"
    assert (tmp_path / "files").read_text().split() == ["filler", "out.txt"]  # no temporary file left


def test_a_reader_that_leaves_early_ends_translate_quietly(trained_model, tmp_path):
    """As ``attnmt translate | head -1`` does: the rest is not wanted, which is no failure."""
    with open(tmp_path / "err", "w+") as err:
        process = subprocess.Popen([*TRANSLATE, "--model", str(trained_model)], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=err, text=True)
        process.stdin.write(PAIRS[0][0] + "\n")
        process.stdin.flush()
        assert process.stdout.readline() == PAIRS[0][1] + "\n"
        process.stdout.close()  # the reader leaves; the next batch's translations meet a closed pipe
        process.stdin.write("".join(s + "\n" for s, _ in PAIRS))
        process.stdin.close()
        assert process.wait(timeout=60) == 0
        err.seek(0)
        assert err.read() == ""
