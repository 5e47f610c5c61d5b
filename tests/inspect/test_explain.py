"""`attnmt explain`: the tutorial's worked example, step by step, with numbers a person can check by hand."""

import json

import numpy as np
import pytest

from attnmt.cli.main import main
from attnmt.errors import ConfigError
from attnmt.inspect.explain import TUTORIAL_EXAMPLE, explain, load_example


def block(text: str, title: str) -> str:
    """The printed matrix under the heading that starts with ``title``."""
    start = text.index(title)
    return (text + "\n\n")[start: (text + "\n\n").index("\n\n", start)]


def test_explain_prints_the_tutorials_numbers():
    text = explain()
    # a¹ = (1, 1), a² = (1, 0); q¹ = (1, 2), q² = (1, 1); k¹ = (1, 0), k² = (0, 1)
    assert block(text, "X ").splitlines()[1:] == ["      1.00   1.00", "      1.00   0.00"]
    assert block(text, "Q = X·W_Q (").splitlines()[1:] == ["      1.00   2.00", "      1.00   1.00"]
    assert block(text, "K = X·W_K").splitlines()[1:] == ["      1.00   0.00", "      0.00   1.00"]
    # scaled scores, softmax rows summing to 1, and with V = I the outputs b¹, b²
    assert block(text, "Q·Kᵀ / √d_k").splitlines()[1:] == ["      0.71   1.41", "      0.71   0.71"]
    softmax = block(text, "A = softmax")
    assert "[2, 2]" in softmax and "row sums: 1.00 1.00" in softmax
    assert softmax.splitlines()[1:] == ["      0.33   0.67", "      0.50   0.50"]
    assert block(text, "A·V").splitlines()[1:] == ["      0.33   0.67", "      0.50   0.50"]


def test_multi_head_splits_into_heads_concatenates_and_applies_w_o():
    text = explain(load_example(heads=2))
    assert "2 heads, d_k = 2 / 2 = 1" in text
    # head 0 sees the first column: q = (1, 1), k = (1, 0), so each row is softmax(1, 0) = (0.73, 0.27)
    assert block(text, "A_0 = softmax").splitlines()[1:] == ["      0.73   0.27", "      0.73   0.27"]
    assert block(text, "Q_1").splitlines()[1:] == ["      2.00", "      1.00"]
    assert "Concat(head_0, …)" in text and "W_O  [2, 2]" in text
    assert block(text, "MultiHead(X)").splitlines()[1:] == ["      0.73   0.88", "      0.73   0.73"]


def test_single_head_stops_before_the_multi_head_part():
    assert "Multi-head" not in explain(load_example(heads=1))


def test_causal_mask_hides_the_later_key():
    text = explain(load_example(heads=1, causal=True))
    assert block(text, "Q·Kᵀ / √d_k").splitlines()[1:] == ["      0.71   -inf", "      0.71   0.71"]
    assert block(text, "A = softmax").splitlines()[1:] == ["      1.00   0.00", "      0.50   0.50"]


def test_numbers_wider_than_a_column_stay_apart_in_aligned_columns(tmp_path):
    path = tmp_path / "wide.json"
    eye = [[1, 0], [0, 1]]
    path.write_text(json.dumps({"X": [[1234.5, -999.25], [1, 0]], "Wq": eye, "Wk": eye, "Wv": eye}))
    text = explain(load_example(path))  # "1234.50-999.25" and "2522490.811234.50", before
    assert block(text, "X ").splitlines()[1:] == ["    1234.50 -999.25", "       1.00    0.00"]
    # Q = K = X, so Q·Kᵀ = X·Xᵀ: 1234.5² + 999.25² = 2522490.8125 and 1234.5 · 1 = 1234.5
    assert block(text, "Q·Kᵀ (").splitlines()[1:] == ["    2522490.81    1234.50", "       1234.50       1.00"]


def test_a_huge_finite_number_prints_in_four_significant_digits(tmp_path):
    path = tmp_path / "huge.json"
    tiny = [[1e-100, 0], [0, 1]]  # q¹ = k¹ = (1e100, 1): Q·Kᵀ stays finite
    path.write_text(json.dumps({"X": [[1e200, 1], [-1234567890.5, 0]], "Wq": tiny, "Wk": tiny, "Wv": tiny}))
    text = explain(load_example(path))  # 1e200 printed as 201 digits, before
    assert block(text, "X ").splitlines()[1:] == ["        1e+200       1.00", "    -1.235e+09       0.00"]
    assert block(text, "Q = X·W_Q (").splitlines()[1:] == ["    1e+100   1.00", "     -0.00   0.00"]


def test_matrices_from_a_json_or_npz_file_give_the_same_steps(tmp_path):
    values = {**TUTORIAL_EXAMPLE, "mask": [[1, 0], [1, 1]]}
    (tmp_path / "example.json").write_text(json.dumps(values), encoding="utf-8")
    np.savez(tmp_path / "example.npz", **{key: np.array(value) for key, value in values.items()})
    from_json = explain(load_example(tmp_path / "example.json"))
    assert from_json == explain(load_example(tmp_path / "example.npz"))
    assert from_json == explain(load_example(causal=True))


