"""An assessed translation's words are those of the text its user gets (attnmt.decoding.written_text): the model wrote
"Er ist im Wiese." for "He is in the meadow." with meadow -> Wiese, the text written is "Er ist in der Wiese."
(term_articles), and its words "in" and "der" each take the probability of the model's "im"."""

import re
import warnings

import pytest
import torch
from support import NamedPieces, TableModel

import attnmt
from attnmt.decoding import Decoding
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.quality import Assessment, Assessor
from attnmt.decoding.translate import translate_n_best
from attnmt.decoding.written_text import written_assessment, written_from
from attnmt.documents.paragraphs import translate_texts_n_best
from attnmt.documents.pipeline import DocumentOptions
from attnmt.inspect.align import translate_assessed

SENTENCE = "He is in the meadow."
# The model's own words and the probability it gives each, then its end: "Wiese." is "▁Wiese" and "."
SCRIPT = [("▁Er", 0.9), ("▁ist", 0.8), ("▁im", 0.7), ("▁Wiese", 0.6), (".", 0.75)]
WRITTEN = [("Er", 0.9), ("ist", 0.8), ("in", 0.7), ("der", 0.7), ("Wiese.", 0.45)]


class ContractionPieces(NamedPieces):
    """The pieces of "Er ist im Wiese.", its full stop one of its own; a source word is an unknown piece."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", *(piece for piece, _ in SCRIPT)]
    source_eos = False

    def encode(self, text: str) -> list[int]:
        return [1] * len(text.split())

    def pieces(self, text: str) -> list[str]:
        return ["<unk>"] * len(text.split())

    def source_spans(self, text: str) -> list[tuple[int, int]]:
        return [found.span() for found in re.finditer(r"\S+", text)]

    def target_spans(self, text: str) -> list[tuple[int, int]]:
        return [found.span() for found in re.finditer(r" ?[^ .]+|\.", text)]

    def encode_target(self, text: str) -> list[int]:
        pieces = [text[begin:end].replace(" ", "") for begin, end in self.target_spans(text)]
        return [self.PIECES.index(piece if piece == "." else f"▁{piece}") if piece == "." or f"▁{piece}" in self.PIECES
                else 1 for piece in pieces]


class AttendingTableModel(TableModel):
    """A TableModel whose passes also record cross-attention, spread evenly over the source, as quality reads it."""

    def decode(self, tgt_in, memory, src_mask, trace=None, cache=None):
        if trace is not None:
            batch, steps, source = tgt_in.size(0), tgt_in.size(1), memory.size(1)
            trace.cross.extend(torch.full((batch, self.config.n_heads, steps, source), 1.0 / source)
                               for _ in range(self.config.decoder_layers))
        return super().decode(tgt_in, memory, src_mask, trace, cache)


@pytest.fixture
def model() -> AttendingTableModel:
    """A German model that writes SCRIPT whatever the source, each piece with its probability, else its end."""
    ids = [ContractionPieces.PIECES.index(piece) for piece, _ in SCRIPT]
    table = {tuple(ids[:k]): {ids[k]: p, 3: 1.0 - p} for k, (_, p) in enumerate(SCRIPT)}
    return AttendingTableModel(table, len(ContractionPieces.PIECES), "de")


def searched(model, sentence: str) -> list:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        [[best]] = translate_n_best(model, ContractionPieces(), [sentence], Decoding(beam_size=2, alpha=0.0),
                                    glossary={"meadow": "Wiese"}, quality=Assessor())
    return best


def test_a_contraction_written_apart_gives_each_of_its_words_its_probability(model):
    best = searched(model, SENTENCE)
    assert best.text == "Er ist in der Wiese."
    assert best.assessment.words == WRITTEN


def test_a_sentence_in_capitals_has_the_words_of_its_translation_in_capitals(model):
    best = searched(model, SENTENCE.upper())
    assert best.text == "ER IST IN DER WIESE."
    assert best.assessment.words == [(word.upper(), p) for word, p in WRITTEN]


def test_a_quoted_sentences_words_are_those_of_its_translation_between_the_quotes(model):
    """The model read the sentence without its quotes (capitals.read_as), and each word was reported between them."""
    best = searched(model, f'"{SENTENCE}"')
    assert best.text == '"Er ist in der Wiese."'
    assert best.assessment.words == [('"Er', 0.9), *WRITTEN[1:-1], ('Wiese."', 0.45)]


def test_the_packages_n_best_words_are_those_of_the_text_it_writes(model):
    """attnmt.translate_n_best writes a translation as its sentence ends (attnmt.documents.sentence_translate)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        [[best]] = attnmt.translate_n_best(model, ContractionPieces(), [SENTENCE.rstrip(".")],
                                           Decoding(beam_size=2, alpha=0.0), glossary={"meadow": "Wiese"},
                                           quality=Assessor())
    assert best.text == "Er ist in der Wiese"
    assert best.assessment.words == [*WRITTEN[:-1], ("Wiese", 0.45)]


