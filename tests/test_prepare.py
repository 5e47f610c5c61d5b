"""Prepared corpora: streamed, filtered and counted, written atomically, read from disk, and refused when they do
not match (another tokenizer, another format version, a truncated file, an id past the vocabulary, other corpora)."""

import json
import multiprocessing
import os
import pickle
import signal
import subprocess
import sys
import types
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from support import PAIRS, tmx_text, write_pairs

from attnmt.cli.main import ended_by_signals
from attnmt.errors import ConfigError, DataError
from attnmt.text.data import encode_pairs
from attnmt.text.tokenizer import Tokenizer
from attnmt.train_config import CorpusSpec, TrainConfig
from attnmt.training import tokenize_corpora as prep
from attnmt.training.batching import TokenBatcher
from attnmt.training.corpus import HEADER, ArrayFile, TokenCorpus
from attnmt.training.tokenize_corpora import FilterReport, Filters, open_prepared, tokenize_corpora


@pytest.fixture(scope="module")
def tokenizer() -> Tokenizer:
    return Tokenizer.train([s for pair in PAIRS for s in pair], vocab_size=81)


def config_for(src: Path, tgt: Path, **changes) -> TrainConfig:
    return TrainConfig.from_dict(dict(train_src=str(src), train_tgt=str(tgt), max_len=32, **changes))


def prepared(tmp_path, tokenizer, pairs=PAIRS, workers=1, **changes) -> tuple[Path, TrainConfig]:
    tmp_path.mkdir(exist_ok=True)
    src, tgt = write_pairs(tmp_path, "train", pairs)
    config = config_for(src, tgt, **changes)
    out = tokenize_corpora(config.corpora(), tokenizer, tmp_path / "prepared",
                  Filters.of(config), workers, log=lambda line: None)
    return out, config


def report_of(folder: Path) -> FilterReport:
    return FilterReport(**json.loads((folder / HEADER).read_text())["corpora"][0]["report"])


def test_prepared_pairs_are_the_encoded_pairs_in_corpus_order(tmp_path, tokenizer):
    folder, config = prepared(tmp_path, tokenizer)
    corpus = open_prepared(folder, config, tokenizer, "test", log=lambda line: None)[0]
    expected, _ = encode_pairs(PAIRS, tokenizer, 32)
    assert corpus.examples(range(len(PAIRS))) == expected
    assert isinstance(corpus.src.tokens, ArrayFile) and corpus.src.tokens.dtype == np.uint16


def test_each_filter_is_counted_in_the_report(tmp_path, tokenizer):
    pairs = [*PAIRS, ("a dog runs", "ein hund rennt"),  # a duplicate
             ("a", "ein hund rennt ein hund rennt ein hund rennt ein hund"),  # length ratio
             ("a dog " * 20, "ein hund")]  # over max_len on the source
    src, tgt = write_pairs(tmp_path, "train", pairs)
    src.write_text(src.read_text() + "   \n")  # an empty pair
    tgt.write_text(tgt.read_text() + "der hund\n")
    config = config_for(src, tgt)
    folder = tokenize_corpora(config.corpora(), tokenizer, tmp_path / "out", Filters(32, 3.0), 1, log=lambda line: None)
    assert report_of(folder) == FilterReport(read=24, empty=1, too_long=1, length_ratio=1, duplicates=1, kept=20)
    assert report_of(folder).summary(Filters(32, 3.0)) == (
        "read 24 pairs, kept 20; dropped 1 empty, 0 untranslated, 1 over 32 tokens, 1 over length ratio 3, "
        "1 duplicates")