def test_a_matrix_of_the_wrong_shape_is_named(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**TUTORIAL_EXAMPLE, "Wk": [[1, 0, 0], [0, 1, 0]]}), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"bad.json: Wk has shape \[2, 3\], expected \[2, 2\]"):
        load_example(path)


@pytest.mark.parametrize("heads", ["x", 0, 1.5, True])
def test_a_head_count_that_is_no_whole_number_is_named(tmp_path, heads):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**TUTORIAL_EXAMPLE, "heads": heads}), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"bad.json: heads must be a whole number of 1 or more, got "):
        load_example(path)


EYE4 = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
NARROW = {"X": [[1, 0, 0, 0], [0, 1, 0, 0]], "Wq": EYE4, "Wk": EYE4, "Wv": [[1, 0], [0, 1], [1, 0], [0, 1]], "heads": 2}


@pytest.mark.parametrize(("extra", "message"), [
    ({}, r"give Wo, 2 × 4 \(Wv's columns × X's\)"),  # a traceback from the module, before
    ({"Wo": [[1, 0, 0], [0, 1, 0]]}, r"Wo has shape \[2, 3\], expected \[2, 4\]"),
    ({"mask": [[1, 2], [0, 1]]}, "mask holds values other than 0 and 1"),
])
def test_a_w_o_that_cannot_map_the_heads_back_or_a_mask_not_of_0_and_1_is_named(tmp_path, extra, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**NARROW, **extra}))
    with pytest.raises(ConfigError, match="bad.json: " + message):
        load_example(path)


@pytest.mark.parametrize(("name", "extra", "key"), [
    ("typo.json", {"Mask": "causal", "Heads": 2}, "Mask"),  # both were ignored: one head, no mask
    ("typo.npz", {"heads": 1, "mask_": "causal"}, "mask_"),
])
def test_an_unknown_key_is_named_with_the_keys_there_are(tmp_path, capsys, name, extra, key):
    path = tmp_path / name
    values = {**TUTORIAL_EXAMPLE, **extra}
    if name.endswith(".npz"):
        np.savez(path, **{k: np.array(value) for k, value in values.items()})
    else:
        path.write_text(json.dumps(values), encoding="utf-8")
    assert main(["explain", str(path)]) == 2
    assert capsys.readouterr().err == f"attnmt: error: {path}: unknown key {key!r}; the keys are X, Wq, Wk, Wv, " \
                                      "Wo, heads, mask (names are case-sensitive)\n"


def test_values_narrower_than_the_input_explain_with_a_w_o_back_to_d_model(tmp_path):
    path = tmp_path / "narrow.json"
    path.write_text(json.dumps({**NARROW, "Wo": [[1, 0, 0, 0], [0, 1, 0, 0]]}))
    assert "== Multi-head attention: 2 heads" in explain(load_example(path))


def test_explain_command_prints_the_steps_and_reports_a_bad_file(tmp_path, capsys):
    assert main(["explain"]) == 0
    assert "0.71   1.41" in capsys.readouterr().out
    (tmp_path / "m.json").write_text('{"X": [[1]]}', encoding="utf-8")
    assert main(["explain", str(tmp_path / "m.json")]) == 2
    assert "missing key 'Wq'" in capsys.readouterr().err


def object_array_npz(path) -> None:
    np.savez(path, X=np.array([[1], "a"], dtype=object))  # readable only by unpickling


