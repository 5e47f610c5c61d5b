"""A multi-target Marian model (OPUS-MT en-ROMANCE, en-mul: ``>>de<<`` in its vocab.json, at the start
of each line) reads every sentence of a line with the line's language token, as it reads the line whole:
split into sentences, only the first held it before, and the others were translated into no language
the line asked for."""

import json
import os

import pytest
from support import write_random_marian

from attnmt.checkpoint import load_model_dir
from attnmt.decoding import Decoding
from attnmt.decoding.translate import translate, translate_n_best
from attnmt.documents.paragraphs import joined_alignment, sentence_traces, translate_texts_n_best
from attnmt.documents.pipeline import DocumentOptions, ModelTranslator, translate_lines
from attnmt.inspect.align import trace_alignment
from attnmt.inspect.trace import trace_translation
from attnmt.interop import marian_import

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # before transformers is imported: never reach the Hub
pytestmark = pytest.mark.filterwarnings("ignore:Recommended. pip install sacremoses")

LINE = ">>de<< a dog runs. a cat sleeps."
ALONE = [">>de<< a dog runs.", ">>de<< a cat sleeps."]  # each sentence as the line asks for it
DECODING = Decoding(beam_size=1, max_len_a=0, max_len_b=4)


@pytest.fixture(scope="module")
def multi_target(tmp_path_factory):
    """(model, tokenizer) of a random OPUS-MT-style Marian model whose vocab.json holds ``>>de<<``
    (its last ordinary piece renamed), imported."""
    folder = tmp_path_factory.mktemp("multi-target")
    hf_dir = write_random_marian(folder / "hf", two_models=True)
    vocab = json.loads((hf_dir / "vocab.json").read_text())
    last = [piece for piece in vocab if piece not in ("<pad>", "</s>", "<unk>")][-1]
    vocab[">>de<<"] = vocab.pop(last)
    (hf_dir / "vocab.json").write_text(json.dumps(vocab))
    return load_model_dir(marian_import.import_marian(hf_dir, folder / "attnmt"))


def test_the_tokenizer_knows_a_language_token_its_vocabulary_holds(multi_target):
    _, tokenizer = multi_target
    assert tokenizer.language_token(LINE) == ">>de<<"
    assert tokenizer.language_token(">>fr<< a dog runs.") == ""  # not in vocab.json: <unk>, no language
    assert tokenizer.language_token("a dog runs.") == ""


class Recording(ModelTranslator):
    """A ModelTranslator that keeps the sentences it was sent."""

    sent: list[str]

    def translate(self, sentences, weighed):
        self.sent = list(sentences)
        return super().translate(sentences, weighed)


def test_each_sentence_of_a_line_is_translated_as_it_is_alone_with_the_language_token(multi_target):
    model, tokenizer = multi_target
    translator = Recording(model, tokenizer, DECODING)
    assert translate_lines([LINE], translator) == [" ".join(translate(model, tokenizer, ALONE, DECODING))]
    assert translator.sent == ALONE


def test_a_split_lines_log_prob_is_the_sum_of_its_sentences_each_read_with_the_token(multi_target):
    model, tokenizer = multi_target
    alone = [found[0] for found in translate_n_best(model, tokenizer, ALONE, DECODING)]
    [paragraph] = translate_texts_n_best(model, tokenizer, [LINE], DECODING, DocumentOptions())
    assert paragraph.sentences == ALONE
    best = paragraph.hypotheses[0]
    assert best.text == " ".join(t.text for t in alone)
    assert best.log_prob == pytest.approx(sum(t.log_prob for t in alone), abs=1e-4)


def test_the_alignment_numbers_the_texts_words_the_token_a_word_of_each_lines_first_sentence_only(multi_target):
    model, tokenizer = multi_target
    text = f"{LINE}\n{LINE}"  # the second line's token is no word of the first line's second sentence
    [paragraph] = translate_texts_n_best(model, tokenizer, [text], DECODING, DocumentOptions())
    assert paragraph.sentences == [*ALONE, *ALONE]
    pairs = joined_alignment(paragraph, 0, sentence_traces(model, tokenizer, paragraph, 0))
    first, second = paragraph.sentence_translations(0)[:2]
    alone = [trace_alignment(trace_translation(model, tokenizer, sentence, target=translation, warn=False))
             for sentence, translation in zip(ALONE, [first, second], strict=True)]
    # Words 0 and 7 of the text are its tokens; a line's second sentence is its words 4 to 6.
    n, m = len(LINE.split()), len(f"{first} {second}".split())
    expected = {(s + n * k, t + m * k) for k in (0, 1) for s, t in alone[0]} | {
        (s + 3 + n * k, t + len(first.split()) + m * k) for k in (0, 1) for s, t in alone[1] if s > 0}
    assert set(pairs) == expected
