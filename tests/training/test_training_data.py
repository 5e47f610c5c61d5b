"""A run's validation sets: read and checked before any slow work, and scored on the same pairs by the
loss and by BLEU, the pairs left out counted; its corpora's batches for each process."""

from pathlib import Path

import pytest
from support import PAIRS, tiny_config, write_pairs

from attnmt.decoding import calibration
from attnmt.errors import ConfigError, DataError
from attnmt.text.data import Example
from attnmt.text.tokenizer import Tokenizer
from attnmt.train_config import CorpusSpec, TrainConfig
from attnmt.training import trainer as trainer_module
from attnmt.training.corpus import TokenCorpus
from attnmt.training.trainer import Trainer
from attnmt.training.training_data import TrainingData, load_training_data, read_validation_text, scored_pairs

SMALL = dict(eval_metric="loss", max_tokens=120, max_steps=1, eval_every=1,
             model=dict(d_model=32, n_heads=4, encoder_layers=1, decoder_layers=1, d_ff=64, max_positions=64))


def no_work(*args, **kwargs):
    raise AssertionError("the run trained its tokenizer before reading its validation set")


def refusal(tmp_path: Path, monkeypatch, **changes) -> str:
    """The one line a new run's Trainer is refused with, before it starts its tokenizer."""
    config = tiny_config(tmp_path, **SMALL, **changes)
    monkeypatch.setattr(trainer_module, "run_start", no_work)
    with pytest.raises(DataError) as refused:
        Trainer(config, progress=False)
    return str(refused.value)


def test_a_missing_validation_file_is_refused_naming_its_key_before_the_tokenizer(tmp_path, monkeypatch):
    """It was "cannot read nosuch.en: no such file or directory", no key named, after the tokenizer was
    trained and every corpus prepared."""
    write_pairs(tmp_path, "va", PAIRS[:4])
    assert refusal(tmp_path, monkeypatch, valid_src="nosuch.en", valid_tgt=str(tmp_path / "va.tgt")) == (
        "valid_src: cannot read nosuch.en: no such file or directory")


def test_misaligned_validation_files_are_refused_with_both_line_counts(tmp_path, monkeypatch):
    src, _ = write_pairs(tmp_path, "va", PAIRS[:5])
    _, tgt = write_pairs(tmp_path, "short", PAIRS[:4])
    assert refusal(tmp_path, monkeypatch, valid_src=str(src), valid_tgt=str(tgt)) == (
        f"valid_src, valid_tgt: parallel files differ in length: {src} has 5 lines, {tgt} has 4; line i of one "
        "must translate line i of the other")


