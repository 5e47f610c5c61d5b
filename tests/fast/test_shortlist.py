"""Vocabulary shortlists (attnmt.fast.shortlist, ``attnmt shortlist``, ``translate --shortlist``)."""

import json
import math
import os
import re
import threading
from pathlib import Path

import pytest
import torch
from support import NEEDS_EXTENSION_BUILD, PAIRS

from attnmt.checkpoint import load_model_dir
from attnmt.cli.main import main
from attnmt.decoding import Decoding
from attnmt.decoding.quality import Assessor, assess, forced_passes
from attnmt.decoding.search import beam_search, greedy_search
from attnmt.decoding.teacher_forcing import score_pair
from attnmt.decoding.translate import translate, translate_n_best
from attnmt.errors import ConfigError
from attnmt.fast import prepare
from attnmt.fast.int8 import int8_panels_available
from attnmt.fast.shortlist import MIN_COLUMNS, Shortlist, use_shortlist
from attnmt.model import Transformer, TransformerConfig

pytestmark = NEEDS_EXTENSION_BUILD


def test_each_source_piece_keeps_the_pieces_that_co_occur_with_it_most_and_the_frequent_ones():
    pairs = [([5, 6], [510, 511]), ([5, 7], [510, 512]), ([6], [511]), ([8], [513, 510])]
    shortlist = Shortlist.build(pairs, 20, 600, per_source=1, frequent=1)
    assert shortlist.always == [510]  # in 3 of 4 targets
    assert shortlist.per_source[5] == [510] and shortlist.per_source[6] == [511]
    assert shortlist.per_source[7] == [512] and shortlist.per_source[8] == [513]
    ids = shortlist.ids_for(torch.tensor([[6, 7], [0, 0]]), keep=[3]).tolist()
    assert {3, 510, 511, 512} <= set(ids) and 513 not in ids and ids == sorted(ids)
    assert len(ids) == MIN_COLUMNS  # filled with the first ids, room for the widest beam


def test_a_shortlist_reads_back_as_written_and_a_bad_line_names_its_file_and_line(tmp_path):
    shortlist = Shortlist({4: [9, 7], 5: [8]}, [1, 2], 12, 10)
    path = tmp_path / "short.tsv"
    shortlist.save(path)
    again = Shortlist.load(path)
    assert (again.per_source, again.always, again.source_size, again.target_size) == ({4: [9, 7], 5: [8]}, [1, 2],
                                                                                        12, 10)
    path.write_text(path.read_text() + "6\t99\n")
    with pytest.raises(ConfigError, match=r"short.tsv:5: an id outside"):
        Shortlist.load(path)
    path.write_text("hello\n")
    with pytest.raises(ConfigError, match=r"short.tsv:1: not an attnmt shortlist"):
        Shortlist.load(path)