def test_a_pair_whose_target_is_its_source_is_dropped_and_counted(tmp_path, tokenizer):
    """A web-crawled corpus (ParaCrawl, CCMatrix) has lines left in the source language on both sides: each
    taught the model to copy its input, and the report did not count them.  One that differs only in its
    edge spaces is one too; one that differs in a letter's case is a translation."""
    pairs = [*PAIRS, ("Click here to subscribe.", "Click here to subscribe."),
             ("Berlin, 2019 ", " Berlin, 2019"), ("Berlin", "berlin")]
    src, tgt = write_pairs(tmp_path, "train", pairs)
    folder = tokenize_corpora(config_for(src, tgt).corpora(), tokenizer, tmp_path / "out", Filters(32, 3.0), 1,
                              log=lambda line: None)
    assert report_of(folder) == FilterReport(read=23, untranslated=2, kept=21)
    assert report_of(folder).summary(Filters(32, 3.0)) == (
        "read 23 pairs, kept 21; dropped 0 empty, 2 untranslated, 0 over 32 tokens, 0 over length ratio 3, "
        "0 duplicates")


@pytest.mark.parametrize("header", ['"en"\t"de"', "source\ttarget"])
def test_a_tsv_header_line_is_left_out_and_named_in_the_count_line(tmp_path, tokenizer, header):
    """pandas (quoting=csv.QUOTE_ALL) and spreadsheets head a sheet with its columns' names: that line was
    trained on as a pair."""
    tsv = tmp_path / "corpus.tsv"
    tsv.write_text("".join(f"{line}\n" for line in [header, *(f'"{s}"\t"{t}"' for s, t in PAIRS)]), encoding="utf-8")
    config = TrainConfig.from_dict(dict(train_tsv=str(tsv), max_len=32))
    folder = tokenize_corpora(config.corpora(), tokenizer, tmp_path / "out", Filters(32, 3.0), 1, log=lambda line: None)
    cells = header.replace('"', "").replace("\t", "<TAB>")
    assert report_of(folder) == FilterReport(read=20, kept=20, header=cells)
    assert report_of(folder).summary(Filters(32, 3.0)).startswith(f"read 20 pairs after a header line ({cells}, left "
                                                                  "out), kept 20; ")


def tsv_headed(tmp_path: Path, first: str, **changes) -> TrainConfig:
    """A config training on a tsv of PAIRS whose first line is ``first``, its validation files named in no language
    (so that ``changes`` alone say which languages are translated)."""
    tsv = tmp_path / "corpus.tsv"
    tsv.write_text("".join(f"{s}\t{t}\n" for s, t in [first.split("\t"), *PAIRS]), encoding="utf-8")
    return TrainConfig.from_dict({"train_tsv": str(tsv), "max_len": 32, "valid_src": "dev.src", "valid_tgt": "dev.tgt",
                                  **changes})


@pytest.mark.parametrize("languages", [dict(source_lang="en", target_lang="de"),
                                       dict(valid_src="dev.en", valid_tgt="dev.de")])
def test_a_first_pair_of_two_language_codes_is_kept_where_the_run_names_its_languages(tmp_path, tokenizer, languages):
    """English "no" and German "ja" are Norwegian's and Japanese's codes too: the pair was left out as a header."""
    config = tsv_headed(tmp_path, "no\tja", **languages)
    folder = tokenize_corpora(config.corpora(), tokenizer, tmp_path / "out", Filters(32, 3.0), 1, log=lambda line: None)
    assert report_of(folder) == FilterReport(read=21, kept=21)
    assert config.corpora()[0].source_lang == "en"


def test_a_header_naming_the_runs_languages_in_german_is_left_out(tmp_path, tokenizer):
    """A German user's sheet is headed Englisch<TAB>Deutsch, which was trained on as a pair."""
    config = tsv_headed(tmp_path, "Englisch\tDeutsch", source_lang="en", target_lang="de")
    folder = tokenize_corpora(config.corpora(), tokenizer, tmp_path / "out", Filters(32, 3.0), 1, log=lambda line: None)
    assert report_of(folder) == FilterReport(read=20, kept=20, header="Englisch<TAB>Deutsch")