def test_a_documents_assessed_translation_has_the_words_of_its_text(model):
    """Documents are translated and assessed by attnmt.inspect.align's search (ModelTranslator)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        [text], [weights], [assessment] = translate_assessed(
            model, ContractionPieces(), [SENTENCE], [True], Decoding(beam_size=2, alpha=0.0),
            glossary={"meadow": "Wiese"}, quality=Assessor())
    assert text == "Er ist in der Wiese."
    assert assessment.words == WRITTEN and len(weights) == len(WRITTEN)


def test_a_paragraphs_words_take_those_of_its_sentences_as_written(model):
    """A text's words are read from its sentences' (text_words): "Wiese." had None, "der" its probability."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        [paragraph] = translate_texts_n_best(model, ContractionPieces(), [SENTENCE], Decoding(beam_size=2, alpha=0.0),
                                             DocumentOptions(), Glossary.of({"meadow": "Wiese"}), quality=Assessor())
    assert paragraph.hypotheses[0].text == "Er ist in der Wiese."
    assert paragraph.hypotheses[0].assessment.words == WRITTEN


@pytest.mark.parametrize("text, written", [
    ("He is in the meadow", [*WRITTEN[:-1], ("Wiese", 0.45)]),  # a text with no stop is written with none
    ("He is in the meadow!", [*WRITTEN[:-1], ("Wiese!", 0.45)]),
    ("He is in the meadow! He is in the meadow.", [*WRITTEN[:-1], ("Wiese!", 0.45), *WRITTEN]),
])
def test_a_paragraphs_word_whose_end_mark_the_text_changed_keeps_its_probability(model, text, written):
    """The text ends as its source does: the model's "Wiese." was looked for as it is, and "der" took its
    probability (0.315) and "Wiese" none, or it was found in the next sentence, whose words then had none."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        [paragraph] = translate_texts_n_best(model, ContractionPieces(), [text], Decoding(beam_size=2, alpha=0.0),
                                             DocumentOptions(), Glossary.of({"meadow": "Wiese"}), quality=Assessor())
    assert paragraph.hypotheses[0].assessment.words == written


def test_each_written_word_is_numbered_by_the_model_word_it_was_written_from():
    assert written_from("Er ist im Wiese.", "ER IST IN DER WIESE.") == [0, 1, 2, 2, 3]
    assert written_from("Er saß auf einem Wiese.", "Er saß auf einer Wiese.") == [0, 1, 2, 3, 4]
    assert written_from("Er geht ins große Garten.", "Er geht in den großen Garten.") == [0, 1, 2, 2, 3, 4]
    assert written_from("Im Wiese saß er.", "„IN DER WIESE SASS ER.“") == [0, 0, 1, 2, 3]


def test_a_word_added_where_the_model_wrote_none_is_written_from_none():
    assert written_from("Er ist im Wiese.", "Er ist im 😀 Wiese.") == [0, 1, 2, None, 3]
    words = Assessment(0.5, [], False, [("Er", 0.9), ("saß.", 0.5)])
    assert written_assessment(words, "Er saß.", "Er 😀 saß.").words == [("Er", 0.9), ("😀", None), ("saß.", 0.5)]


def test_an_assessment_of_other_words_is_kept_as_it_is():
    """An empty translation's (quality.empty_translation) has none, and no words to map."""
    empty = Assessment(0.0, ["empty"], False)
    assert written_assessment(empty, "Er saß.", "Er saß.") is empty and written_assessment(None, "", "") is None