@pytest.mark.parametrize("write", [
    lambda path: path.write_bytes(b"notjson\n"),  # numpy said "contains pickled (object) data"
    lambda path: path.write_bytes(bytes(range(100))),
    lambda path: path.write_bytes(b"PK\x03\x04garbage"),  # a traceback of zipfile.BadZipFile
    lambda path: np.save(path.with_suffix(".npy"), np.eye(2)) or path.with_suffix(".npy").rename(path),
    object_array_npz,
], ids=["text", "random bytes", "a zip header alone", "a .npy file", "an object array"])
def test_a_file_named_npz_that_holds_no_arrays_of_numbers_is_one_line_naming_it(tmp_path, capsys, write):
    path = tmp_path / "bad.npz"
    write(path)
    assert main(["explain", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"attnmt: error: {path}: not a NumPy .npz file of number arrays; write one with " \
                  "numpy.savez(path, X=…, Wq=…, …) or give a JSON file\n"


def test_an_npz_file_named_in_capitals_is_read_as_npz(tmp_path):
    np.savez(tmp_path / "example.npz", **{key: np.array(value) for key, value in TUTORIAL_EXAMPLE.items()})
    (tmp_path / "example.npz").rename(tmp_path / "EXAMPLE.NPZ")  # refused as "not valid JSON", before
    assert explain(load_example(tmp_path / "EXAMPLE.NPZ")) == explain()


ONE_HEAD = {"X": [[1, 0], [0, 1]], "Wq": [[1, 0], [0, 1]], "Wk": [[1, 0], [0, 1]], "Wv": [[1, 0, 0], [0, 1, 0]],
            "heads": 1}


def test_one_head_with_a_w_o_maps_its_outputs_back_to_d_model(tmp_path):
    path = tmp_path / "one.json"
    path.write_text(json.dumps({**ONE_HEAD, "Wo": [[1, 0], [0, 1], [1, 1]]}))
    text = explain(load_example(path))  # stopped at A·V [2, 3], before
    # A = softmax(I / √2) by row: (0.67, 0.33), (0.33, 0.67); V = X·Wv puts them in V's first two of 3 columns
    assert block(text, "A·V").splitlines()[1:] == ["      0.67   0.33   0.00", "      0.33   0.67   0.00"]
    assert "W_O  [3, 2]" in text and "Multi-head" not in text
    assert block(text, "MultiHead(X) = (A·V)·W_O  [2, 2]").splitlines()[1:] == ["      0.67   0.33",
                                                                                "      0.33   0.67"]


def test_one_head_without_a_w_o_stops_at_its_outputs(tmp_path):
    path = tmp_path / "one.json"
    path.write_text(json.dumps(ONE_HEAD))
    text = explain(load_example(path))
    assert text.rstrip().endswith("A·V (outputs b^i)  [2, 3]\n      0.67   0.33   0.00\n      0.33   0.67   0.00")


def test_a_w_o_of_one_head_is_checked_against_d_model(tmp_path):
    path = tmp_path / "one.json"
    path.write_text(json.dumps({**ONE_HEAD, "Wo": [[1], [1], [1]]}))  # accepted and left unused, before
    with pytest.raises(ConfigError, match=r"one.json: Wo has shape \[3, 1\], expected \[3, 2\]"):
        load_example(path)


@pytest.mark.parametrize("key, value", [("X", "[[NaN, 1], [1, 0]]"), ("X", "[[Infinity, 1], [1, 0]]"),
                                        ("Wq", "[[1e999, 0], [0, 1]]"), ("mask", "[[1, NaN], [1, 1]]")])
def test_a_value_that_is_not_a_finite_number_is_one_line_naming_its_key(tmp_path, capsys, key, value):
    matrices = {name: "[[1, 0], [0, 1]]" for name in ("X", "Wq", "Wk", "Wv", "Wo")}
    path = tmp_path / "e.json"
    path.write_text("{" + ", ".join(f'"{name}": {text}' for name, text in {**matrices, key: value}.items()) + "}")
    assert main(["explain", str(path)]) == 2  # an AssertionError traceback (assert_close), exit 1, before
    assert capsys.readouterr().err == f"attnmt: error: {path}: {key} holds a value that is not a finite number " \
                                      "(NaN, Infinity, or beyond ±1.8e308); give finite numbers\n"


@pytest.mark.parametrize("values, step, keys", [
    ({"X": [[1e200, 1], [1, 0]]}, "Q·Kᵀ", "X, Wq and Wk"),  # q¹·k¹ = 1e200 · 1e200
    ({"Wq": [[1e200, 0], [0, 1]], "Wk": [[1e200, 0], [0, 1]], "heads": 2}, "Q·Kᵀ", "X, Wq and Wk"),
    ({"Wv": [[1e200, 0], [0, 1]], "Wo": [[1e200, 0], [0, 1]]}, "(A·V)·W_O", "X, Wv and Wo"),
    ({"Wv": [[1e200, 0], [0, 1]], "Wo": [[1e200, 0], [0, 1]], "heads": 2}, "Concat(…)·W_O", "X, Wv and Wo"),
], ids=["scores", "a head's scores", "one head's W_O", "the heads' W_O"])
def test_finite_values_whose_products_overflow_are_one_line_naming_the_step(tmp_path, capsys, values, step, keys):
    identity = [[1, 0], [0, 1]]
    path = tmp_path / "e.json"
    path.write_text(json.dumps({"X": [[1, 1], [1, 0]], "Wq": identity, "Wk": identity, "Wv": identity,
                                "Wo": identity, **values}))
    assert main(["explain", str(path)]) == 2  # a traceback, or infinities printed, before
    assert capsys.readouterr().err == f"attnmt: error: {path}: {step} overflows (a number beyond ±1.8e308); " \
                                      f"give {keys} smaller values\n"


def test_a_folder_is_named_as_a_folder(tmp_path, capsys):
    assert main(["explain", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"attnmt: error: {tmp_path}: is a folder; give a JSON or NumPy .npz file " \
                                      "with X, Wq, Wk, Wv\n"  # "no such file", before


def test_a_json_file_that_starts_with_a_byte_order_mark_is_read(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(TUTORIAL_EXAMPLE).encode())  # "Unexpected UTF-8 BOM", before
    assert explain(load_example(path)) == explain()