def test_a_first_line_of_two_codes_is_a_header_where_no_language_is_named(tmp_path, tokenizer):
    config = tsv_headed(tmp_path, "no\tja")
    folder = tokenize_corpora(config.corpora(), tokenizer, tmp_path / "out", Filters(32, 3.0), 1, log=lambda line: None)
    assert report_of(folder) == FilterReport(read=20, kept=20, header="no<TAB>ja")


@pytest.mark.parametrize("header", ["de\ten", "en\tfr", "English\tFrench"])
def test_a_header_naming_other_languages_is_refused_naming_its_line(tmp_path, tokenizer, header):
    """Its pairs were trained de -> en (or en -> fr) in a run meant to translate en -> de, without a word."""
    config = tsv_headed(tmp_path, header, source_lang="en", target_lang="de")
    cells = header.split("\t")
    with pytest.raises(DataError, match=rf"corpus.tsv:1: the header names the columns {cells[0]} -> {cells[1]}, and "
                                        r"the run translates en -> de .*: swap the columns"):
        tokenize_corpora(config.corpora(), tokenizer, tmp_path / "out", Filters(32, 3.0), 1, log=lambda line: None)


def test_a_tmx_memorys_units_without_both_languages_are_counted_in_the_count_line(tmp_path, tokenizer):
    memory = tmp_path / "memory.tmx"
    units = [{"en": s, "de": t} for s, t in PAIRS]
    memory.write_text(tmx_text([*units[:3], {"en": "A horse."}, *units[3:]]), encoding="utf-8")
    config = TrainConfig.from_dict(dict(train_tsv=str(memory), max_len=32))
    folder = tokenize_corpora(config.corpora(), tokenizer, tmp_path / "out", Filters(32, 3.0), 1, log=lambda line: None)
    assert report_of(folder) == FilterReport(read=21, kept=20, unpaired=1, first_unpaired=8, languages="en -> de")
    summary = report_of(folder).summary(Filters(32, 3.0))
    assert summary.startswith("read 21 pairs (en -> de, from a TMX memory), kept 20; ")
    assert summary.endswith("0 duplicates, 1 translation units without both languages (the first: line 8)")


# A spelling corrector's corpus: each noisy line beside its correction, a correct line beside itself.
SPELLING = [("a dgo runs", "a dog runs"), ("a cat sleeps", "a cat sleeps"), ("teh child plays", "the child plays"),
            ("a bird sings", "a bird sings")]


def test_a_corpus_in_one_language_keeps_its_untranslated_pairs_and_says_so(tmp_path, tokenizer):
    """Spelling correction, paraphrase or a copy task trains on one language: a line that needs no change is
    a lesson, and dropping it as untranslated left a corrector that "corrected" every correct sentence.  The
    files' names tell the language (train.noisy.en, train.clean.en); keep_untranslated says it for others."""
    src, tgt = write_pairs(tmp_path, "train", SPELLING)
    src, tgt = src.rename(tmp_path / "train.noisy.en"), tgt.rename(tmp_path / "train.clean.en")
    filters = Filters(32, 3.0)
    folder = tokenize_corpora(config_for(src, tgt).corpora(), tokenizer, tmp_path / "out", filters, 1,
                              log=lambda line: None)
    assert report_of(folder) == FilterReport(read=4, untranslated=2, kept=4, kept_untranslated=True)
    assert report_of(folder).summary(filters) == (
        "read 4 pairs (2 untranslated, kept: one language on both sides), kept 4; dropped 0 empty, 0 over 32 "
        "tokens, 0 over length ratio 3, 0 duplicates")
    tsv = tmp_path / "spelling.tsv"
    tsv.write_text("".join(f"{noisy}\t{clean}\n" for noisy, clean in SPELLING), encoding="utf-8")
    for keep, kept in ((None, 2), (True, 4)):
        config = TrainConfig.from_dict(dict(train_tsv=str(tsv), max_len=32, keep_untranslated=keep))
        out = tokenize_corpora(config.corpora(), tokenizer, tmp_path / f"tsv{keep}", Filters.of(config), 1,
                               log=lambda line: None)
        assert report_of(out).kept == kept


