"""Word alignments from cross-attention (attnmt.inspect.align), on attention made by hand."""

from types import SimpleNamespace

import numpy as np
import pytest
import torch

from attnmt.inspect.align import pharaoh, rewritten_rows, word_alignment, word_index


def test_pieces_join_into_words_at_the_word_start_marker():
    assert word_index(["▁ein", "▁orange", "farb", "enen", "▁Hut", ","]) == [0, 1, 1, 1, 2, 2]


def test_each_target_piece_links_to_the_source_piece_it_attends_to_most():
    source = ["▁a", "▁red", "▁hat", "."]  # words: a(0) red(1) hat.(2)
    target = ["▁ein", "▁rot", "er", "▁Hut", "."]  # words: ein(0) roter(1) Hut.(2)
    cross = torch.tensor([  # [target pieces (+ the EOS row), source pieces]
        [0.7, 0.1, 0.1, 0.1],  # ein <- a
        [0.1, 0.8, 0.05, 0.05],  # rot <- red
        [0.2, 0.6, 0.1, 0.1],  # er <- red: the same word pair once
        [0.1, 0.1, 0.7, 0.1],  # Hut <- hat
        [0.1, 0.1, 0.2, 0.6],  # "." <- "." (part of the words "hat." and "Hut.")
        [0.0, 0.0, 0.0, 1.0],  # the EOS row is not a word
    ])
    pairs = word_alignment(cross, source, target)
    assert pairs == [(0, 0), (1, 1), (2, 2)]
    assert pharaoh(pairs) == "0-0 1-1 2-2"


def test_a_crossing_alignment_and_one_source_word_for_two_target_words():
    source = ["▁staring", "▁at", "▁something"]
    target = ["▁etwas", "▁an", "starrt"]  # "etwas anstarrt"
    cross = torch.tensor([[0.1, 0.1, 0.8], [0.6, 0.3, 0.1], [0.2, 0.7, 0.1]])
    assert word_alignment(cross, source, target) == [(0, 1), (1, 1), (2, 0)]


def test_chosen_heads_are_averaged_and_the_others_ignored(monkeypatch):
    from types import SimpleNamespace

    from attnmt.inspect import align

    # One layer, two heads, one output piece (+ the EOS row), two source words.
    cross = torch.tensor([[[[1.0, 0.0], [1.0, 0.0]], [[0.0, 1.0], [0.0, 1.0]]]])  # [layers 1, heads 2, 2, 2]
    traced = SimpleNamespace(cross=cross, source=["▁a", "▁b"], target_out=["▁x", "</s>"],
                             source_words=None, target_words=None)
    assert align.trace_alignment(traced, heads=[0]) == [(0, 0)]  # head 0 looks at source word 0
    assert align.trace_alignment(traced, heads=[1]) == [(1, 0)]  # head 1 at source word 1
    monkeypatch.setattr(align, "trace_translation", lambda model, tokenizer, source, target: traced)
    assert align.align(None, None, ["a b", "a b"], ["x", " "], heads=[1]) == [[(1, 0)], []]  # blank: no links


def test_a_side_of_invisible_characters_alone_is_blank_and_has_no_links(monkeypatch):
    """A lone zero-width space is not blank to str.strip, but has no pieces: align failed the whole
    list ("nothing to show") where align_batched gave its pair []."""
    from attnmt.inspect import align

    def traced(model, tokenizer, source, target):
        assert source == "a b" and target == "x"  # the blank pairs are never traced
        return SimpleNamespace(cross=torch.ones(1, 1, 2, 2), source=["▁a", "▁b"], target_out=["▁x", "</s>"],
                               source_words=None, target_words=None)

    monkeypatch.setattr(align, "trace_translation", traced)
    found = align.align(None, None, ["\u200b", "a b", "a b"], ["x", "\u2060\u00ad", "x"])
    assert found[:2] == [[], []] and found[2] != []


