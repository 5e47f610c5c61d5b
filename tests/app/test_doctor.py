"""``attnmt doctor``: the machine as attnmt sees it, and the kernels it chose for a model."""

import pytest
import torch

from attnmt.checkpoint import load_model_dir
from attnmt.cli.commands.doctor import longest_part_line
from attnmt.cli.main import main
from attnmt.fast import extension
from attnmt.fast.int8 import int8_kernels
from attnmt.hardware import cpu_model
from attnmt.trained_lengths import write_longest_source


def test_doctor_names_the_cpu_the_threads_and_their_wait_policy(capsys):
    assert main(["doctor", "--threads", "1"]) == 0
    out = capsys.readouterr().out
    assert f"cpu: {cpu_model()}" in out
    assert "OMP_WAIT_POLICY=" in out and "OPENBLAS_NUM_THREADS=" in out and "threads:" in out
    assert ("C++ extension: built" if extension.available() else "C++ extension: not built") in out


def test_doctor_names_the_library_it_loaded_the_wheels_or_the_caches(capsys, monkeypatch):
    if not extension.available():
        pytest.skip("no C++ extension here (no compiler, or a PyTorch without oneDNN)")
    library = extension.loaded_library()

    def extension_line() -> str:
        assert main(["doctor", "--threads", "1"]) == 0
        return next(line for line in capsys.readouterr().out.splitlines() if line.startswith("C++ extension:"))

    monkeypatch.setattr(extension, "prebuilt", lambda: None)  # an editable install: no wheel's build
    assert extension_line() == f"C++ extension: built (in attnmt's cache): {library}"
    monkeypatch.setattr(extension, "prebuilt", lambda: library)  # the wheel's, in site-packages: no cache folder
    assert extension_line() == f"C++ extension: built (the wheel's): {library}"


def test_doctor_says_why_the_wheels_build_is_unused(capsys, monkeypatch, tmp_path):
    """A wheel built against another PyTorch than the one installed beside it falls back to a
    build in the cache (or the Python step); doctor said only "not built" or "in attnmt's cache"."""
    import json

    monkeypatch.setattr(extension, "PREBUILT", tmp_path / "prebuilt.json")
    (tmp_path / "prebuilt.json").write_text(json.dumps({"library": "x.so", "torch": "2.2.0", "cpu_flags": []}))
    assert main(["doctor", "--threads", "1"]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("C++ extension:"))
    assert line.endswith(f"; the wheel's own is unused: it was compiled for PyTorch 2.2.0, not {torch.__version__}")
    (tmp_path / "prebuilt.json").write_text(json.dumps({"library": "x.so", "torch": torch.__version__,
                                                        "cpu_flags": ["avx2", "no_such_flag"]}))
    assert extension.prebuilt_unused() == "the wheel's own is unused: this CPU lacks its target's no_such_flag"


def extension_line_without_it(capsys, monkeypatch, tmp_path) -> str:
    """doctor's C++ extension line, in a process where the extension did not load, its cache in tmp_path."""
    monkeypatch.setenv("ATTNMT_CACHE", str(tmp_path))
    monkeypatch.setattr(extension, "available", lambda: False)
    monkeypatch.setattr(extension, "prebuilt", lambda: None)
    assert main(["doctor", "--threads", "1"]) == 0
    return next(line for line in capsys.readouterr().out.splitlines() if line.startswith("C++ extension:"))


