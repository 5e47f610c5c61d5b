"""The numbers retries of a whole input are searched together (attnmt.decoding.retry_pool), and so are the sentences
whose plain translation misses a glossary term (attnmt.decoding.plain_first): each sentence's translation is what it
gets alone, readable, float32 and int8, recorded or not, with one search a batch's worth of them, not one a batch."""

import re

import pytest
import torch
from support import NEEDS_EXTENSION_BUILD, NamedPieces, search_config

import attnmt.decoding.batch_search as batch_search
import attnmt.decoding.retry_pool as retry_pool
import attnmt.decoding.translate as translating
from attnmt.decoding import MAX_TOKENS, Decoding
from attnmt.decoding.failed_sentences import SentencesFailed
from attnmt.decoding.inputs import Guides
from attnmt.decoding.state import Recording
from attnmt.inspect.align import translate_assessed
from attnmt.model import Transformer


class NumberWords(NamedPieces):
    """Whole words, numbers among them, a source read as a target is; the pieces and spans word weights read."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁Der", "▁Fluss.", "▁12", "▁km", "▁3", "▁7", "▁The", "▁river",
              "▁is", "▁long.", "▁boys", "▁girls", "▁run", "▁in", "▁park", "▁and", *(f"▁w{k}" for k in range(20))]
    source_eos = False

    def encode(self, text: str) -> list[int]:
        return self.encode_target(text)

    def pieces(self, text: str) -> list[str]:
        return [self.PIECES[i] for i in self.encode(text)]

    def source_spans(self, text: str) -> list[tuple[int, int]]:
        return [m.span() for m in re.finditer(r"\S+", text)]

    target_spans = source_spans


NUMBERS = [6, 8, 9]  # "▁12", "▁3", "▁7"
# Three batches of three (max_sentences=3, sorted by length), one sentence of each dropping its number.
SENTENCES = ["boys run", "3 boys", "girls run", "girls run in", "girls and 7", "boys run in",
             "The river is long.", "The river is 12", "boys run in park"]
RETRIED = ["3 boys", "girls and 7", "The river is 12"]
SHORT = Decoding(beam_size=2, max_len_a=1.0, max_len_b=3)


def number_shy(seed: int = 0) -> Transformer:
    """A random model whose output bias keeps the numbers' pieces 8 nats down: its free search writes none of them,
    so each sentence with a number is searched again with it required."""
    torch.manual_seed(seed)
    model = Transformer(search_config(output_bias=True)).eval()
    with torch.no_grad():
        model.output.bias[NUMBERS] = -8.0
    return model


@pytest.fixture(scope="module")
def models() -> dict[str, Transformer]:
    return {"readable": number_shy()}


def fast_copy(precision: str) -> Transformer:
    from attnmt.fast import prepare

    return prepare(number_shy(), int8=precision == "int8")


MODELS = [pytest.param("readable", id="readable"),
          *(pytest.param(precision, id=precision, marks=NEEDS_EXTENSION_BUILD) for precision in ("float32", "int8"))]


def model_of(kind: str, models: dict[str, Transformer]) -> Transformer:
    if kind not in models:
        models[kind] = fast_copy(kind)
    return models[kind]


TERM_PIECES = [5, 7]  # "▁Fluss.", "▁km"
GLOSSARY = {"river": "Fluss.", "park": "km"}
# Three batches of three (max_sentences=3), one sentence of each whose plain translation misses its terms: the
# third's two terms make its beam 3 (batch_search.term_beam), the others' 2.
TERMED = ["boys run", "river run", "girls run", "girls run in", "boys in park", "boys run in",
          "The girls is long.", "girls and boys run", "river and park run"]
MISSES = ["river run", "boys in park", "river and park run"]


def term_shy(seed: int = 0) -> Transformer:
    """``number_shy`` with the glossary's target pieces 8 nats down too: its plain search writes none of them, so
    each sentence with a term is searched again with it."""
    model = number_shy(seed)
    with torch.no_grad():
        model.output.bias[TERM_PIECES] = -8.0
    return model


@pytest.fixture(scope="module")
def term_models() -> dict[str, Transformer]:
    return {"readable": term_shy()}


def term_model_of(kind: str, term_models: dict[str, Transformer]) -> Transformer:
    if kind not in term_models:
        from attnmt.fast import prepare

        term_models[kind] = prepare(term_shy(), int8=kind == "int8")
    return term_models[kind]


def searches_with_terms(monkeypatch) -> list[list[str]]:
    """The searches ``translate`` runs with terms (run_search with terms: numbers retries, plain first's misses), each
    as the sentences it searched."""
    searched, run_search = [], translating.run_search
    codec = NumberWords()

    def counted(model, src, decoding, scored, prefixes, terms, *rest):
        if any(terms):
            searched.append([codec.decode([t for t in row if t != 0]) for row in src.tolist()])
        return run_search(model, src, decoding, scored, prefixes, terms, *rest)

    monkeypatch.setattr(translating, "run_search", counted)
    return searched


@pytest.mark.parametrize("beam", [1, 2])
@pytest.mark.parametrize("kind", MODELS)
def test_retries_searched_together_give_each_sentence_what_it_gets_alone(models, kind, beam, monkeypatch):
    model, codec, decoding = model_of(kind, models), NumberWords(), Decoding(beam_size=beam, max_len_a=1.0, max_len_b=3)
    alone = [translating.translate(model, codec, [sentence], decoding)[0] for sentence in SENTENCES]
    searched = searches_with_terms(monkeypatch)
    assert translating.translate(model, codec, SENTENCES, decoding, max_sentences=3) == alone
    assert searched == [RETRIED]  # three batches, one search of their retries
    assert any(number in text.split() for text in alone for number in ("3", "7", "12"))  # a retry taken


@pytest.mark.parametrize("kind", MODELS)
def test_a_retry_searched_together_records_the_attention_it_records_alone(models, kind):
    """translate_assessed's word weights, from the attention each search records: a retry's is over its own batch's
    source positions, the padding of the pooled batch cut off.  A batch's products are not one sentence's alone: the
    readable model's weights differ from a sentence's alone in the last bit (1e-7) of every sentence, retried or not."""
    model, codec = model_of(kind, models), NumberWords()
    alone = [translate_assessed(model, codec, [sentence], [True], SHORT) for sentence in SENTENCES]
    texts, weights, _ = translate_assessed(model, codec, SENTENCES, [True] * len(SENTENCES), SHORT, max_sentences=3)
    assert texts == [text for [text], _, _ in alone]
    for found, (_, [own], _) in zip(weights, alone, strict=True):  # equal but for rounding: batched, alone
        assert found.shape == own.shape and torch.allclose(found, own, rtol=0.0, atol=1e-5)


@pytest.mark.parametrize(("sentences", "per_batch"), [
    (SENTENCES, 3),  # each retry as long as its batch's longest: the pooled batch's padding cut off
    (["7 girls", "boys run", "girls and 3", "The river is long."], 2),  # "girls and 3": 3 pieces of its batch's 4
])
def test_a_held_batchs_recorded_retry_has_its_batchs_source_width(models, sentences, per_batch):
    """Hypothesis.attention is over its batch's padded source positions, as every other hypothesis's, the pooled
    batch's padding cut off or put back (0, a masked position's weight)."""
    model, codec = models["readable"], NumberWords()
    batches = list(translating.searched_batches(model, codec, sentences, SHORT, MAX_TOKENS, per_batch, True,
                                                Guides.of(len(sentences), None, None), Recording()))
    assert sorted(i for batch in batches for i in batch.indices) == list(range(len(sentences)))
    for batch in batches:
        for i, hypotheses in zip(batch.indices, batch.hypotheses, strict=True):
            length = len(codec.encode(sentences[i]))
            for h in hypotheses:
                assert h.attention.size(-1) == batch.src.size(1) and not h.attention[:, length:].any()


def test_the_retries_of_several_batches_are_one_search_a_term_width(models, monkeypatch):
    """A sentence with two numbers to write is searched with a wider beam (batch_search.term_beam: 1 + its term
    pieces): the retries of three batches are two beam searches, one a width, not three."""
    widths, beam_search = [], batch_search.beam_search

    def counted(model, src, decoding, **more):
        if any(more.get("terms") or []) and not decoding.no_repeat_ngram_size:  # not a looped one's search again
            widths.append((decoding.beam_size, src.size(0)))
        return beam_search(model, src, decoding, **more)

    monkeypatch.setattr(batch_search, "beam_search", counted)
    sentences = [sentence.replace("The river is 12", "3 boys and 7") for sentence in SENTENCES]
    translating.translate(models["readable"], NumberWords(), sentences, SHORT, max_sentences=3)
    assert widths == [(2, 2), (3, 1)]  # (beam, sentences): "3 boys" and "girls and 7"; "3 boys and 7"


def test_the_retries_held_are_searched_once_they_fill_a_batch_of_the_input(models, monkeypatch):
    """At most max_sentences retries a search: in batches of 2, the first two retries together, the third alone."""
    searched = searches_with_terms(monkeypatch)
    translating.translate(models["readable"], NumberWords(), SENTENCES, SHORT, max_sentences=2)
    assert searched == [["3 boys", "girls and 7"], ["The river is 12"]]


def test_at_most_held_batches_wait_for_their_retries(models, monkeypatch):
    """The encoder outputs of the batches held are what pooling keeps in memory: HELD_BATCHES of them at most."""
    monkeypatch.setattr(retry_pool, "HELD_BATCHES", 2)
    searched = searches_with_terms(monkeypatch)
    translating.translate(models["readable"], NumberWords(), SENTENCES, SHORT, max_sentences=3)
    assert searched == [RETRIED[:2], RETRIED[2:]]


def test_a_pooled_retry_that_fails_falls_back_to_each_batchs_own_and_a_sentence_failing_alone_costs_only_itself(
        models, monkeypatch):
    model, codec = models["readable"], NumberWords()
    alone = [translating.translate(model, codec, [sentence], SHORT)[0] for sentence in SENTENCES]
    searched, run_search = [], translating.run_search

    def fragile(model, src, decoding, scored, prefixes, terms, *rest):
        rows = [codec.decode([t for t in row if t != 0]) for row in src.tolist()]
        if any(terms):
            searched.append(rows)
            if "girls and 7" in rows:
                raise RuntimeError("the retry broke")
        return run_search(model, src, decoding, scored, prefixes, terms, *rest)

    monkeypatch.setattr(translating, "run_search", fragile)
    with pytest.raises(SentencesFailed) as failed:
        translating.translate(model, codec, SENTENCES, SHORT, max_sentences=3)
    assert list(failed.value.failures) == [SENTENCES.index("girls and 7")]
    assert failed.value.outputs == [text if sentence != "girls and 7" else "" for sentence, text in
                                    zip(SENTENCES, alone, strict=True)]
    # together; each batch's own; the failed batch's sentences alone, its own retry failing again
    assert searched == [RETRIED, ["3 boys"], ["girls and 7"], ["girls and 7"], ["The river is 12"]]


def test_a_model_that_searches_a_shortlist_retries_each_batch_at_once(models, monkeypatch):
    """A shortlist is each batch's own vocabulary, which a pooled search would not have: its retries go as before."""
    searched = searches_with_terms(monkeypatch)
    monkeypatch.setattr(translating, "shortlisted", lambda model: True)
    translating.translate(models["readable"], NumberWords(), SENTENCES, SHORT, max_sentences=3)
    assert searched == [[sentence] for sentence in RETRIED]