@pytest.mark.parametrize("heads", [[1.0], [np.float64(1.0)], [np.int32(-1)], [torch.tensor(1)], [np.array(1)]])
def test_heads_given_as_whole_numbers_of_any_type_are_read_as_ints(heads):
    """[3.0] and [np.float64(3.0)] were taken (and [torch.tensor(1)] by align_batched) until the
    heads were checked, then refused as "each layer has 4 heads"; they are read as counts are."""
    from types import SimpleNamespace

    from attnmt.inspect import align
    from attnmt.model import Transformer, TransformerConfig

    cross = torch.tensor([[[[1.0, 0.0], [1.0, 0.0]], [[0.0, 1.0], [0.0, 1.0]]]])  # [layers 1, heads 2, 2, 2]
    traced = SimpleNamespace(cross=cross, source=["▁a", "▁b"], target_out=["▁x", "</s>"],
                             source_words=None, target_words=None)
    assert align.trace_alignment(traced, heads=heads) == [(1, 0)]  # head 1 looks at source word 1
    torch.manual_seed(0)
    model = Transformer(TransformerConfig(vocab_size=20, d_model=8, n_heads=2, encoder_layers=1, decoder_layers=1,
                                          d_ff=16, max_positions=16)).eval()
    codec = SimpleNamespace(encode=lambda text: [4, 5, 3], encode_target=lambda text: [6, 3], source_eos=True,
                            pieces=lambda text: ["▁a", "▁b", "</s>"], id_to_piece=lambda i: "▁x",
                            source_spans=lambda text: [(0, 1), (1, 3)], target_spans=lambda text: [(0, 1), (1, 1)])
    assert align.align_batched(model, codec, ["a b"], ["x"], heads=heads) == align.align_batched(
        model, codec, ["a b"], ["x"], heads=[1])


@pytest.mark.parametrize(("layer", "heads", "message"), [
    (3, None, r"^layer=3: the model has 3 layers of cross-attention \(decoder → encoder\) \(layer=0 to 2, -1 to -3 "
              r"from the last\)$"),
    (-4, None, r"^layer=-4: the model has 3 layers"),
    (0, [1, 2], r"^heads=\[1, 2\]: each layer has 2 heads \(0 to 1, -1 to -2 from the last, or None for all of "
                r"them\)$"),
    (0, [], r"^heads=\[\]: give one head or more \(0 to 1, -1 to -2 from the last\), or None for all of them$"),
    (0, 0, r"^heads=0: expected a list of heads \(0 to 1, -1 to -2 from the last\), or None for all of them; "
           r"pass \[0\] for one$"),  # a TypeError before
    (0, ["1"], r"^heads=\['1'\]: each layer has 2 heads"),
    (0, [1.5], r"^heads=\[1.5\]: each layer has 2 heads"),
    (0, [True], r"^heads=\[True\]: each layer has 2 heads"),
    (0, [torch.tensor(0.5)], r"^heads=\[tensor\(0.5000\)\]: each layer has 2 heads"),
    (0, [1, 0, 1], r"^heads=\[1, 0, 1\]: head 1 is given twice; give each head once \(a repeated one would count "
                   r"twice in the mean\)$"),  # head 1 weighed twice in the mean, before
    (0, [1, -1], r"^heads=\[1, -1\]: 1 and -1 are the same head; give each head once"),
])
def test_a_layer_or_head_the_model_lacks_is_one_config_error_naming_those_it_has(layer, heads, message):
    from types import SimpleNamespace

    from attnmt.errors import ConfigError
    from attnmt.inspect import align
    from attnmt.model import Transformer, TransformerConfig

    # Three layers, two heads, one output piece (+ the EOS row), two source words: an IndexError before.
    traced = SimpleNamespace(cross=torch.full((3, 2, 2, 2), 0.5), source=["▁a", "▁b"], target_out=["▁x", "</s>"],
                             source_words=None, target_words=None)
    with pytest.raises(ConfigError, match=message):
        align.trace_alignment(traced, layer, heads)
    if heads is None:
        with pytest.raises(ConfigError, match=message):
            align.trace_weights(traced, layer)
        return
    torch.manual_seed(0)
    model = Transformer(TransformerConfig(vocab_size=20, d_model=8, n_heads=2, encoder_layers=1, decoder_layers=3,
                                          d_ff=16, max_positions=16)).eval()
    unread = SimpleNamespace(source_eos=True, encode=lambda text: pytest.fail(f"{text!r} was read"))
    with pytest.raises(ConfigError, match=message):  # refused before any sentence is read
        align.align_batched(model, unread, ["a b"], ["x"], layer, heads)
    with pytest.raises(ConfigError, match=message):
        align.translate_with_weights(model, unread, ["a b"], [True], layer=layer, heads=heads)