def test_doctor_says_a_built_extension_switched_off_is_switched_off_not_unbuilt(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("ATTNMT_CACHE", str(tmp_path))
    library = extension.build_directory() / f"{extension.NAME}.so"
    library.parent.mkdir(parents=True)
    library.write_bytes(b"")
    extension.record_finished(library)
    monkeypatch.setenv("ATTNMT_FUSED", "0")
    assert extension_line_without_it(capsys, monkeypatch, tmp_path) == (
        f"C++ extension: built ({library}), switched off by ATTNMT_FUSED=0 (the Python step runs: slower)")


def test_doctor_names_the_record_of_a_failed_build(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("ATTNMT_CACHE", str(tmp_path))
    failed = extension.build_directory() / extension.FAILED_BUILD
    failed.parent.mkdir(parents=True)
    failed.write_text("/usr/bin/c++ 1 2\nerror: bad compiler\n")
    monkeypatch.delenv("ATTNMT_FUSED", raising=False)
    assert extension_line_without_it(capsys, monkeypatch, tmp_path) == (
        f"C++ extension: not built: its build failed ({failed}); 'attnmt build-ext' tries again "
        "(the Python step runs: slower)")


def test_doctor_says_where_the_cache_is_and_how_much_its_copies_take(capsys, cache):
    cache.mkdir(parents=True)
    (cache / "fp32-" f"{'a' * 32}-{'b' * 16}-chosen-{'c' * 12}-v1.safetensors").write_bytes(b"0" * 2_500_000)
    assert main(["doctor", "--threads", "1"]) == 0
    assert f"cache: {cache.parent}, 1 prepared model copy, 2.5 MB" in capsys.readouterr().out


def test_doctor_says_a_cache_that_is_a_file_is_not_a_folder_and_goes_on(capsys, monkeypatch, tmp_path):
    (tmp_path / "cache").write_text("")
    monkeypatch.setenv("ATTNMT_CACHE", str(tmp_path / "cache"))
    assert main(["doctor", "--threads", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert f"cache: attnmt's cache {tmp_path / 'cache'} ($ATTNMT_CACHE) is not a folder" in lines
    assert any(line.startswith("C++ extension: ") for line in lines)  # the rest of the report follows


def test_doctor_says_whether_device_cuda_has_a_gpu_and_why_not(capsys, monkeypatch):
    from types import SimpleNamespace

    def gpu() -> str:
        assert main(["doctor", "--threads", "1"]) == 0
        return next(line for line in capsys.readouterr().out.splitlines() if line.startswith("gpu: "))

    monkeypatch.setattr(torch.version, "cuda", None)
    assert gpu() == "gpu: none (this PyTorch is built for the CPU only: --device cuda needs a CUDA build of it)"
    monkeypatch.setattr(torch.version, "cuda", "13.0")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert gpu() == "gpu: none visible (PyTorch built for CUDA 13.0)"
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 2)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda i: f"GPU {i}")
    monkeypatch.setattr(torch.cuda, "get_device_properties", lambda i: SimpleNamespace(total_memory=(80 + i) << 30))
    assert gpu() == "gpu: GPU 0 (80 GiB), GPU 1 (81 GiB), CUDA 13.0: --device cuda (train's device auto picks it)"


def test_doctor_says_how_many_threads_it_would_run_on_the_free_cores_and_why(capsys, monkeypatch):
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    assert main(["doctor"]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("threads:"))
    assert "(auto: " in line and "CPUs busy with other processes" in line


def test_a_fixed_count_wins_and_verbose_says_it_on_stderr(capsys):
    assert main(["doctor", "--threads", "1", "--verbose"]) == 0
    out, err = capsys.readouterr()
    assert "threads: 1 (--threads 1)" in out and "attnmt: threads: 1 (--threads 1)" in err


def test_a_negative_thread_count_is_refused(capsys):
    with pytest.raises(SystemExit):
        main(["doctor", "--threads", "-1"])
    assert "--threads: must be at least 0, got -1" in capsys.readouterr().err


def test_doctor_with_a_model_shows_the_kernel_chosen_for_each_step_layer_and_its_timings(trained_model, capsys,
                                                                                       monkeypatch, tmp_path):
    monkeypatch.setenv("ATTNMT_CACHE", str(tmp_path / "cache"))
    threads = torch.get_num_threads()
    try:
        assert main(["doctor", "--model", str(trained_model), "--threads", "1"]) == 0
    finally:
        torch.set_num_threads(threads)
    out = capsys.readouterr().out
    float32, _, int8 = out.partition("int8 decoder-step layers")
    if extension.available() and torch.ops.attnmt.panels_available():
        lines = [line for line in float32.splitlines() if line.startswith("  ") and " × " in line]
        assert len(lines) == 5  # qkv, attention output, ff1, ff2 and output projection
        assert all("onednn" in line and "panels" in line for line in lines)  # both timed
    else:
        assert "no panel kernels" in out
    kernels = int8_kernels()
    if len(kernels) > 1:  # each kernel timed on each shape
        lines = [line for line in int8.splitlines() if line.startswith("  ") and " × " in line]
        assert len(lines) == 5 and all(all(f"{kernel} " in line for kernel in kernels) for line in lines)
    else:
        assert "the only int8 kernel here" in int8


def test_doctor_says_the_float32_kernel_attnmt_float32_kernel_sets_and_that_it_was_not_timed(trained_model, capsys,
                                                                                           monkeypatch, tmp_path):
    monkeypatch.setenv("ATTNMT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("ATTNMT_FLOAT32_KERNEL", "onednn")
    threads = torch.get_num_threads()
    try:
        assert main(["doctor", "--model", str(trained_model), "--threads", "1"]) == 0
    finally:
        torch.set_num_threads(threads)
    float32 = capsys.readouterr().out.partition("int8 decoder-step layers")[0]
    if not (extension.available() and torch.ops.attnmt.panels_available()):
        pytest.skip("no float32 panel kernels here: oneDNN is the only kernel")
    assert "float32 decoder-step layers (out × in), as ATTNMT_FLOAT32_KERNEL=onednn sets them:" in float32
    lines = [line for line in float32.splitlines() if line.startswith("  ") and " × " in line]
    assert len(lines) == 5 and all(line.endswith(": onednn (not timed)") for line in lines)


def test_doctor_refuses_an_attnmt_float32_kernel_it_cannot_take_in_one_line(trained_model, capsys, monkeypatch,
                                                                            tmp_path):
    if not (extension.available() and torch.ops.attnmt.panels_available()):
        pytest.skip("no float32 panel kernels here: the variable has nothing to set")
    monkeypatch.setenv("ATTNMT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("ATTNMT_FLOAT32_KERNEL", "mkl")
    assert main(["doctor", "--model", str(trained_model), "--threads", "1"]) == 2
    err = capsys.readouterr().err
    assert err == "attnmt: error: ATTNMT_FLOAT32_KERNEL='mkl': give panels or onednn, or leave it unset to have " \
                  "the float32 kernels timed on this CPU\n"


def test_doctor_with_a_model_says_the_longest_sentence_it_is_given_whole_and_why(trained_copy, capsys, cache):
    write_longest_source(trained_copy, 14)
    threads = torch.get_num_threads()
    try:
        assert main(["doctor", "--model", str(trained_copy), "--threads", "1"]) == 0
    finally:
        torch.set_num_threads(threads)
    assert "\nlongest part: 14 pieces (lengths.json: the longest training source)\n" in capsys.readouterr().out


@pytest.mark.parametrize(("recorded", "line"), [
    (None, "longest part: 62 pieces (the model's max_positions; no lengths.json)"),  # max_positions 64, less BOS, EOS
    (500, "longest part: 62 pieces (the model's max_positions; lengths.json records 500)"),
])
def test_the_longest_part_is_the_model_s_own_limit_without_a_shorter_record(trained_copy, recorded, line):
    if recorded is not None:
        write_longest_source(trained_copy, recorded)
    assert longest_part_line(load_model_dir(trained_copy)[0]) == line
