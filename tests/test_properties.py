"""Property-based tests: arbitrary Unicode, control characters, long and empty lines never crash
the tokenizer, the data reader or translate, and always keep one output line per input line."""

import io
import warnings

import pytest
import torch
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from attnmt import checkpoint as ckpt
from attnmt.cli.main import main
from attnmt.decoding import Decoding
from attnmt.decoding.translate import translate
from attnmt.errors import DataError
from attnmt.model import Transformer, TransformerConfig
from attnmt.text import tokenizer_files
from attnmt.text.data import read_lines
from attnmt.text.encodings import HEAD_BYTES, utf16_without_bom
from attnmt.text.parallel_text import read_parallel
from attnmt.text.tokenizer import Tokenizer

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
# Any code point but the line break itself (and lone surrogates, which UTF-8 cannot encode).
LINE = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n"), max_size=300)


@pytest.fixture(scope="module")
def tokenizer() -> Tokenizer:
    return Tokenizer.train(["a dog runs", "ein hund rennt", "zwei katzen schlafen", "two cats sleep"] * 3,
                           vocab_size=31)


@pytest.fixture(scope="module")
def model(tokenizer) -> Transformer:
    torch.manual_seed(0)
    config = TransformerConfig(vocab_size=tokenizer.vocab_size, d_model=16, n_heads=2, encoder_layers=1,
                               decoder_layers=1, d_ff=32, dropout=0.0, max_positions=48)
    return Transformer(config).eval()


@SETTINGS
@given(text=st.text(st.characters(blacklist_categories=("Cs",)), max_size=500))
def test_tokenizer_never_crashes_and_ids_stay_in_the_vocabulary(tokenizer, text):
    ids = tokenizer.encode(text)
    assert all(0 <= i < tokenizer.vocab_size for i in ids)
    assert isinstance(tokenizer.decode(ids), str)


@SETTINGS
@given(lines=st.lists(LINE, max_size=20))
def test_reader_gives_back_every_line(tmp_path, lines):
    data = "".join(line + "\n" for line in lines).encode("utf-8")
    assume(utf16_without_bom(data[:HEAD_BYTES]) is None)  # refused, naming UTF-16 (test_data.py)
    path = tmp_path / "lines.txt"
    path.write_bytes(data)
    assert read_lines(path) == [line.removesuffix("\r") for line in lines]


@SETTINGS
@given(pairs=st.lists(st.tuples(LINE, LINE), max_size=20))
def test_parallel_reader_keeps_or_counts_every_pair(tmp_path, pairs):
    src, tgt = tmp_path / "a.txt", tmp_path / "b.txt"
    src.write_bytes("".join(s + "\n" for s, _ in pairs).encode("utf-8"))
    tgt.write_bytes("".join(t + "\n" for _, t in pairs).encode("utf-8"))
    assume(all(utf16_without_bom(path.read_bytes()[:HEAD_BYTES]) is None for path in (src, tgt)))  # ("\nA\0\n")
    kept, report = read_parallel(src, tgt)
    assert len(kept) + report.skipped_empty == len(pairs)


@SETTINGS
@given(data=st.binary(max_size=200))
def test_arbitrary_bytes_are_lines_or_a_data_error(tmp_path, data):
    path = tmp_path / "bytes.txt"
    path.write_bytes(data)
    try:
        read_lines(path)
    except DataError as error:
        assert str(error).startswith(f"{path}:")


@settings(max_examples=25, deadline=None)
@given(lines=st.lists(st.one_of(LINE, st.just(""), st.text(min_size=500, max_size=2000)), max_size=8))
def test_translate_gives_one_line_per_input_line(model, tokenizer, lines):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # over-long lines are truncated with a warning
        outputs = translate(model, tokenizer, lines, Decoding(beam_size=2, max_len_a=0.0, max_len_b=3))
    assert len(outputs) == len(lines)
    assert all(out == "" for line, out in zip(lines, outputs, strict=True) if not line.strip())


def test_empty_files_read_as_no_pairs(tmp_path):
    (tmp_path / "a").write_bytes(b"")
    (tmp_path / "b").write_bytes(b"")
    assert read_parallel(tmp_path / "a", tmp_path / "b")[0] == []


def test_translate_of_nothing_is_nothing(model, tokenizer):
    assert translate(model, tokenizer, []) == []


def test_stdin_lines_split_only_at_newlines(tmp_path, capsys, monkeypatch, model, tokenizer):
    ckpt.save_model_config(model.config, tmp_path)
    ckpt.save_weights(model, tmp_path / ckpt.WEIGHTS)
    tokenizer.save(tmp_path / tokenizer_files.TOKENIZER)
    text = "a dog runs\u2028still line one\x0bdoes not break\n\nline\x1cthree\n"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    assert main(["translate", "--model", str(tmp_path), "--beam", "1"]) == 0
    assert capsys.readouterr().out.count("\n") == 3