def test_batched_alignment_gives_the_links_of_one_pair_at_a_time(trained_model):
    from support import PAIRS

    from attnmt.checkpoint import load_model_dir
    from attnmt.inspect.align import align, align_batched

    model, tokenizer = load_model_dir(trained_model)
    sources = [s for s, _ in PAIRS] + ["", "a dog runs"]
    translations = [t for _, t in PAIRS] + ["ein hund", " "]  # blank on either side: no links
    one_by_one = align(model, tokenizer, sources, translations)
    assert align_batched(model, tokenizer, sources, translations, max_tokens=24) == one_by_one
    assert one_by_one[-2:] == [[], []]


def test_word_weights_sum_a_words_source_pieces_and_average_its_target_pieces():
    from attnmt.inspect.align import word_weights

    source = ["▁a", "▁red", "dish", "."]  # words: a, reddish.
    target = ["▁ein", "▁röt", "lich"]  # words: ein, rötlich
    cross = torch.tensor([[0.7, 0.1, 0.1, 0.1], [0.1, 0.5, 0.2, 0.2], [0.3, 0.3, 0.3, 0.1], [0.0, 0.0, 0.0, 1.0]])
    expected = torch.tensor([[0.7, 0.3], [0.2, 0.8]])  # rötlich: (0.1 + 0.3) / 2 and (0.9 + 0.7) / 2
    assert torch.allclose(word_weights(cross, source, target).float(), expected)


def test_weights_read_in_the_search_batches_are_those_of_a_pass_of_their_own(trained_model):
    from support import PAIRS

    from attnmt.checkpoint import load_model_dir
    from attnmt.decoding import Decoding
    from attnmt.decoding.translate import translate
    from attnmt.fast import prepare
    from attnmt.inspect.align import cross_attention_batches, translate_with_weights, word_weights

    trained, tokenizer = load_model_dir(trained_model)
    sources = [s for s, _ in PAIRS] + ["", "a dog runs"]
    weighed = [k % 2 == 0 for k in range(len(sources) - 1)] + [True]
    for model in (trained, prepare(trained)):
        decoding = Decoding(beam_size=2)
        texts, found = translate_with_weights(model, tokenizer, sources, weighed, decoding, max_tokens=24)
        assert texts == translate(model, tokenizer, sources, decoding, max_tokens=24)
        assert [w is not None for w in found] == [bool(w and t.strip()) for w, t in zip(weighed, texts, strict=True)]
        apart = {i: word_weights(cross, source_pieces, target_pieces) for i, cross, source_pieces, target_pieces
                 in cross_attention_batches(model, tokenizer, sources, texts, -1, None, 4096)}
        # The separate pass tokenises the translations again: the same ids here, so the same weights.
        assert {i for i, weights in enumerate(found) if weights is not None} <= set(apart)
        for i, weights in enumerate(found):
            if weights is not None:
                assert torch.allclose(weights, apart[i], atol=1e-5)


def test_a_traced_translations_weights_are_those_the_search_reads(trained_model):
    from attnmt.checkpoint import load_model_dir
    from attnmt.inspect.align import trace_weights, translate_with_weights
    from attnmt.inspect.trace import trace_translation

    model, tokenizer = load_model_dir(trained_model)
    [text], [weights] = translate_with_weights(model, tokenizer, ["a man rides a bike"], [True])
    traced = trace_weights(trace_translation(model, tokenizer, "a man rides a bike", target=text))
    assert traced.shape == (5, 5)  # [target words, source words]: "ein mann fährt ein fahrrad"
    assert torch.allclose(traced.float(), weights.float(), atol=1e-4)


def test_beam_search_hands_its_recorded_weights_over_and_no_second_pass_runs(trained_model, monkeypatch):
    from support import PAIRS

    from attnmt.checkpoint import load_model_dir
    from attnmt.decoding import Decoding
    from attnmt.fast import prepare
    from attnmt.inspect import align

    trained, tokenizer = load_model_dir(trained_model)
    sources = [s for s, _ in PAIRS]
    expected = align.translate_with_weights(trained, tokenizer, sources, [True] * len(sources), Decoding(beam_size=1))

    def no_pass(*args, **kwargs):
        raise AssertionError("a teacher-forced pass ran for weights the search recorded")

    monkeypatch.setattr(align, "written_attention", no_pass)
    for model in (trained, prepare(trained)):
        texts, found = align.translate_with_weights(model, tokenizer, sources, [True] * len(sources),
                                                    Decoding(beam_size=2))
        assert all(weights is not None for weights, text in zip(found, texts, strict=True) if text.strip())
    # Greedy search records nothing: its weights come from the pass, which the test stubbed out.
    assert expected[1][0] is not None
    with pytest.raises(AssertionError, match="teacher-forced pass"):
        align.translate_with_weights(trained, tokenizer, sources, [True] * len(sources), Decoding(beam_size=1))