def test_a_directory_that_kept_untranslated_pairs_is_refused_by_a_config_that_drops_them(tmp_path, tokenizer):
    folder, config = prepared(tmp_path, tokenizer, SPELLING, keep_untranslated=True)
    dropping = TrainConfig.from_dict({**config.to_dict(), "keep_untranslated": None})
    with pytest.raises(DataError, match=rf"^{folder} was prepared keeping the untranslated pairs of corpus0, the "
                                        r"config drops them \(keep_untranslated unset, and its files' names say no "
                                        r"one language\): run 'attnmt prepare CONFIG' again$"):
        open_prepared(folder, dropping, tokenizer, "test")
    assert len(open_prepared(folder, config, tokenizer, "test", log=lambda line: None)[0]) == 4


def test_a_pair_with_a_line_over_a_mebibyte_is_counted_apart_from_the_too_long(tmp_path, tokenizer):
    """A document pasted on one line was tokenised whole before max_len dropped it, as "1 over 32 tokens"."""
    src, tgt = write_pairs(tmp_path, "train", [*PAIRS, ("a dog runs " * 200_000, "ein hund rennt")])
    folder = tokenize_corpora(config_for(src, tgt).corpora(), tokenizer, tmp_path / "out", Filters(32, 3.0), 1,
                              log=lambda line: None)
    assert report_of(folder) == FilterReport(read=21, kept=20, long_lines=1)
    assert report_of(folder).summary(Filters(32, 3.0)) == (
        "read 21 pairs, kept 20; dropped 0 empty, 0 untranslated, 0 over 32 tokens, 0 over length ratio 3, "
        "0 duplicates, 1 with a line over 1 MiB (not read)")


def test_tsv_lines_without_exactly_one_tab_are_counted_with_the_first_ones_line(tmp_path, tokenizer):
    lines = [f"{src}\t{tgt}" for src, tgt in PAIRS]
    lines[4:4] = ["a dog\truns\tein hund\trennt", "a dog runs"]  # a tab inside each sentence; none at all
    (tmp_path / "train.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    config = TrainConfig.from_dict(dict(train_tsv=str(tmp_path / "train.tsv"), max_len=32))
    folder = tokenize_corpora(config.corpora(), tokenizer, tmp_path / "out", Filters(32, 3.0), 1, log=lambda line: None)
    assert report_of(folder) == FilterReport(read=22, kept=20, malformed=2, first_malformed=5)
    assert report_of(folder).summary(Filters(32, 3.0)).endswith(
        "0 duplicates, 2 without exactly one tab (the first: line 5)")


def test_a_side_of_invisible_characters_alone_is_dropped_as_empty_whatever_the_length_ratio(tmp_path, tokenizer):
    """A zero-width space, a byte order mark mid-file or a control character shows nothing and encodes to
    no piece, but str.strip() keeps it: such a side was no empty one.  With max_length_ratio 0 the pair
    was kept, training the model to write a sentence for nothing, or nothing for a sentence."""
    blanks = [("\u200b", "ein hund"), ("a dog runs", "\ufeff"), ("\x01 \u200b", "\u2060 ")]
    src, tgt = write_pairs(tmp_path, "train", [*PAIRS, *blanks])
    folder = tokenize_corpora(config_for(src, tgt).corpora(), tokenizer, tmp_path / "out", Filters(32, 0.0), 1,
                              log=lambda line: None)
    assert report_of(folder) == FilterReport(read=23, empty=3, kept=20)


def test_worker_processes_write_the_same_arrays_as_one_process(tmp_path, tokenizer, monkeypatch):
    monkeypatch.setattr(prep, "CHUNK_PAIRS", 3)  # 7 chunks, so that the pool is used
    alone, _ = prepared(tmp_path / "alone", tokenizer, workers=1)
    pooled, _ = prepared(tmp_path / "pooled", tokenizer, workers=2)
    for name in ("src.tokens", "src.starts", "src.lengths", "tgt.tokens", "tgt.starts", "tgt.lengths"):
        assert (alone / "corpus0" / name).read_bytes() == (pooled / "corpus0" / name).read_bytes(), name


def test_spawned_workers_read_the_tokenizer_from_its_files_and_encode_as_one_process(tokenizer):
    """Spawned (macOS, Windows, Python 3.14 on Linux), a worker was sent the pickled tokenizer; it now reads its
    files, and encodes what one process does."""
    chunks = [PAIRS[:7], PAIRS[7:14], PAIRS[14:]]
    alone = list(prep.encoded_chunks(iter(chunks), tokenizer, Filters(32, 0), 1))
    spawn = multiprocessing.get_context("spawn")
    spawned = list(prep.encoded_chunks(iter(chunks), tokenizer, Filters(32, 0), 2, spawn))
    assert [chunk.src_tokens.tolist() + chunk.tgt_tokens.tolist() for chunk in spawned] == [
        chunk.src_tokens.tolist() + chunk.tgt_tokens.tolist() for chunk in alone]


@contextmanager
def failing_after(seconds: int, still: str):
    """Fails the test, saying what it was ``still`` doing, where its block runs longer than ``seconds``: a
    regression fails, not hangs (SIGALRM interrupts a blocked write to a pipe, too)."""
    before = signal.signal(signal.SIGALRM, lambda *_: pytest.fail(f"still {still} after {seconds} s"))
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)