def test_sampling_searches_nothing_again(models, monkeypatch):
    searched = searches_with_terms(monkeypatch)
    sampled = Decoding(beam_size=1, sampling_topk=0, max_len_a=1.0, max_len_b=3)
    translating.translate(models["readable"], NumberWords(), SENTENCES, sampled, max_sentences=3)
    assert searched == []


@pytest.mark.parametrize("beam", [1, 2])
@pytest.mark.parametrize("kind", MODELS)
def test_misses_of_several_batches_searched_together_give_each_sentence_what_it_gets_alone(term_models, kind, beam):
    """Plain first's misses, and among them sentences that drop a number ("The river is 12"), in batches of one
    and of three: each translation is the sentence's alone."""
    model, codec = term_model_of(kind, term_models), NumberWords()
    decoding = Decoding(beam_size=beam, max_len_a=1.0, max_len_b=3)
    sentences = [*TERMED, "The river is 12", "girls and 7", "3 boys in park"]
    alone = [translating.translate(model, codec, [sentence], decoding, glossary=GLOSSARY)[0] for sentence in sentences]
    for per_batch in (1, 3):
        assert translating.translate(model, codec, sentences, decoding, max_sentences=per_batch,
                                     glossary=GLOSSARY) == alone
    assert all(any(term in text.split() for term in ("Fluss.", "km")) for text, sentence in
               zip(alone, sentences, strict=True) if sentence in MISSES)  # searched with their terms