@pytest.fixture
def batch_records(monkeypatch) -> dict[int, list[bool]]:
    """Sentence (input index) -> for each search of a batch holding it (run_search), whether that search was given
    a Recording: spies on attnmt.decoding.translate's ``first_searched`` (the batch's first search) and
    ``run_search`` (its ``record``)."""
    import inspect

    from attnmt.decoding import translate as translating

    searched, run_search = translating.first_searched, translating.run_search
    batch: list[int] = []  # the sentences of the batch being searched
    records: dict[int, list[bool]] = {}

    def searching(*args, **kwargs):
        batch[:] = inspect.signature(searched).bind(*args, **kwargs).arguments["indices"]
        return searched(*args, **kwargs)

    def run(*args, **kwargs):
        record = inspect.signature(run_search).bind(*args, **kwargs).arguments.get("record")
        for i in batch:
            records.setdefault(i, []).append(record is not None)
        return run_search(*args, **kwargs)

    monkeypatch.setattr(translating, "first_searched", searching)
    monkeypatch.setattr(translating, "run_search", run)
    return records


SENTENCES = ["a dog runs", "a man rides a bike", "two men walk"]


def test_only_a_batch_holding_a_weighed_sentence_records_its_attention(trained_model, batch_records):
    """Recording costs each step of a batch the fast path's fused top-k (issue #44): one weighed sentence
    (a line with quotes) made every batch record; the others' translations are the same without."""
    from attnmt.checkpoint import load_model_dir
    from attnmt.decoding import Decoding
    from attnmt.decoding.translate import translate
    from attnmt.fast import prepare
    from attnmt.inspect.align import translate_with_weights

    trained, tokenizer = load_model_dir(trained_model)
    for model in (trained, prepare(trained)):
        batch_records.clear()
        texts, found = translate_with_weights(model, tokenizer, SENTENCES, [False, True, False],
                                              Decoding(beam_size=2), max_sentences=1)
        assert batch_records == {0: [False], 1: [True], 2: [False]}
        assert [weights is not None for weights in found] == [False, True, False]
        assert texts == translate(model, tokenizer, SENTENCES, Decoding(beam_size=2))


def test_a_failed_batch_searched_a_sentence_at_a_time_records_only_for_the_weighed_one(
        trained_model, batch_records, monkeypatch):
    from attnmt.checkpoint import load_model_dir
    from attnmt.decoding import Decoding
    from attnmt.decoding import translate as translating
    from attnmt.inspect.align import translate_with_weights

    model, tokenizer = load_model_dir(trained_model)
    spied = translating.run_search

    def fails_for_two(model, src, *args, **kwargs):
        if src.size(0) > 1:
            raise RuntimeError("a batch the model fails on")
        return spied(model, src, *args, **kwargs)

    monkeypatch.setattr(translating, "run_search", fails_for_two)
    texts, found = translate_with_weights(model, tokenizer, SENTENCES, [False, True, False], Decoding(beam_size=2))
    assert batch_records == {0: [False], 1: [True], 2: [False]}  # the failed batch's search never reached the spy
    assert [weights is not None for weights in found] == [False, True, False]
    assert all(text.strip() for text in texts)


def test_with_quality_every_batch_records_the_attention_the_assessor_reads(trained_model, batch_records):
    from attnmt.checkpoint import load_model_dir
    from attnmt.decoding import Decoding
    from attnmt.decoding.quality import Assessor
    from attnmt.inspect.align import translate_assessed

    model, tokenizer = load_model_dir(trained_model)
    _, found, assessed = translate_assessed(model, tokenizer, SENTENCES, [False, True, False], Decoding(beam_size=2),
                                            max_sentences=1, quality=Assessor())
    assert batch_records == {0: [True], 1: [True], 2: [True]}
    assert [weights is not None for weights in found] == [False, True, False]
    assert all(assessment is not None for assessment in assessed)


