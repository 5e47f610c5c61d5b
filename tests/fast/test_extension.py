"""Loading the C++ extension (attnmt.fast.extension): the wheel's build where it fits this PyTorch and
CPU, the cache's otherwise, and the private PyTorch operators it calls checked as it loads."""

import json
import re
import shutil
import warnings

import pytest
import torch

from attnmt.fast import extension, prepare
from attnmt.fast.packed import packing_available
from attnmt.fast.sources import CSRC, NAME
from attnmt.model import Transformer, TransformerConfig

needs_a_compiler = pytest.mark.skipif(not packing_available() or shutil.which("c++") is None,
                                      reason="no C++ compiler to build the extension, or a PyTorch without oneDNN")


def small_model() -> Transformer:
    torch.manual_seed(0)
    return Transformer(TransformerConfig(vocab_size=40, d_model=16, n_heads=2, encoder_layers=1, decoder_layers=1,
                                         d_ff=32, dropout=0.0, max_positions=32)).eval()


def write_record(folder, **fields) -> None:
    record = {"library": f"{NAME}.so", "torch": torch.__version__, "cpu_flags": []} | fields
    (folder / "prebuilt.json").write_text(json.dumps(record))


def test_every_private_operator_the_cpp_code_looks_up_is_checked():
    looked_up = set()
    for source in CSRC.glob("*.cpp"):
        for name, overload in re.findall(r'findSchemaOrThrow\("([^"]+)", "([^"]*)"\)', source.read_text()):
            looked_up.add(f"{name}.{overload}" if overload else name)
    assert looked_up == set(extension.PRIVATE_OPERATORS)


def test_this_pytorch_has_the_private_operators_with_the_types_the_step_calls():
    extension.check_operators()  # raises otherwise


def test_a_renamed_private_operator_sends_available_to_the_python_step(monkeypatch):
    monkeypatch.setattr(extension, "_state", {})
    monkeypatch.setattr(extension, "PRIVATE_OPERATORS",
                        {"mkldnn::_linear_pointwise_v2": "(Tensor) -> Tensor", **extension.PRIVATE_OPERATORS})
    with pytest.warns(UserWarning, match="has no operator mkldnn::_linear_pointwise_v2, which the C\\+\\+ step calls"):
        assert not extension.available()
    assert extension.loaded_library() is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert prepare(small_model()).step is None


def test_a_private_operator_with_other_argument_types_is_refused_naming_both():
    changed = {"quantized::linear_dynamic": "(Tensor, Tensor) -> Tensor"}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(extension, "PRIVATE_OPERATORS", changed)
        with pytest.raises(RuntimeError, match=r"quantized::linear_dynamic is \(Tensor, __torch__.*bool\) -> Tensor; "
                                               r"the C\+\+ step calls it as \(Tensor, Tensor\) -> Tensor"):
            extension.check_operators()


def test_the_wheels_build_serves_the_pytorch_it_was_built_for(monkeypatch, tmp_path):
    monkeypatch.setattr(extension, "PREBUILT", tmp_path / "prebuilt.json")
    assert extension.prebuilt() is None  # installed without it (an editable install, an sdist)
    write_record(tmp_path)
    assert extension.prebuilt() == tmp_path / f"{NAME}.so"
    write_record(tmp_path, torch="2.2.0")
    assert extension.prebuilt() is None  # another PyTorch: the cache's build, compiled at first use


def test_the_wheels_build_is_left_alone_on_a_cpu_without_its_target(monkeypatch, tmp_path):
    monkeypatch.setattr(extension, "PREBUILT", tmp_path / "prebuilt.json")
    monkeypatch.setattr(extension, "cpu_flags", lambda: {"sse4_2", "avx", "fma", "f16c"})
    write_record(tmp_path, cpu_flags=["avx2", "fma", "f16c"])
    assert extension.prebuilt() is None
    write_record(tmp_path, cpu_flags=["avx", "fma"])
    assert extension.prebuilt() == tmp_path / f"{NAME}.so"


@needs_a_compiler
def test_a_fitting_wheel_build_is_loaded_without_compiling(monkeypatch, tmp_path):
    built = extension.build_directory() / f"{NAME}.so"
    if not built.exists():
        extension.load()
    # The wheel's file is the cache's here (a link: the same library, which registers its operators once).
    (tmp_path / f"{NAME}.so").symlink_to(built)
    write_record(tmp_path)
    monkeypatch.setattr(extension, "_state", {})
    monkeypatch.setattr(extension, "PREBUILT", tmp_path / "prebuilt.json")

    def no_compiler(folder):
        raise OSError("c++: not found")

    monkeypatch.setattr(extension, "_build", no_compiler)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert extension.available()
    assert extension.loaded_library() == tmp_path / f"{NAME}.so"
    assert prepare(small_model()).step is not None