@pytest.mark.parametrize("before", [None, "# attnmt shortlist 1 12 10\n*\t1\n4\t9\n"], ids=["new", "written again"])
def test_a_shortlist_save_cut_short_leaves_the_old_file_or_none(tmp_path, monkeypatch, before):
    """Written in place, a save killed midway left a file cut part-way that loaded without a word
    (its last list a piece or a number short)."""
    path = tmp_path / "short.tsv"
    if before is not None:
        path.write_text(before)
    real_write_text = Path.write_text

    def write_half_then_kill(self, text, *args, **kwargs):
        real_write_text(self, text[:len(text) // 2], *args, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(Path, "write_text", write_half_then_kill)
    with pytest.raises(KeyboardInterrupt):
        Shortlist({4: [9, 7], 5: [8], 6: [233, 2]}, [1, 2], 12, 300).save(path)
    monkeypatch.setattr(Path, "write_text", real_write_text)
    assert [p.name for p in tmp_path.iterdir()] == ([] if before is None else ["short.tsv"])
    if before is not None:
        assert path.read_text() == before


@pytest.mark.parametrize("body, refused", [
    ("", r"short.tsv: holds no shortlist \(no line at all after its header\); cut short\?"),
    ("4\t9\n", r"short.tsv: holds no shortlist \(no '\*' line \(the frequent pieces\)\); cut short\?"),
    ("*\t1\n", r"short.tsv: holds no shortlist \(no source piece's line\); cut short\?"),
    ("*\t1\n4\t9\n5\t8\n4\t7\n", r"short.tsv:5: source piece 4 given again \(first on line 3\)"),
    ("*\t1\n4\t9\n*\t2\n", r"short.tsv:4: a second '\*' line \(first on line 2\)"),
])
def test_a_shortlist_cut_short_or_with_a_line_given_twice_is_refused_naming_it(tmp_path, body, refused):
    """Read as it was, a file of its header alone shortlisted the filler pieces only, and a second line
    for a piece replaced the first without a word."""
    path = tmp_path / "short.tsv"
    path.write_text(f"# attnmt shortlist 1 12 10\n{body}")
    with pytest.raises(ConfigError, match=refused):
        Shortlist.load(path)


def test_a_shortlist_file_that_is_not_utf8_names_its_file_and_line(tmp_path):
    path = tmp_path / "bad.tsv"
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(ConfigError, match=r"bad.tsv:1: not an attnmt shortlist \(byte 0xff is not UTF-8\)"):
        Shortlist.load(path)
    path.write_bytes(b"# attnmt shortlist 1 10 10\n*\t1\n3\t\xe9\n")
    with pytest.raises(ConfigError, match=r"bad.tsv:3: not an attnmt shortlist \(byte 0xe9 is not UTF-8\)"):
        Shortlist.load(path)


@pytest.mark.parametrize("int8", [False, pytest.param(True, marks=pytest.mark.skipif(
    not int8_panels_available(), reason="no AVX512-VNNI: the int8 output layer is torch.ao's"))])
@pytest.mark.parametrize("d_model", [32, 512])
def test_the_restricted_output_layer_gives_the_full_layers_logits_on_the_list_and_minus_inf_elsewhere(int8, d_model):
    """Exactly: float32's restricted layer multiplied on PyTorch's BLAS (not the panels) summed 512
    products in another order than the full layer."""
    torch.manual_seed(0)
    model = Transformer(TransformerConfig(vocab_size=300, d_model=d_model, n_heads=4, encoder_layers=1,
                                          decoder_layers=1, d_ff=64)).eval()
    fast = prepare(model, int8=int8)
    states = torch.randn(5, d_model)
    with torch.no_grad():
        full = fast.output(states)
    allowed = list(range(4, 300, 7))
    use_shortlist(fast, Shortlist({9: allowed}, [3], 300, 300))
    fast.encode(torch.tensor([[9, 9, 9]]))
    with torch.no_grad():
        short = fast.output(states)
    ids = fast.output.ids
    c = model.config
    assert {*range(c.eos_id + 1), c.unk_id, 3, *allowed} <= set(ids.tolist())  # every id up to EOS stays
    assert ids.numel() == MIN_COLUMNS < 300
    torch.testing.assert_close(short[:, ids], full[:, ids], rtol=0, atol=0)
    rest = torch.ones(300, dtype=torch.bool)
    rest[ids] = False
    assert bool(torch.isneginf(short[:, rest]).all())


def test_a_shortlist_from_the_training_pairs_translates_them_as_the_full_vocabulary(trained_model, tmp_path):
    sources, targets = tmp_path / "src.txt", tmp_path / "tgt.txt"
    sources.write_text("".join(s + "\n" for s, _ in PAIRS))
    targets.write_text("".join(t + "\n" for _, t in PAIRS))
    path = tmp_path / "short.tsv"
    assert main(["shortlist", "--model", str(trained_model), "--source", str(sources), "--target", str(targets),
                 "--out", str(path), "--per-source", "5", "--frequent", "3"]) == 0
    model, tokenizer = load_model_dir(trained_model)
    fast = prepare(model)
    use_shortlist(fast, Shortlist.load(path))
    lines = [s for s, _ in PAIRS]
    assert translate(fast, tokenizer, lines) == [t for _, t in PAIRS]
    # (this tiny vocabulary is smaller than MIN_COLUMNS: the columns mapping is tested on a larger one above)


def test_a_shortlist_is_never_written_over_its_corpus(trained_model, tmp_path, capsys):
    sources, targets = tmp_path / "src.txt", tmp_path / "tgt.txt"
    sources.write_text("".join(s + "\n" for s, _ in PAIRS))
    targets.write_text("".join(t + "\n" for _, t in PAIRS))
    for corpus, option in ((sources, "--source"), (targets, "--target")):
        assert main(["shortlist", "--model", str(trained_model), "--source", str(sources), "--target", str(targets),
                     "--out", str(corpus)]) == 2
        assert capsys.readouterr().err.startswith(f"attnmt: error: the --out {corpus} is the {option} file: ")
    assert targets.read_text() == "".join(t + "\n" for _, t in PAIRS)


@pytest.mark.parametrize(("source", "target", "named"), [
    ("", None, "--source {source} has no text"),
    ("\n \n", None, "--source {source} has no text"),
    ("a dog runs\n", "\n", "--target {target} has no text"),
])
def test_a_shortlist_from_a_corpus_without_text_is_refused_in_one_line(trained_model, tmp_path, capsys, source, target,
                                                                        named):
    paths = {"source": tmp_path / "src.txt", "target": tmp_path / "tgt.txt"}
    paths["source"].write_text(source)
    given = ["--source", paths["source"]]
    if target is not None:
        paths["target"].write_text(target)
        given += ["--target", paths["target"]]
    code = main(["shortlist", "--model", str(trained_model), *map(str, given), "--out", str(tmp_path / "s.tsv")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and f"attnmt: error: {named.format(**paths)}" in err
    assert not (tmp_path / "s.tsv").exists()


def best_outputs(model, src: torch.Tensor, greedy: bool) -> list[list[int]]:
    return greedy_search(model, src) if greedy else [hyps[0].tokens for hyps in beam_search(model, src)]


@pytest.mark.parametrize("greedy", [True, False])
@pytest.mark.parametrize("int8", [False, True])
def test_a_shortlist_of_every_piece_translates_as_none_and_a_short_one_writes_only_its_pieces(greedy, int8):
    torch.manual_seed(0)
    model = Transformer(TransformerConfig(vocab_size=300, d_model=32, n_heads=4, encoder_layers=1,
                                          decoder_layers=2, d_ff=64)).eval()
    src = torch.randint(4, 300, (5, 9))
    everything = prepare(model, int8=int8)
    use_shortlist(everything, Shortlist({}, list(range(300)), 300, 300))
    assert best_outputs(everything, src, greedy) == best_outputs(prepare(model, int8=int8), src, greedy)
    short = prepare(model, int8=int8)
    use_shortlist(short, Shortlist({}, [7, 11, 13], 300, 300))
    outputs = best_outputs(short, src, greedy)
    short.encode(src)
    allowed = set(short.output.ids.tolist())
    assert len(allowed) == MIN_COLUMNS and {7, 11, 13, *range(4)} <= allowed  # filled up to MIN_COLUMNS
    assert all(set(tokens) <= allowed for tokens in outputs) and any(outputs)
    uncached = greedy_search(short, src, use_cache=False)  # the readable path: full-width logits, -inf elsewhere
    assert all(set(tokens) <= allowed for tokens in uncached) and any(uncached)


def test_a_shortlist_for_another_vocabulary_is_refused(trained_model):
    model, _ = load_model_dir(trained_model)
    with pytest.raises(ConfigError, match="vocabularies"):
        use_shortlist(prepare(model), Shortlist({}, [], 7, 7))


def test_a_shortlist_file_for_another_vocabulary_is_refused_in_one_line_naming_its_header(trained_model, tmp_path,
                                                                                          capsys):
    """The sizes come from the file's first line, which the error did not name as the file's other errors do."""
    path = tmp_path / "short.tsv"
    Shortlist({4: [5]}, [5], 7, 7).save(path)
    size = json.loads((trained_model / "config.json").read_text())["vocab_size"]  # one vocabulary for both sides
    assert main(["translate", "--model", str(trained_model), "--shortlist", str(path), os.devnull]) == 2
    assert capsys.readouterr().err == (f"attnmt: error: {path}:1: the shortlist is for vocabularies of 7 and 7 pieces; "
                                       f"this model has {size} and {size}: write one for it with 'attnmt shortlist'\n")


@pytest.mark.parametrize("greedy", [True, False])
def test_work_that_reads_logits_by_id_sees_the_shortlists_columns_spread_over_the_vocabulary(greedy):
    """A penalty reads the logits by token id: the cached step's narrow logits are widened first
    (-inf off the list), so the search gives what the uncached path, full-width from the start, gives."""
    torch.manual_seed(1)
    model = Transformer(TransformerConfig(vocab_size=300, d_model=32, n_heads=4, encoder_layers=1,
                                          decoder_layers=2, d_ff=64)).eval()
    src = torch.randint(4, 300, (4, 7))
    short = prepare(model)
    use_shortlist(short, Shortlist({}, list(range(150, 300)), 300, 300))  # ids 150.. in columns 4..: not alike
    decoding = Decoding(beam_size=1 if greedy else 3, repetition_penalty=3.0, max_len_a=0.0, max_len_b=6)
    search = greedy_search if greedy else (lambda *a, **k: [h[0].tokens for h in beam_search(*a, **k)])
    cached, uncached = search(short, src, decoding), search(short, src, decoding, use_cache=False)
    assert cached == uncached and any(cached)


# --- pieces a search forces, and passes that score a given translation --------------------------

LISTED = list(range(4, 150))  # more than MIN_COLUMNS: no filler, so two lists differ only where told


def random_model() -> Transformer:
    torch.manual_seed(0)
    return Transformer(TransformerConfig(vocab_size=300, d_model=32, n_heads=4, encoder_layers=1,
                                         decoder_layers=2, d_ff=64)).eval()


def with_shortlist(model: Transformer, always: list[int], fused_step: bool = True):
    short = prepare(model, fused_step=fused_step)
    use_shortlist(short, Shortlist({}, always, 300, 300))
    return short


class IdWords:
    """A stand-in tokenizer: the text "w17 w42" is the ids [17, 42], each word a piece; a full stop after a
    word (the quality's second read of a translation ending without one) is no piece."""

    source_eos = False

    def encode(self, text: str) -> list[int]:
        return [int(word[1:].rstrip(".")) for word in text.split()]

    encode_target = encode

    def decode(self, ids) -> str:
        return " ".join(f"w{i}" for i in ids)

    def pieces(self, text: str) -> list[str]:
        return [f"▁{word}" for word in text.split()]

    def id_to_piece(self, i: int) -> str:
        return f"▁w{i}"

    def target_spans(self, text: str) -> list[tuple[int, int]]:
        return [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]


def found_by(model, src, greedy: bool, **guides) -> list:
    if greedy:
        return greedy_search(model, src, prefixes=guides.get("prefixes"))
    return [[(h.tokens, round(h.log_prob, 3), h.missed) for h in hyps]
            for hyps in beam_search(model, src, Decoding(beam_size=4, n_best=2), **guides)]


@pytest.mark.parametrize("fused_step", [True, False])
@pytest.mark.parametrize("greedy", [True, False])
def test_a_prefix_off_the_shortlist_is_written_as_if_the_list_held_it(greedy, fused_step):
    """The batch's prefix pieces join its shortlist (as Marian's do): off it, beam search gave each
    forced piece log-prob -inf, dropped the prefix and scored the translation -inf."""
    model, src = random_model(), torch.randint(4, 300, (3, 7))
    prefixes = [[250, 260], [], [290]]
    found = found_by(with_shortlist(model, LISTED, fused_step), src, greedy, prefixes=prefixes)
    assert found == found_by(with_shortlist(model, [*LISTED, 250, 260, 290], fused_step), src, greedy,
                             prefixes=prefixes)
    firsts = [tokens if greedy else hyps[0][0] for tokens, hyps in zip(found, found, strict=True)]
    assert [tokens[: len(prefix)] for tokens, prefix in zip(firsts, prefixes, strict=True)] == prefixes
    assert greedy or all(math.isfinite(log_prob) for hyps in found for _, log_prob, _ in hyps)


@pytest.mark.parametrize("fused_step", [True, False])
def test_a_sampled_translation_with_a_prefix_off_the_shortlist_is_scored_as_if_the_list_held_it(fused_step):
    """Sampling scores its outputs in a pass of their own, which encodes the batch again."""
    model, tokenizer = random_model(), IdWords()
    decoding = Decoding(beam_size=1, sampling_topk=5, seed=3)

    def sampled(always):
        [[found]] = translate_n_best(with_shortlist(model, always, fused_step), tokenizer, ["w5 w6 w7"], decoding,
                                     prefix="w250 w260")
        return found.text, found.log_prob

    text, log_prob = sampled(LISTED)
    assert text.startswith("w250 w260 ") and math.isfinite(log_prob)
    assert (text, log_prob) == sampled([*LISTED, 250, 260])


@pytest.mark.parametrize("fused_step", [True, False])
def test_glossary_terms_off_the_shortlist_are_written_as_if_the_list_held_them(fused_step):
    model, src = random_model(), torch.randint(4, 300, (2, 7))
    terms = [[[270, 280]], [[295]]]
    found = found_by(with_shortlist(model, LISTED, fused_step), src, False, terms=terms)
    assert found == found_by(with_shortlist(model, [*LISTED, 270, 280, 295], fused_step), src, False, terms=terms)
    assert [hyps[0][2] for hyps in found] == [0, 0]  # no term missed
    assert found[0][0][0][found[0][0][0].index(270) + 1] == 280 and 295 in found[1][0][0]


@pytest.mark.parametrize("fused_step", [True, False])
def test_a_forced_pass_reads_the_whole_vocabulary_with_a_shortlist(fused_step):
    """``attnmt score --shortlist``: a piece off the list got log-prob -inf, which the calibrated
    quality turned into NaN and then into 1.0."""
    model = random_model()
    short, full = with_shortlist(model, [7, 11, 13], fused_step), model  # the readable model: the oracle
    sources, targets = [[5, 6, 7, 8], [9, 10]], [[250, 7, 260], [11, 299, 13, 13]]
    got = {i: p.log_probs for i, p in forced_passes(short, sources, targets)}
    expected = {i: p.log_probs for i, p in forced_passes(full, sources, targets)}
    assert all(math.isfinite(x) for log_probs in got.values() for x in log_probs)
    assert got == {i: pytest.approx(log_probs, abs=1e-5) for i, log_probs in expected.items()}
    assert score_pair(short, sources[0], targets[0]).probs == pytest.approx(
        score_pair(full, sources[0], targets[0]).probs, abs=1e-6)  # --confidence's pass too


@pytest.mark.parametrize("fused_step", [True, False])
def test_a_translations_quality_is_the_same_with_or_without_a_shortlist(fused_step):
    """The beam's log-probs come from a softmax over the shortlist: the quality reads the whole
    vocabulary's instead (it was calibrated on those), and the translations stay the shortlist's."""
    model, tokenizer = random_model(), IdWords()
    sentences = ["w5 w6 w7 w8 w200", "w9 w10 w11"]
    short = with_shortlist(model, [7, 11, 13], fused_step)
    decoding = Decoding(beam_size=3, n_best=2)
    found = translate_n_best(short, tokenizer, sentences, decoding, quality=Assessor())
    unassessed = translate_n_best(short, tokenizer, sentences, decoding)
    assert [[t.text for t in each] for each in found] == [[t.text for t in each] for each in unassessed]
    pairs = [(sentence, t.text) for sentence, each in zip(sentences, found, strict=True) for t in each]
    expected = assess(model, tokenizer, *zip(*pairs, strict=True))  # the readable model's, no shortlist
    assert [t.quality for each in found for t in each] == pytest.approx([a.quality for a in expected], rel=1e-4)
    assert all(t.quality < math.exp(t.log_prob / (len(t.text.split()) + 1)) for each in found for t in each)


def test_threads_sharing_a_shortlisted_copy_each_search_their_own_batchs_shortlist():
    """Another thread's batch, encoded while this one's searches, swapped its shortlist in (the
    steps' columns then read as the other batch's ids): each thread now keeps its own batch's.
    The first batch's search starts only once the second batch is encoded."""
    shortlist = Shortlist({5: list(range(4, 150)), 6: list(range(150, 300))}, [], 300, 300)
    short = prepare(random_model())
    use_shortlist(short, shortlist)
    batches = {"first": torch.full((2, 6), 5), "second": torch.full((2, 6), 6)}
    expected = {name: greedy_search(short, src) for name, src in batches.items()}
    first_encoded, second_encoded = threading.Event(), threading.Event()
    encode = short.encode

    def encode_in_turn(src, trace=None):
        if int(src[0, 0]) == 6:
            first_encoded.wait(timeout=60)
        memory = encode(src, trace)
        if int(src[0, 0]) == 5:
            first_encoded.set()
            second_encoded.wait(timeout=60)  # the first search's steps come after the second encode
        else:
            second_encoded.set()
        return memory

    short.encode = encode_in_turn
    found: dict[str, object] = {}

    def search(name: str) -> None:
        try:
            found[name] = greedy_search(short, batches[name])
        except Exception as error:  # noqa: BLE001 - the assertion below shows it
            found[name] = error

    threads = [threading.Thread(target=search, args=(name,)) for name in batches]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert first_encoded.is_set() and second_encoded.is_set()
    assert found == expected
    assert all(tokens and set(tokens) <= set(range(4, 150)) for tokens in expected["first"])