def test_alignment_heads_count_from_the_last_on_the_command_line_as_in_python(trained_model, tmp_path, capsys):
    from attnmt.cli.main import main

    source = tmp_path / "in.txt"
    source.write_text("a man rides a bike\n", encoding="utf-8")

    def aligned(*options: str) -> tuple[int, str, str]:
        code = main(["translate", "--model", str(trained_model), "--alignments", *options, str(source)])
        return (code, *capsys.readouterr())

    # The model has 4 heads: -1 is head 3, -4 head 0 ("must be at least 0", before).
    assert aligned("--alignment-heads", "-1") == aligned("--alignment-heads", "3")
    assert aligned("--alignment-heads=-4,-1")[0] == 0
    assert aligned("--alignment-heads=-4,-1") == aligned("--alignment-heads", "0,3")
    code, out, err = aligned("--alignment-heads", "0,-5")  # written as given ([0, -5], a Python list, before)
    assert code == 2 and out == "" and err == ("attnmt: error: --alignment-heads 0,-5: the model has heads 0 to 3 "
                                               "(or -1 to -4 from the last)\n")
    code, out, err = aligned("--alignment-heads", "1,2,2")  # head 2 counted twice in the mean, before
    assert code == 2 and out == "" and err == ("attnmt: error: --alignment-heads 1,2,2: head 2 is given twice; give "
                                               "each head once (a repeated one would count twice in the mean)\n")
    assert "3 and -1 are the same head" in aligned("--alignment-heads=3,-1")[2]


def test_pieces_are_numbered_by_the_whitespace_word_of_the_text_they_stand_in():
    """Counting the pieces that start with "▁" numbered the words SentencePiece saw after NFKC."""
    from attnmt.inspect.trace import span_words

    # "Don´t": ´ is read as a space and an accent: "▁Do" "n" "▁" "́" "t", the "▁" made up (empty span).
    assert span_words("Don´t touch", [(0, 2), (2, 3), (3, 3), (3, 4), (4, 5), (5, 11)]) == [0, 0, 0, 0, 0, 1]
    # A lone U+200B is dropped, yet a word of text.split(): "▁rides" spans " \u200b rides", word 3.
    assert span_words("A man \u200b rides.", [(0, 1), (1, 5), (5, 13), (13, 14)]) == [0, 1, 3, 3]
    # "™" is read as "TM": "▁T" spans the space before it, "M" the ™.
    assert span_words("Brand ™ x", [(0, 1), (1, 5), (5, 6), (6, 7), (7, 8), (8, 9)]) == [0, 0, 1, 1, 2, 2]
    # A vertical tab is dropped, yet parts words: "▁man" spans "man\x0b", still word 1; "ri" starts word 2.
    for gap in "\x0b\x1c\x1f":
        assert span_words(f"A man{gap}rides a", [(0, 1), (1, 6), (6, 8), (8, 11), (11, 13)]) == [0, 1, 2, 2, 3]
    # A control character or U+FFFD standing alone is dropped, yet a word: "▁dog" spans "\x01 dog", word 2.
    for alone in "\x01\x7f\x9b\ufffd":
        assert span_words(f"the {alone} dog runs", [(0, 3), (3, 9), (9, 14)]) == [0, 2, 3]


def shifted(pairs: list[tuple[int, int]], source: dict[int, int], target: dict[int, int]) -> list[tuple[int, int]]:
    """``pairs`` with their words renumbered (a word not in the maps keeps its number)."""
    return sorted({(source.get(s, s), target.get(t, t)) for s, t in pairs})


# The same pieces as the plain texts, whose words are one fewer (a lone U+200B between spaces is dropped, yet a
# word of text.split()) or one more (´ is read as a space and an accent: "man ́s" is two words, "man´s" one).
ZERO_WIDTH = ("a man \u200b rides a bike", "ein mann \u200b fährt ein fahrrad")
ZERO_WIDTH_WORDS = {2: 3, 3: 4, 4: 5}  # of "a man rides a bike" and of "ein mann fährt ein fahrrad"
ACUTE = ("a man´s dog runs", "a man \u0301s dog runs")  # the second as NFKC reads the first
ACUTE_WORDS = {2: 1, 3: 2, 4: 3}  # of the second


