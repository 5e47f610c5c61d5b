"""``attnmt doctor``: the machine as attnmt sees it, and the kernels it chose for a model."""

import torch

from attnmt.cli.main import main
from attnmt.fast import extension
from attnmt.hardware import cpu_model


def test_doctor_names_the_cpu_the_threads_and_their_wait_policy(capsys):
    assert main(["doctor", "--threads", "1"]) == 0
    out = capsys.readouterr().out
    assert f"cpu: {cpu_model()}" in out
    assert "OMP_WAIT_POLICY=" in out and "threads:" in out
    assert ("C++ extension: built" if extension.available() else "C++ extension: not built") in out


def test_doctor_with_a_model_shows_the_kernel_chosen_for_each_step_layer_and_its_timings(trained_model, capsys,
                                                                                       monkeypatch, tmp_path):
    monkeypatch.setenv("ATTNMT_CACHE", str(tmp_path / "cache"))
    threads = torch.get_num_threads()
    try:
        assert main(["doctor", "--model", str(trained_model), "--threads", "1"]) == 0
    finally:
        torch.set_num_threads(threads)
    out = capsys.readouterr().out
    if extension.available() and torch.ops.attnmt.panels_available():
        lines = [line for line in out.splitlines() if line.startswith("  ") and " × " in line]
        assert len(lines) == 5  # qkv, attention output, ff1, ff2 and output projection
        assert all("onednn" in line and "panels" in line for line in lines)  # both timed
    else:
        assert "no panel kernels" in out