def test_a_blank_last_line_in_one_validation_file_is_no_mismatch(tmp_path):
    """It was "valid_src, valid_tgt: parallel files differ in length: va.src has 4 lines, va.tgt has 3"."""
    src, tgt = write_pairs(tmp_path, "va", PAIRS[:3])
    src.write_text(src.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    text = read_validation_text(str(src), str(tgt))
    assert (text.pairs, text.lines) == (PAIRS[:3], 4)


def test_a_validation_file_not_in_utf8_is_refused_naming_its_key_and_line(tmp_path, monkeypatch):
    src, tgt = write_pairs(tmp_path, "va", PAIRS[:3])
    tgt.write_bytes(b"ein hund\nK\xf6nig\ndas kind\n")  # Latin-1
    assert refusal(tmp_path, monkeypatch, valid_src=str(src), valid_tgt=str(tgt)) == (
        f"valid_tgt: {tgt}:2: invalid UTF-8 (byte 0xf6); convert the file to UTF-8, e.g. with iconv -f WINDOWS-1252 "
        '-t UTF-8, if "König" is what the line says (read as Windows-1252, Latin-1)')


def test_a_validation_file_whose_lines_end_in_cr_alone_is_read_line_by_line(tmp_path):
    """Read at LF alone it was one line against the other file's three: refused as of different lengths."""
    src, tgt = write_pairs(tmp_path, "va", PAIRS[:3])
    src.write_bytes(src.read_bytes().replace(b"\n", b"\r"))
    text = read_validation_text(str(src), str(tgt))
    assert text.pairs == PAIRS[:3]


def test_a_corpus_validation_file_is_named_by_its_place_in_the_train_list(tmp_path, monkeypatch):
    src, tgt = write_pairs(tmp_path, "train", PAIRS)
    corpus = {"src": str(src), "tgt": str(tgt), "valid_src": str(src), "valid_tgt": "nosuch.de"}
    assert refusal(tmp_path, monkeypatch, train=[corpus]) == (
        "train[0].valid_tgt: cannot read nosuch.de: no such file or directory")


def test_a_default_validation_set_that_is_not_there_is_named_as_the_default(tmp_path, monkeypatch):
    """Left unset, valid_src was read as data/multi30k/val.en.gz, a file the user never named, outside the
    attnmt repository: "cannot read data/multi30k/val.en.gz"."""
    monkeypatch.chdir(tmp_path)
    assert refusal(tmp_path, monkeypatch, valid_src=TrainConfig.valid_src, valid_tgt=TrainConfig.valid_tgt) == (
        "valid_src is left at its default, Multi30k's data/multi30k/val.en.gz from the attnmt repository, which "
        "cannot be used here (cannot read data/multi30k/val.en.gz: no such file or directory); give your validation "
        "set in valid_src and valid_tgt")


def test_pairs_left_out_of_validation_are_counted_and_left_out_of_both_the_loss_and_bleu(tmp_path):
    """A pair over max_len was left out of the loss's batches but translated for BLEU, and neither
    it nor a pair with an empty side was counted anywhere."""
    long = " ".join(["a dog runs"] * 12)  # 36 words: over max_len 32
    src, tgt = write_pairs(tmp_path, "va", [*PAIRS[:3], ("", "ein hund"), (long, "ein hund rennt"), PAIRS[3]])
    config = tiny_config(tmp_path, **SMALL, valid_src=str(src), valid_tgt=str(tgt))
    trainer = Trainer(config, progress=False)
    assert trainer.valid_pairs == [*PAIRS[:4]]
    assert sum(len(batch) for batch in trainer.valid_batches) == 4
    trainer.train()
    log = Path(config.out_dir, "train.log").read_text()
    assert f"validation set {src}, {tgt}: 4 of 6 pairs scored (1 with an empty side, 1 longer than max_len 32)\n" in log


class WordTokenizer:
    """Stands in for Tokenizer: one id (7) per whitespace-separated word."""

    def encode_batch(self, texts):
        return [[7] * len(text.split()) for text in texts]

    encode_target_batch = encode_batch


def test_a_validation_line_over_a_mebibyte_is_counted_as_longer_than_max_len_not_as_empty(tmp_path):
    """Left unread (attnmt.text.long_lines), it reads as an empty line: it was counted "with an empty side"."""
    src, tgt = write_pairs(tmp_path, "va", [PAIRS[0], ("a dog " * 200_000, "ein hund"), ("", "ein hund")])
    lines = []
    pairs, _ = scored_pairs(read_validation_text(str(src), str(tgt)), WordTokenizer(), 32, lines.append)
    assert pairs == [PAIRS[0]]
    assert lines == [f"validation set {src}, {tgt}: 1 of 3 pairs scored (1 with an empty side, 1 longer than max_len "
                     "32)"]


def test_the_calibration_at_the_end_of_a_run_fits_on_the_pairs_its_validation_scored(tmp_path, monkeypatch):
    """The calibration at the end of a run read the validation files again, every line: it translated a
    pair over max_len that the run's loss and BLEU leave out."""
    long = " ".join(["a dog runs"] * 12)  # 36 words: over max_len 32
    src, tgt = write_pairs(tmp_path, "va", [*PAIRS[:3], (long, "ein hund rennt"), PAIRS[3]])
    fitted = []

    def too_few(model, tokenizer, model_dir, sources, references, *rest, **options):
        fitted.append((list(sources), list(references)))
        raise DataError("too few sentences")

    monkeypatch.setattr(calibration, "calibrate", too_few)
    Trainer(tiny_config(tmp_path, **SMALL, valid_src=str(src), valid_tgt=str(tgt)), progress=False).train()
    assert fitted == [([s for s, _ in PAIRS[:4]], [t for _, t in PAIRS[:4]])]


def test_a_validation_set_that_keeps_every_pair_logs_no_count(tmp_path):
    src, tgt = write_pairs(tmp_path, "va", PAIRS[:4])
    config = tiny_config(tmp_path, **SMALL, valid_src=str(src), valid_tgt=str(tgt))
    Trainer(config, progress=False).train()
    assert "pairs scored" not in Path(config.out_dir, "train.log").read_text()


def test_a_corpus_cut_into_fewer_batches_than_processes_is_one_line_naming_max_tokens_and_the_corpus(tmp_path):
    """Under torchrun, 2 processes on a corpus that max_tokens cuts into 1 batch ended each rank in a
    traceback, "ValueError: only 1 batches of 100000 tokens for 2 ranks", after the corpora were prepared."""
    config = tiny_config(tmp_path, **{**SMALL, "max_tokens": 100_000})
    pairs = [Example([5, 6], [7, 8]) for _ in range(3)]
    small = CorpusSpec(src="a.en", tgt="a.de", name="news")
    data = TrainingData(None, [small], [TokenCorpus.from_examples(pairs)])
    with pytest.raises(ConfigError) as refused:
        data.batcher(config, 1, 2, (0, 1, 2))
    assert str(refused.value) == (
        "news: max_tokens=100000 cuts its 3 training pairs into 1 batch, fewer than the 2 processes training (each "
        "takes batches of its own): lower max_tokens, or start fewer processes")


@pytest.mark.parametrize(("rows", "says"), [
    (lambda src, tgt: f"{src}\t\n", "of 20 pairs read, 20 with an empty side"),
    (lambda src, tgt: f"{src}\t{src}\n", "of 20 pairs read, 20 untranslated (source = target; keep_untranslated: "
                                         "true keeps them, for a corpus in one language)")])
def test_a_corpus_filtered_to_nothing_says_which_filter_dropped_its_pairs(tmp_path, rows, says):
    """A sheet saved before its target column was filled in was "no training pairs left after filtering: check
    sheet.tsv, max_len and max_length_ratio", which sent the user to the lengths."""
    tsv = tmp_path / "sheet.tsv"
    tsv.write_text("".join(rows(src, tgt) for src, tgt in PAIRS), encoding="utf-8")
    config = tiny_config(tmp_path, train_tsv=str(tsv))
    tokenizer = Tokenizer.train([s for pair in PAIRS for s in pair], vocab_size=81)
    with pytest.raises(ConfigError) as refused:
        load_training_data(config, tokenizer, log=lambda line: None)
    assert str(refused.value) == f"corpus0: no training pairs left after filtering {tsv}: {says}"