def test_alignments_number_the_words_of_the_texts_as_given_split_at_whitespace(trained_model):
    from attnmt.checkpoint import load_model_dir
    from attnmt.inspect.align import align, align_batched, trace_alignment
    from attnmt.inspect.trace import trace_translation

    model, tokenizer = load_model_dir(trained_model)
    plain = align(model, tokenizer, ["a man rides a bike", ACUTE[1]], ["ein mann fährt ein fahrrad"] * 2)
    expected = [shifted(plain[0], ZERO_WIDTH_WORDS, ZERO_WIDTH_WORDS), shifted(plain[1], ACUTE_WORDS, {})]
    sources, translations = [ZERO_WIDTH[0], ACUTE[0]], [ZERO_WIDTH[1], "ein mann fährt ein fahrrad"]
    assert align(model, tokenizer, sources, translations) == expected
    assert align_batched(model, tokenizer, sources, translations) == expected
    assert [trace_alignment(trace_translation(model, tokenizer, source, target=translation))
            for source, translation in zip(sources, translations, strict=True)] == expected
    assert max(s for s, _ in expected[1]) < len(ACUTE[0].split())  # source word 4 of "a man´s dog runs", before


def test_word_weights_have_a_column_for_each_whitespace_word(trained_model):
    """Document markup takes the columns for the sentence's words split at whitespace: a lone U+200B
    has a column of zeros, and the words after it keep their places."""
    from attnmt.checkpoint import load_model_dir
    from attnmt.inspect.align import trace_weights, translate_with_weights
    from attnmt.inspect.trace import trace_translation

    model, tokenizer = load_model_dir(trained_model)
    [text], [plain] = translate_with_weights(model, tokenizer, ["a man rides a bike"], [True])
    [same], [weights] = translate_with_weights(model, tokenizer, [ZERO_WIDTH[0]], [True])
    assert same == text and weights.shape == (5, 6)
    assert torch.equal(weights[:, 2], torch.zeros(5)) and torch.equal(weights[:, [0, 1, 3, 4, 5]], plain)
    traced = trace_weights(trace_translation(model, tokenizer, ZERO_WIDTH[0], target=ZERO_WIDTH[1]))
    assert traced.shape == (6, 6) and not traced[2].any() and not traced[:, 2].any()


@pytest.mark.parametrize("weighed", [[True], [True, True, True], "yes", [2, 0], [1.0, 0], None])
def test_a_weighed_that_is_not_one_bool_per_sentence_is_named(weighed):
    """One too few was an IndexError deep in the batches, and "yes" was read a character a sentence."""
    from support import CharTokenizer, ending_model

    from attnmt.errors import ConfigError
    from attnmt.inspect.align import translate_with_weights

    with pytest.raises(ConfigError, match=r"^weighed: expected a list of 2 bools, True for each sentence whose word "
                                          rf"weights are wanted, got {type(weighed).__name__} "):
        translate_with_weights(ending_model(), CharTokenizer(), ["a cat", "a dog"], weighed)


@pytest.mark.parametrize("weighed", [[1, 0], np.array([1, 0]), torch.tensor([1, 0])])
def test_weighed_may_be_a_mask_of_ones_and_zeros_as_it_was_before_it_was_checked(weighed):
    """[1, 0] and np.array([1, 0]) worked before weighed was checked, and are refused nowhere else."""
    from attnmt.inspect.align import checked_weighed

    assert checked_weighed(weighed, 2) == [True, False]


def test_weighed_may_be_a_list_or_tuple_of_bools_or_a_bool_array_or_tensor():
    from attnmt.inspect.align import checked_weighed

    for weighed in ([True, False], (True, False), [np.True_, False], np.array([True, False]),
                    torch.tensor([True, False])):
        assert checked_weighed(weighed, 2) == [True, False]


def test_a_contraction_rewritten_into_two_words_gives_both_its_row():
    """"im" became "in der" before the term "Wiese" (term_articles): "Wiese" keeps its own row, not "der"."""
    weights = torch.tensor([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5], [0.25, 0.75]])  # Er, ist, im, Wiese.
    rows = rewritten_rows(weights, "Er ist im Wiese.", "ER IST IN DER WIESE.")
    assert rows.tolist() == [[1.0, 0.0], [0.0, 1.0], [0.5, 0.5], [0.5, 0.5], [0.25, 0.75]]


def test_a_word_rewritten_in_its_place_keeps_every_row():
    weights = torch.tensor([[1.0, 0.0], [0.0, 1.0]])
    assert rewritten_rows(weights, "einem Wiese", "einer Wiese") is weights