@pytest.mark.parametrize("per_batch", [1, 3])
@pytest.mark.parametrize("kind", MODELS)
def test_a_miss_searched_together_records_the_attention_it_records_alone(term_models, kind, per_batch):
    """translate_assessed's word weights of every sentence weighed, from the attention each search records: a miss's
    is over its own batch's source positions, equal to its alone but for the last bits of a batch's products."""
    model, codec = term_model_of(kind, term_models), NumberWords()
    alone = [translate_assessed(model, codec, [sentence], [True], SHORT, glossary=GLOSSARY) for sentence in TERMED]
    texts, weights, _ = translate_assessed(model, codec, TERMED, [True] * len(TERMED), SHORT,
                                           max_sentences=per_batch, glossary=GLOSSARY)
    assert texts == [text for [text], _, _ in alone]
    for found, (_, [own], _) in zip(weights, alone, strict=True):
        assert found.shape == own.shape and torch.allclose(found, own, rtol=0.0, atol=1e-5)


def test_the_misses_of_three_batches_are_one_search_not_three(term_models, monkeypatch):
    searched = searches_with_terms(monkeypatch)
    translating.translate(term_models["readable"], NumberWords(), TERMED, SHORT, max_sentences=3, glossary=GLOSSARY)
    assert searched == [MISSES]