# A script that starts processes outside an ``if __name__ == "__main__":`` guard, as the one preparing the corpora
# did: a spawned worker runs it again before it reads what it was sent, and dies.  It starts them at once, so that
# a worker dies in a fraction of a second rather than after importing attnmt and torch.
UNGUARDED_SCRIPT = """import multiprocessing
multiprocessing.get_context({method!r}).Pool(2)
"""


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_workers_that_die_as_they_start_are_named_in_one_line_not_waited_for(tmp_path, tokenizer, monkeypatch, method):
    """A script without an ``if __name__ == "__main__":`` guard, spawned: each worker runs the script again and
    dies starting its own pool; Pool made another, and the preparation hung for ever.  Spawned, the write of the
    pickled tokenizer, larger than a pipe holds, to a worker that died before reading it never returned."""
    assert len(pickle.dumps(tokenizer)) > 2**16  # a pipe holds 64 KiB on Linux: a pickled one would not fit
    script = tmp_path / "prepare.py"
    script.write_text(UNGUARDED_SCRIPT.format(method=method), encoding="utf-8")
    main = types.ModuleType("__main__")
    main.__file__, main.__spec__ = str(script), None  # what `python prepare.py` makes, which workers run again
    monkeypatch.setitem(sys.modules, "__main__", main)
    context = multiprocessing.get_context(method)
    with failing_after(30, "waiting for workers that died as they started"), pytest.raises(ConfigError) as raised:
        list(prep.encoded_chunks(iter([PAIRS[:10], PAIRS[10:]]), tokenizer, Filters(32, 0), 2, context))
    assert str(raised.value) == prep.DEAD_WORKER


def test_a_worker_killed_at_work_is_named_in_one_line_not_waited_for(tokenizer, monkeypatch):
    """Killed (SIGKILL, as the OOM killer sends it), its chunk never came back: Pool made another worker and the
    preparation waited for ever."""
    monkeypatch.setattr(prep, "encode_chunk", lambda *_: os.kill(os.getpid(), signal.SIGKILL))
    fork = multiprocessing.get_context("fork")
    with failing_after(20, "waiting for a dead worker's chunk"), pytest.raises(
            ConfigError, match=r"^a worker process tokenising the corpora died: it was killed "):
        list(prep.encoded_chunks(iter([PAIRS[:10], PAIRS[10:]]), tokenizer, Filters(32, 0), 2, fork))