def test_the_misses_of_several_batches_are_first_searched_one_beam_search_a_term_width(term_models, monkeypatch):
    """"river and park run" brings two terms, a beam of 3; the other two one, a beam of 2: two beam searches, where
    each batch's own were three.  (Those with a term whose forms have rules may be searched again more freely after:
    term_fallback.)"""
    widths, beam_search = [], batch_search.beam_search

    def counted(model, src, decoding, **more):
        if any(more.get("terms") or []) and not decoding.no_repeat_ngram_size:  # not a looped one's search again
            widths.append((decoding.beam_size, src.size(0)))
        return beam_search(model, src, decoding, **more)

    monkeypatch.setattr(batch_search, "beam_search", counted)
    translating.translate(term_models["readable"], NumberWords(), TERMED, SHORT, max_sentences=3, glossary=GLOSSARY)
    assert widths[:2] == [(2, 2), (3, 1)]


def test_at_most_held_batches_wait_with_their_misses(term_models, monkeypatch):
    monkeypatch.setattr(retry_pool, "HELD_BATCHES", 2)
    searched = searches_with_terms(monkeypatch)
    translating.translate(term_models["readable"], NumberWords(), TERMED, SHORT, max_sentences=3, glossary=GLOSSARY)
    assert searched == [MISSES[:2], MISSES[2:]]


def test_a_model_that_searches_a_shortlist_searches_each_batchs_misses_at_once(term_models, monkeypatch):
    searched = searches_with_terms(monkeypatch)
    monkeypatch.setattr(translating, "shortlisted", lambda model: True)
    translating.translate(term_models["readable"], NumberWords(), TERMED, SHORT, max_sentences=3, glossary=GLOSSARY)
    assert searched == [[sentence] for sentence in MISSES]


def test_a_pooled_search_of_misses_that_fails_falls_back_to_each_batchs_own_then_to_each_sentence_alone(
        term_models, monkeypatch):
    model, codec = term_models["readable"], NumberWords()
    alone = [translating.translate(model, codec, [sentence], SHORT, glossary=GLOSSARY)[0] for sentence in TERMED]
    searched, run_search = [], translating.run_search

    def fragile(model, src, decoding, scored, prefixes, terms, *rest):
        rows = [codec.decode([t for t in row if t != 0]) for row in src.tolist()]
        if any(terms):
            searched.append(rows)
            if "boys in park" in rows:
                raise RuntimeError("the search with terms broke")
        return run_search(model, src, decoding, scored, prefixes, terms, *rest)

    monkeypatch.setattr(translating, "run_search", fragile)
    with pytest.raises(SentencesFailed) as failed:
        translating.translate(model, codec, TERMED, SHORT, max_sentences=3, glossary=GLOSSARY)
    assert list(failed.value.failures) == [TERMED.index("boys in park")]
    assert failed.value.outputs == [text if sentence != "boys in park" else "" for sentence, text in
                                    zip(TERMED, alone, strict=True)]
    # together; each batch's own; the failed batch's sentences alone, its own miss failing again
    assert searched == [MISSES, ["river run"], ["boys in park"], ["boys in park"], ["river and park run"]]