def signal_handlers() -> dict[str, str]:
    """This process's handlers of the signals that end a command, by name (a Python function: "stop")."""
    return {number.name: getattr(signal.getsignal(number), "name", "stop")
            for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)}


def test_a_worker_does_not_take_the_commands_signal_handlers(tokenizer):
    """Forked, a worker raised the command's Terminated when its pool ended it (SIGTERM): a traceback."""
    settings = (tokenizer, Filters(32, 0), (True, False))
    with ended_by_signals(), multiprocessing.Pool(1, prep._start_worker, settings) as pool:
        assert signal_handlers()["SIGTERM"] == "stop"  # the command's
        assert pool.apply(signal_handlers) == {"SIGTERM": "SIG_DFL", "SIGHUP": "SIG_DFL", "SIGINT": "SIG_IGN"}


def test_a_preparation_in_workers_under_the_commands_handlers_writes_no_traceback(tmp_path, tokenizer, monkeypatch,
                                                                                   capfd):
    monkeypatch.setattr(prep, "CHUNK_PAIRS", 3)  # 7 chunks, so that the pool is used
    with ended_by_signals():
        prepared(tmp_path, tokenizer, workers=2)
    assert capfd.readouterr().err == ""


KILLED_MID_POOL = """
import os, signal, time
from attnmt.training.tokenize_corpora import EncodingPool
pool = EncodingPool(1)
pool.apply(os.getpid)  # the worker is up
pool.apply_async(time.sleep, (1,))  # its result will find the command gone
time.sleep(0.2)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_workers_of_a_killed_preparation_end_without_a_traceback():
    """``kill -9`` (or the OOM killer) of the command while a worker encoded: each worker printed two
    BrokenPipeError tracebacks when its result found nobody to read it."""
    run = subprocess.run([sys.executable, "-c", KILLED_MID_POOL], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "PYTHONPATH": str(Path(prep.__file__).parents[2])})
    assert run.returncode == -signal.SIGKILL
    assert run.stderr == ""


def test_sides_differing_in_line_count_leave_no_prepared_directory(tmp_path, tokenizer):
    src, tgt = write_pairs(tmp_path, "train", PAIRS)
    tgt.write_text(tgt.read_text() + "ein hund\n")
    with pytest.raises(DataError, match=r"has 20 lines, .*train.tgt has 21"):
        tokenize_corpora(config_for(src, tgt).corpora(), tokenizer, tmp_path / "out", Filters(32, 3.0), 1)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["train.src", "train.tgt"]  # no temporary left


def test_a_missing_corpus_file_is_named_not_the_directory_being_written(tmp_path, tokenizer):
    _, tgt = write_pairs(tmp_path, "train", PAIRS)
    missing = tmp_path / "missing.src"
    with pytest.raises(DataError, match=f"^cannot read {missing}: no such file or directory$"):
        tokenize_corpora(config_for(missing, tgt).corpora(), tokenizer, tmp_path / "out", Filters(32, 3.0), 1)


def test_a_truncated_array_file_is_refused_with_its_name(tmp_path, tokenizer):
    folder, config = prepared(tmp_path, tokenizer)
    tokens = folder / "corpus0" / "tgt.tokens"
    tokens.write_bytes(tokens.read_bytes()[:-2])
    with pytest.raises(DataError, match=r"tgt.tokens: \d+ bytes, the header says \d+ bytes .*attnmt prepare"):
        open_prepared(folder, config, tokenizer, "test")


def test_an_id_past_the_vocabulary_is_refused_with_the_files_name(tmp_path, tokenizer):
    """Only the sizes were checked: the id reached the embedding mid-training, an IndexError traceback."""
    folder, config = prepared(tmp_path, tokenizer)
    tokens = folder / "corpus0" / "src.tokens"
    tokens.write_bytes(b"\xff\x7f" + tokens.read_bytes()[2:])  # uint16 32767, the vocabulary is 0..80
    with pytest.raises(DataError, match=f"^{tokens}: holds id 32767, outside the vocabulary 0..80 .*; run "
                                        "'attnmt prepare CONFIG' again$"):
        open_prepared(folder, config, tokenizer, "test")


def test_another_tokenizer_is_refused(tmp_path, tokenizer):
    folder, config = prepared(tmp_path, tokenizer)
    other = Tokenizer.train([s for pair in PAIRS for s in pair], vocab_size=70)
    with pytest.raises(DataError, match="prepared with another tokenizer"):
        open_prepared(folder, config, other, "other.model")


def test_another_format_version_is_refused(tmp_path, tokenizer):
    folder, config = prepared(tmp_path, tokenizer)
    header = json.loads((folder / HEADER).read_text())
    (folder / HEADER).write_text(json.dumps({**header, "version": 0}))
    with pytest.raises(DataError, match="format version 0, this attnmt reads version 1"):
        open_prepared(folder, config, tokenizer, "test")


def test_a_directory_prepared_from_other_corpora_or_filters_is_refused(tmp_path, tokenizer):
    folder, config = prepared(tmp_path, tokenizer)
    with pytest.raises(DataError, match="max_length_ratio 3.0; the config asks for .* max_length_ratio 2.0"):
        open_prepared(folder, TrainConfig.from_dict({**config.to_dict(), "max_length_ratio": 2}), tokenizer, "t")
    with pytest.raises(DataError, match="was prepared from"):
        tsv = {**config.to_dict(), "train_tsv": "x.tsv", "train_src": TrainConfig.train_src,
               "train_tgt": TrainConfig.train_tgt}  # train_src and train_tgt unset
        open_prepared(folder, TrainConfig.from_dict(tsv), tokenizer, "t")


def test_a_corpus_named_another_way_is_the_same_corpus(tmp_path, tokenizer, monkeypatch):
    folder, config = prepared(tmp_path, tokenizer)
    monkeypatch.chdir(tmp_path)
    spelled = config_for(Path("./train.src"), Path("train.tgt"))
    assert len(open_prepared(folder, spelled, tokenizer, "test", log=lambda line: None)[0]) == len(PAIRS)


def test_a_corpus_changed_under_the_same_name_is_refused(tmp_path, tokenizer):
    folder, config = prepared(tmp_path, tokenizer)
    (tmp_path / "train.tgt").write_text((tmp_path / "train.tgt").read_text().replace("hund", "katze"))
    changed = tmp_path / "train.tgt"
    with pytest.raises(DataError, match=rf"^{changed}: changed since {folder} was prepared from it: run "):
        open_prepared(folder, config, tokenizer, "test")


def test_a_corpus_touched_but_not_changed_still_fits(tmp_path, tokenizer):
    folder, config = prepared(tmp_path, tokenizer)
    os.utime(tmp_path / "train.src", ns=(0, 0))
    assert len(open_prepared(folder, config, tokenizer, "test", log=lambda line: None)[0]) == len(PAIRS)


def test_a_directory_of_an_earlier_release_matches_by_the_paths_as_written(tmp_path, tokenizer):
    folder, config = prepared(tmp_path, tokenizer)
    header = json.loads((folder / HEADER).read_text())
    for entry in header["corpora"]:
        del entry["sources"]  # what an earlier release wrote
    (folder / HEADER).write_text(json.dumps(header))
    assert len(open_prepared(folder, config, tokenizer, "test", log=lambda line: None)[0]) == len(PAIRS)


def test_preparing_again_replaces_a_prepared_directory_but_not_other_data(tmp_path, tokenizer):
    folder, config = prepared(tmp_path, tokenizer)
    again = tokenize_corpora(config.corpora(), tokenizer, folder, Filters(32, 3.0), 1, log=lambda line: None)
    assert report_of(again).kept == 20
    with pytest.raises(ConfigError, match="not a prepared directory"):
        tokenize_corpora(config.corpora(), tokenizer, tmp_path, Filters(32, 3.0), 1)


def test_prepared_batches_equal_those_of_the_encoded_pairs_in_memory(tmp_path, tokenizer):
    folder, config = prepared(tmp_path, tokenizer)
    on_disk = TokenBatcher(open_prepared(folder, config, tokenizer, "t", log=lambda line: None)[0], 60, seed=4)
    in_memory = TokenBatcher(TokenCorpus.from_examples(encode_pairs(PAIRS, tokenizer, 32)[0]), 60, seed=4)
    for _, a, b in zip(range(2 * on_disk.batches_per_epoch()), on_disk, in_memory, strict=False):
        assert a.src.equal(b.src) and a.tgt_in.equal(b.tgt_in) and a.tgt_out.equal(b.tgt_out)


def test_a_train_list_names_corpora_and_old_keys_still_work():
    web = {"tsv": "b.tsv", "name": "web", "valid_src": "v.en", "valid_tgt": "v.de"}
    config = TrainConfig.from_dict({"train": [{"src": "a.en", "tgt": "a.de", "weight": 3}, web]})
    assert [(c.name, c.files(), c.weight) for c in config.corpora()] == [
        ("corpus0", {"src": "a.en", "tgt": "a.de"}, 3.0), ("web", {"tsv": "b.tsv"}, 1.0)]
    assert TrainConfig.from_dict({"train_tsv": "c.tsv"}).corpora() == [  # en, de: the validation files' names
        CorpusSpec(tsv="c.tsv", name="corpus0", source_lang="en", target_lang="de")]


@pytest.mark.parametrize("entry, message", [
    ({"src": "a.en"}, r"train\[0\]: give either src and tgt, or tsv"),
    ({"src": "a.en", "tgt": "a.de", "tsv": "b.tsv"}, "give either src and tgt, or tsv"),
    ({"tsv": "b.tsv", "weight": 0}, "weight must be positive"),
    ({"tsv": "b.tsv", "valid_src": "v.en"}, "both valid_src and valid_tgt"),
    ({"tsv": "b.tsv", "wieght": 2}, "unknown key.*wieght"),
])
def test_a_wrong_corpus_entry_is_named(entry, message):
    with pytest.raises(ConfigError, match=message):
        TrainConfig.from_dict({"train": [entry]})


def test_an_array_file_reads_indices_and_slices_like_the_array_it_holds(tmp_path):
    values = np.arange(10, 30, dtype=np.int64)
    values.tofile(tmp_path / "a.bin")
    array = ArrayFile(tmp_path / "a.bin", np.dtype(np.int64), len(values))
    assert (array[3], array[19], len(array)) == (13, 29, 20)
    assert array[4:7].tolist() == [14, 15, 16] and array.read().tolist() == values.tolist()


def test_the_earlier_function_names_still_work_with_a_warning():
    with pytest.warns(DeprecationWarning, match="prepare is now tokenize_corpora"):
        assert prep.prepare is tokenize_corpora
    with pytest.warns(DeprecationWarning, match="prepare_corpus is now tokenize_corpus"):
        assert prep.prepare_corpus is prep.tokenize_corpus


@pytest.mark.parametrize(("out", "message"), [("afile", r"afile is a file, not a directory: give a new or empty "
                                                       "directory to prepare into"),
                                              ("afile/sub", r"afile/sub: .*afile is a file, not a directory$")])
def test_preparing_into_a_file_is_one_line_before_the_tokenizer_is_trained(tmp_path, monkeypatch, out, message):
    from attnmt.training import training_data

    (tmp_path / "afile").write_text("")
    src, tgt = write_pairs(tmp_path, "train", PAIRS)
    monkeypatch.setattr(training_data, "run_start", lambda *args: pytest.fail("the tokenizer was trained"))
    with pytest.raises(ConfigError, match=message):
        training_data.prepare_config(config_for(src, tgt), tmp_path / out)
