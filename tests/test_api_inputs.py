"""What a Python caller passes to translate and the document functions: wrong types get one clear
error naming the argument, not a wrong result or a traceback from deep inside."""

import re
import warnings
from functools import partial

import numpy as np
import pytest
import torch
from support import CharTokenizer, ending_model, some_features

from attnmt.decoding import Decoding
from attnmt.decoding.elsewhere import assess_elsewhere
from attnmt.decoding.inputs import fits_and_writes
from attnmt.decoding.quality import Assessor, assess, flags_of, low_quality_threshold
from attnmt.decoding.teacher_forcing import score_pair
from attnmt.decoding.translate import translate, translate_n_best
from attnmt.documents import (
    translate_file,
    translate_html,
    translate_html_texts,
    translate_subtitles,
    translate_text,
    translate_xml,
)
from attnmt.documents.files import translate_file_bytes
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.review import model_review, reviewing
from attnmt.documents.translators import FoundTranslations, ModelTranslator
from attnmt.errors import AttnmtWarning, ConfigError, DataError, UserError
from attnmt.inspect.align import align, align_batched, translate_with_weights
from attnmt.inspect.trace import trace_translation
from attnmt.model import Transformer, TransformerConfig
from attnmt.server.models import ServedModel
from attnmt.text.tokenizer import Tokenizer


@pytest.mark.parametrize("search", [translate, translate_n_best])
def test_one_string_is_refused_not_translated_a_character_a_line(search):
    with pytest.raises(ConfigError, match=r"^sentences: expected a list of texts, got str; pass \[text\] for one$"):
        search(ending_model(), CharTokenizer(), "a cat")


@pytest.mark.parametrize("search", [translate, translate_n_best])
def test_a_sentence_with_a_terminal_s_codes_is_warned_of_naming_what_carries_them(search):
    """The model read "\x1b[31m" as words ("Acht Inline-...") without a word to the caller; translate_text
    and ``attnmt translate`` take the codes out and wrap their words' translation in them."""
    with pytest.warns(AttnmtWarning, match=r"terminal's escape codes .* attnmt\.translate keeps them"):
        search(ending_model(), CharTokenizer(), ["a cat", "a \x1b[31mred\x1b[0m cat"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        search(ending_model(), CharTokenizer(), ["a cat", "a red cat\x07"])


def test_a_terminal_s_codes_at_a_sentence_s_edges_go_around_its_translation_as_the_cli_keeps_them():
    """The model read a bold line's "\x1b[1m" as words, and the caller lost the codes; ``attnmt translate``
    wrote "\x1b[1mEin Hund rennt im Park.\x1b[0m" for "\x1b[1mA dog runs in the park.\x1b[0m"."""
    [plain, coded] = translate(ending_model(), CharTokenizer(), ["a cat", "\x1b[1ma cat\x1b[0m"])
    assert plain and coded == f"\x1b[1m{plain}\x1b[0m"
    plain_best, coded_best = translate_n_best(ending_model(), CharTokenizer(), ["a cat", "\x1b[31ma cat\x1b(B\x1b[m"],
                                              Decoding(beam_size=2, n_best=2))
    assert [h.text for h in coded_best] == [f"\x1b[31m{h.text}\x1b(B\x1b[m" for h in plain_best]


@pytest.mark.parametrize("search", [translate, translate_n_best, partial(translate_with_weights, weighed=[True])])
@pytest.mark.parametrize("model", [None, "models/de-en", CharTokenizer()])
def test_a_model_that_is_no_transformer_is_named(search, model):
    """None was an AttributeError naming ``config``, from deep inside the search."""
    with pytest.raises(ConfigError, match=rf"^model: expected an attnmt Transformer, got {type(model).__name__}; "
                                          r"e.g. model, tokenizer = load_model_dir\(path\)$"):
        search(model, CharTokenizer(), ["a cat"])


@pytest.mark.parametrize("search", [translate, translate_n_best])
def test_a_compiled_transformer_translates_as_the_transformer_it_wraps(search):
    """``torch.compile(model)`` hands every attribute on to the Transformer; the check that the model
    is one refused it ("got OptimizedModule").  The wrapper compiles nothing until it is called."""
    model = ending_model()
    assert search(torch.compile(model), CharTokenizer(), ["a cat"]) == search(model, CharTokenizer(), ["a cat"])


def written(path, text):
    path.write_text(text, encoding="utf-8")
    return path


# Every public function that takes a model, called with ``model`` and ``tokenizer`` (and a folder for
# files), giving what two calls can be compared by.
TAKE_A_MODEL = {
    "assess": lambda model, tok, _: assess(model, tok, ["a dog runs"], ["ein hund läuft"]),
    "Assessor.assess": lambda model, tok, _: Assessor().assess(model, tok, ["a dog runs"], ["ein hund läuft"]),
    "score_pair": lambda model, tok, _: score_pair(model, tok.encode("a dog"), tok.encode_target("ein hund")).probs,
    "translate_text": lambda model, tok, _: translate_text(model, tok, ["a dog runs. the cat sleeps."]),
    "translate_html": lambda model, tok, _: translate_html(model, tok, "<p>a <b>dog</b> runs</p>"),
    "translate_html_texts": lambda model, tok, _: translate_html_texts(model, tok, ["<p>a dog</p>", "the cat"]),
    "translate_xml": lambda model, tok, _: translate_xml(model, tok, "<p>a <b>dog</b> runs</p>"),
    "translate_subtitles": lambda model, tok, _: translate_subtitles(
        model, tok, "1\n00:00:01,000 --> 00:00:02,000\na dog runs\n"),
    "translate_file": lambda model, tok, folder: translate_file(
        model, tok, written(folder / "in.txt", "a dog runs\n"), folder / "out.txt") or (folder / "out.txt").read_text(),
    "model_review": lambda model, tok, _: model_review(model, tok).assess(["a dog runs"], ["ein hund läuft"]),
    "ModelTranslator": lambda model, tok, _: ModelTranslator(model, tok).translate(["a dog runs"], [False]),
    "trace_translation": lambda model, tok, _: trace_translation(model, tok, "a dog runs").cross.tolist(),
    "align": lambda model, tok, _: align(model, tok, ["a dog runs"], ["ein hund läuft"]),
    "align_batched": lambda model, tok, _: align_batched(model, tok, ["a dog runs"], ["ein hund läuft"]),
}


@pytest.fixture(scope="module")
def small_model() -> tuple[Transformer, Tokenizer]:
    """An untrained, seeded model with a SentencePiece tokenizer: what every function of TAKE_A_MODEL reads."""
    tokenizer = Tokenizer.train(["a dog runs", "ein hund läuft", "the cat sleeps", "die katze schläft"] * 4, 31)
    torch.manual_seed(0)
    config = TransformerConfig(vocab_size=tokenizer.vocab_size, d_model=16, n_heads=2, encoder_layers=1,
                               decoder_layers=1, d_ff=32, max_positions=32)
    return Transformer(config).eval(), tokenizer


@pytest.mark.parametrize("call", TAKE_A_MODEL.values(), ids=TAKE_A_MODEL.keys())
@pytest.mark.parametrize("model", [None, "models/de-en"])
def test_every_function_that_takes_a_model_names_one_that_is_no_transformer(call, model, small_model, tmp_path):
    """Only translate, translate_n_best and prepare said so: the others failed with an AttributeError
    naming ``config`` from deep inside, or (model_review, ModelTranslator) at the first sentence."""
    with pytest.raises(ConfigError, match=rf"^model: expected an attnmt Transformer, got {type(model).__name__}; "
                                          r"e.g. model, tokenizer = load_model_dir\(path\)$"):
        call(model, small_model[1], tmp_path)


# Every public function that takes a tokenizer: those that take a model, but score_pair (token ids), and the searches.
TAKE_A_TOKENIZER = {**{name: call for name, call in TAKE_A_MODEL.items() if name != "score_pair"},
                    "translate": lambda model, tok, _: translate(model, tok, ["a dog runs"]),
                    "translate_n_best": lambda model, tok, _: translate_n_best(model, tok, ["a dog runs"]),
                    "translate_with_weights": lambda model, tok, _: translate_with_weights(model, tok, ["a dog runs"],
                                                                                           [True])}


@pytest.mark.parametrize("call", TAKE_A_TOKENIZER.values(), ids=TAKE_A_TOKENIZER.keys())
@pytest.mark.parametrize("tokenizer", [None, "models/de-en/spm.model"])
def test_every_function_that_takes_a_tokenizer_names_one_that_is_none(call, tokenizer, small_model, tmp_path):
    """None was an AttributeError naming ``encode`` from deep inside, and a SentencePiece model's path
    was read by str.encode, the sentence as the name of a codec: "unknown encoding: a dog runs"."""
    with pytest.raises(ConfigError, match=rf"^tokenizer: expected an attnmt tokenizer, got {type(tokenizer).__name__}; "
                                          r"e.g. model, tokenizer = load_model_dir\(path\)$"):
        call(small_model[0], tokenizer, tmp_path)


@pytest.mark.parametrize("make", [lambda model: model_review(model, None), lambda model: ModelTranslator(model, None)],
                         ids=["model_review", "ModelTranslator"])
def test_a_review_and_a_model_translator_refuse_a_tokenizer_that_is_none_when_made(make, small_model):
    """They took None, and refused it only at the first sentence assessed or translated: after the
    document was read and parsed."""
    with pytest.raises(ConfigError, match=r"^tokenizer: expected an attnmt tokenizer, got NoneType; "):
        make(small_model[0])


@pytest.mark.parametrize("call", TAKE_A_MODEL.values(), ids=TAKE_A_MODEL.keys())
def test_every_function_that_takes_a_model_takes_a_compiled_one_as_the_model_it_wraps(call, small_model, tmp_path):
    model, tokenizer = small_model
    assert call(torch.compile(model), tokenizer, tmp_path) == call(model, tokenizer, tmp_path)


@pytest.mark.parametrize("translate_list, name", [(translate_text, "lines"), (translate_html_texts, "texts")])
def test_one_string_is_refused_where_documents_take_a_list(translate_list, name):
    with pytest.raises(ConfigError, match=rf"^{name}: expected a list of texts, got str; pass \[text\] for one$"):
        translate_list(ending_model(), CharTokenizer(), "<p>a cat</p>")


@pytest.mark.parametrize("aligner", [align, align_batched])
def test_one_string_is_refused_where_alignments_take_lists(aligner):
    with pytest.raises(ConfigError, match=r"^sources: expected a list of texts, got str; pass \[text\] for one$"):
        aligner(ending_model(), CharTokenizer(), "a cat", "a cat")
    with pytest.raises(ConfigError, match=r"^sources and translations: got 2 sources and 1 translations; give one"):
        aligner(ending_model(), CharTokenizer(), ["a cat", "a dog"], ["a cat"])


@pytest.mark.parametrize("sentences, error, message", [
    (["a cat", None], ConfigError, r"^sentences\[1\]: expected a str, got NoneType$"),
    ([3], ConfigError, r"^sentences\[0\]: expected a str, got int$"),
    (["a \ud800 cat"], DataError, r"^sentences\[0\] is not valid Unicode"),
    ([b"a \xff"], DataError, r"^sentences\[0\]: not UTF-8 \(byte 2\)$"),
])
def test_an_item_that_is_no_text_is_named_by_its_index(sentences, error, message):
    with pytest.raises(error, match=message):
        translate(ending_model(), CharTokenizer(), sentences)


def test_utf8_bytes_are_read_as_their_text():
    model = ending_model()
    assert translate(model, CharTokenizer(), [b"a cat"]) == translate(model, CharTokenizer(), ["a cat"])


def test_one_text_in_utf8_bytes_is_read_as_its_text():
    model, tokenizer, text = ending_model(), CharTokenizer(), "1\n00:00:01,000 --> 00:00:02,000\na cat\n"
    assert translate_subtitles(model, tokenizer, text.encode()) == translate_subtitles(model, tokenizer, text)


@pytest.mark.parametrize("options, message", [
    ({"decoding": {"beam_size": 1}}, r"^decoding: expected attnmt.Decoding, got dict"),
    ({"max_tokens": 0}, r"^max_tokens must be a whole number of at least 1, got 0$"),
    ({"prefix": b"ab"}, r"^prefix: expected a str \(or one per sentence\), got bytes$"),
    ({"prefix": [3]}, r"^prefix\[0\]: expected a str or None, got int$"),
])
def test_options_of_the_wrong_type_are_named(options, message):
    with pytest.raises(ConfigError, match=message):
        translate(ending_model(), CharTokenizer(), ["a cat"], **options)


@pytest.mark.parametrize("function, text, options, message", [
    (translate_text, ["a cat"], {"decoding": {"beam_size": 1}}, r"^decoding: expected attnmt.Decoding, got dict; "),
    (translate_text, ["a cat"], {"options": {"split": False}},
     r"^options: expected attnmt.documents.DocumentOptions, got dict; e.g. DocumentOptions\(split=False\)$"),
    (translate_html_texts, ["a cat"], {"glossary": ["cat"]}, r"^glossary: expected a Glossary"),
    (translate_html, ["<p>a cat</p>"], {}, r"^text: expected a str, got list$"),
    (translate_xml, None, {}, r"^text: expected a str, got NoneType$"),
    (translate_subtitles, b"1\n\xff", {}, r"^text: not UTF-8 \(byte 2\)$"),
    (trace_translation, "a cat", {"target": b"a \xff"}, r"^target: not UTF-8 \(byte 2\)$"),
    (translate_html, "<p>a \ud800</p>", {}, r"^text is not valid Unicode"),
    (trace_translation, ["a cat"], {}, r"^sentence: expected a str, got list$"),
    (trace_translation, "a cat", {"target": ["a cat"]}, r"^target: expected a str, got list$"),
    (trace_translation, "a cat", {"decoding": {"beam_size": 1}}, r"^decoding: expected attnmt.Decoding, got dict"),
])
def test_document_and_trace_arguments_of_the_wrong_type_are_named(function, text, options, message):
    with pytest.raises(UserError, match=message):
        function(ending_model(), CharTokenizer(), text, **options)


def test_translate_file_names_a_wrong_decoding_before_reading_the_file(tmp_path):
    with pytest.raises(ConfigError, match=r"^decoding: expected attnmt.Decoding, got dict"):
        translate_file(ending_model(), CharTokenizer(), tmp_path / "missing.txt", tmp_path / "out.txt", {"beam": 1})



@pytest.mark.parametrize("args, message", [
    ((b"a.txt", "out.txt"), r"^source: expected the path of a file \(a str or a pathlib.Path\), got b'a.txt'$"),
    (("a.txt", None), r"^output: expected the path of a file \(a str or a pathlib.Path\), got None$"),
])
def test_translate_file_names_a_path_of_the_wrong_type(args, message):
    with pytest.raises(ConfigError, match=message):  # bytes and None were TypeErrors from pathlib
        translate_file(ending_model(), CharTokenizer(), *args)


@pytest.mark.parametrize("data, filename, options, message", [
    ("a cat", "a.txt", DocumentOptions(), r"^data: expected the file's bytes, got str; e.g. path.read_bytes\(\)$"),
    (b"a cat", b"a.txt", DocumentOptions(), r"^filename: expected a str, whose extension names the format, got b'a"),
    (b"a cat", "a.txt", None, r"^options: expected attnmt.documents.DocumentOptions, got NoneType; e.g. "),
])
def test_translate_file_bytes_names_an_argument_of_the_wrong_type(data, filename, options, message):
    translator = ModelTranslator(ending_model(), CharTokenizer())
    with pytest.raises(ConfigError, match=message):  # were an AttributeError and TypeErrors deep in the readers
        translate_file_bytes(data, filename, translator, options)


def handed(translator: str | None) -> object:
    """What a test hands as a translator: None; "model", a model itself; "ModelTranslator", one over it."""
    model = ending_model()
    return {"model": model, "ModelTranslator": ModelTranslator(model, CharTokenizer()), None: None}[translator]


NO_TRANSLATE = r"^translator: expected a Translator, with translate\(sentences, weighed\), got {}; a model goes in "
NO_OPTIONS = r"^options: expected attnmt\.documents\.DocumentOptions, got {}; e\.g\. DocumentOptions\(split=False\)$"


@pytest.mark.parametrize("translator, got", [(None, "NoneType"), ("model", "EndingModel")])
@pytest.mark.parametrize("name", ["a.txt", "a.docx"])
def test_translate_file_bytes_names_a_translator_without_translate(translator, got, name):
    message = NO_TRANSLATE.format(got) + r"attnmt\.documents\.translators\.ModelTranslator\(model, tokenizer\)$"
    with pytest.raises(ConfigError, match=message):  # was an AttributeError deep in the reader
        translate_file_bytes(b"a cat", name, handed(translator), DocumentOptions())


@pytest.mark.parametrize("suffix, translator, options, message", [
    (None, "ModelTranslator", DocumentOptions(), r"^suffix: expected a str, the file's extension \(\"\.docx\"\), "
                                                 r"got None$"),
    (".docx", None, DocumentOptions(), NO_TRANSLATE.format("NoneType")),
    (".docx", "model", DocumentOptions(), NO_TRANSLATE.format("EndingModel")),
    (".docx", "ModelTranslator", None, NO_OPTIONS.format("NoneType")),
    (".docx", "ModelTranslator", {"target_lang": "de"}, NO_OPTIONS.format("dict")),
])
def test_translate_office_names_an_argument_of_the_wrong_type(suffix, translator, options, message):
    from attnmt.documents.office import translate_office

    with pytest.raises(ConfigError, match=message):  # each was an AttributeError deep in the file
        translate_office(b"PK\x03\x04", suffix, handed(translator), options)


NO_PROGRESS = r"^progress: expected None or a function progress\(done, total\), got str 'yes'$"
NO_REVIEW = r"^review: expected None or a Review \(model_review\(model, tokenizer, \.\.\.\)\), got str 'r\.tsv'$"


@pytest.mark.parametrize("given, message", [({"progress": "yes"}, NO_PROGRESS), ({"review": "r.tsv"}, NO_REVIEW)])
@pytest.mark.parametrize("name", ["a.txt", "a.docx"])
def test_a_progress_or_review_of_the_wrong_type_is_named_before_any_translation(given, message, name):
    """progress="yes" was a TypeError ("'str' object is not callable") and a review of a path an
    AttributeError, once the first sentences were translated."""
    from attnmt.documents.office import translate_office

    translator = OwnTranslator()
    with pytest.raises(ConfigError, match=message):
        translate_file_bytes(b"a cat", name, translator, DocumentOptions(), **given)
    with pytest.raises(ConfigError, match=message):
        translate_office(b"PK\x03\x04", ".docx", translator, DocumentOptions(), **given)
    with pytest.raises(ConfigError, match=message):
        translate_file(ending_model(), CharTokenizer(), "missing.txt", "out.txt", **given)
    assert translator.given == []


@pytest.mark.parametrize("limit", [{"max_bytes": "10"}, {"max_bytes": 0}, {"progress_step": 0},
                                   {"progress_step": 1.5}, {"progress_step": True}])
def test_translate_file_bytes_names_a_limit_that_is_no_whole_number_of_at_least_1(limit):
    """A progress_step of 0 was a ValueError from range() once the file was parsed, and max_bytes="10" a TypeError."""
    [(name, value)] = limit.items()
    message = rf"^{name}: expected a whole number of at least 1, got {re.escape(repr(value))}$"
    with pytest.raises(ConfigError, match=message):
        translate_file_bytes(b"a cat", "a.txt", OwnTranslator(), DocumentOptions(), progress=print, **limit)


def test_translate_file_bytes_takes_whole_limits_of_any_numeric_type():
    told = []
    out = translate_file_bytes(b"a cat", "a.txt", OwnTranslator(), DocumentOptions(),
                               lambda *counts: told.append(counts), max_bytes=np.int64(10), progress_step=1.0)
    assert out == b"a cat" and told == [(0, 1), (1, 1)]


class OwnTranslator:
    """Every sentence translated as itself; records what it was given."""

    def __init__(self) -> None:
        self.given: list[str] = []

    def translate(self, sentences, weighed):
        self.given += sentences
        return list(sentences), [None] * len(sentences)


@pytest.mark.parametrize("given, message", [
    ({"weigh": "yes"}, "weigh: expected None or a function weigh(sentence, translation), got str 'yes'"),
    ({"weigh": True}, "weigh: expected None or a function weigh(sentence, translation), got bool True"),
    ({"fits": 9}, "fits: expected None or a function fits(sentence), got int 9"),
    ({"writes": "abc"}, "writes: expected None or a function writes(symbol), got str 'abc'"),
    ({"glossary": ["cat", "Katze"]}, "glossary: expected a Glossary (read_glossary(path), Glossary.of(terms)) or a "
                                     "dict {\"source term\": \"target term\"}, got list ['cat', 'Katze']"),
    ({"translations": [("A cat.", "Eine Katze.")]}, "translations: expected a dict, sentence -> translation, got list"),
])
def test_found_translations_name_an_argument_of_the_wrong_type_when_made(given, message):
    """weigh="yes" was taken, and failed as "'str' object is not callable" once a mark needed weights."""
    with pytest.raises(ConfigError, match=f"^{re.escape(message)}$"):
        FoundTranslations(**{"translations": {"A cat.": "Eine Katze."}, **given})


def test_found_translations_take_a_glossary_given_as_a_dict_of_terms_as_the_translator_protocol_says():
    """A dict {source term: target term} worked as the Translator protocol says, until a check refused it."""
    from attnmt.decoding.glossary import Glossary
    from attnmt.documents.pipeline import DocumentOptions, translate_paragraphs

    found = FoundTranslations({"Hello.": "Hallo."}, glossary={"12/34": "12.34"})
    assert isinstance(found.glossary, Glossary)
    assert translate_paragraphs(["Hello.", "12/34"], found, DocumentOptions()) == ["Hallo.", "12.34"]


@pytest.mark.parametrize("translator", [None, OwnTranslator()])
def test_a_review_of_no_model_translator_is_named(translator):
    message = (rf"^translator: reviewing\(\) assesses from a ModelTranslator's own search, got "
               rf"{type(translator).__name__}; for another translator, use model_review\(model, tokenizer, ...\)")
    with pytest.raises(ConfigError, match=message):
        reviewing(translator, min_quality=0.5)  # was an AttributeError: no max_tokens


@pytest.mark.parametrize("max_sentences", ["2", -1, 1.5, True])
def test_a_max_sentences_that_is_no_count_is_named(max_sentences):
    with pytest.raises(ConfigError, match=rf"^max_sentences must be a whole number of at least 0 \(0: no limit\) "
                                          rf"or None \(what suits the search\), got {re.escape(repr(max_sentences))}$"):
        translate(ending_model(), CharTokenizer(), ["a cat"], max_sentences=max_sentences)


def test_numpy_counts_are_taken_as_the_ints_they_are():
    model, tokenizer = ending_model(), CharTokenizer()
    expected = translate(model, tokenizer, ["a cat", "a dog"], max_tokens=64, max_sentences=1)
    assert translate(model, tokenizer, ["a cat", "a dog"], max_tokens=np.int64(64),
                     max_sentences=np.int32(1)) == expected


@pytest.mark.parametrize("call", [
    lambda: align_batched(ending_model(), CharTokenizer(), ["a cat"], ["a cat"], max_tokens=0),
    lambda: translate_with_weights(ending_model(), CharTokenizer(), ["a cat"], [True], max_tokens=0),
    lambda: ModelTranslator(ending_model(), CharTokenizer(), max_tokens=0),
])
def test_a_max_tokens_under_1_is_named_wherever_it_is_given(call):
    with pytest.raises(ConfigError, match=r"^max_tokens must be a whole number of at least 1, got 0$"):
        call()


@pytest.mark.parametrize("min_quality", [2, -1, "0.5", float("nan")])
def test_a_review_threshold_outside_0_to_1_is_named(min_quality):
    got = re.escape(repr(min_quality))
    message = rf"^min_quality: expected a number from 0 to 1 \(or None: the calibration's\), got {got}$"
    with pytest.raises(ConfigError, match=message):
        model_review(ending_model(), CharTokenizer(), min_quality=min_quality)
    with pytest.raises(ConfigError, match=message):
        reviewing(ModelTranslator(ending_model(), CharTokenizer()), min_quality=min_quality)


THRESHOLD = r"^threshold: expected a number from 0 to 1 \(or None: the calibration's\), got "
CALIBRATION = r"^calibration: expected attnmt.decoding.calibration.load_calibration's result \(or None\), got str"


@pytest.mark.parametrize("given, message", [
    ({"calibration": "model/calibration.json"}, CALIBRATION + r"; pass load_calibration\(model_dir\)$"),
    ({"source_below": "no"}, r"^source_below: expected True or False, got 'no'$"),
])
def test_a_review_names_a_calibration_or_source_below_it_cannot_take(given, message):
    """A calibration's path was an AttributeError ("'str' object has no attribute 'threshold'"), and
    source_below="no" was taken as true: every source under the threshold written into the document."""
    with pytest.raises(ConfigError, match=message):
        model_review(ending_model(), CharTokenizer(), **given)
    with pytest.raises(ConfigError, match=message):
        reviewing(ModelTranslator(ending_model(), CharTokenizer()), **given)


def document_parts():
    """The lower-level document functions that take a translator, options and a review (docs/documents.md)."""
    from attnmt.documents.markup import translate_markup
    from attnmt.documents.pipeline import translate_lines
    from attnmt.documents.subtitles import translate_subtitle_text

    return {"translate_lines": partial(translate_lines, ["a cat"]),
            "translate_markup": partial(translate_markup, ["<p>a cat</p>"]),
            "translate_subtitle_text": partial(translate_subtitle_text, "1\n00:00:01,000 --> 00:00:02,000\na cat\n")}


@pytest.mark.parametrize("function", ["translate_lines", "translate_markup", "translate_subtitle_text"])
@pytest.mark.parametrize("translator, options, review, message", [
    (None, DocumentOptions(), None, NO_TRANSLATE.format("NoneType")),
    ("own", {"split": False}, None, NO_OPTIONS.format("dict")),
    ("own", DocumentOptions(), "r.tsv", NO_REVIEW),
])
def test_the_lower_document_functions_name_an_argument_of_the_wrong_type(function, translator, options, review,
                                                                          message):
    """Each was an AttributeError from deep in the document ('NoneType' object has no attribute
    'translate', 'str' object has no attribute 'check')."""
    own = OwnTranslator()
    with pytest.raises(ConfigError, match=message):
        document_parts()[function](own if translator == "own" else translator, options, review=review)
    assert own.given == []


@pytest.mark.parametrize("function, text", [("translate_lines", "a cat"), ("translate_markup", "<p>a cat</p>")])
def test_one_string_is_refused_by_the_lower_document_functions_taking_lists(function, text):
    """translate_lines("a cat") was translated a character a line: ['A', ' ', 'C', 'A', 'T']."""
    name = "lines" if function == "translate_lines" else "texts"
    with pytest.raises(ConfigError, match=rf"^{name}: expected a list of texts, got str; pass \[text\] for one$"):
        document_parts()[function].func(text, OwnTranslator())


@pytest.mark.parametrize("options, message", [
    ({"threshold": "0.5"}, THRESHOLD + "'0.5'$"),
    ({"threshold": 2}, THRESHOLD + "2$"),
    ({"calibration": "runs/en_de"}, CALIBRATION + r"; pass load_calibration\(model_dir\)$"),
    ({"max_tokens": -1}, r"^max_tokens must be a whole number of at least 1, got -1$"),
])
def test_an_assessing_option_it_cannot_take_is_named_before_any_pass(options, message):
    """"0.5" was a TypeError in flags_of and a path an AttributeError, after the pass; 2 flagged
    every translation low_quality and -1 was taken."""
    model, tokenizer = ending_model(), CharTokenizer()
    for call in (lambda: assess(model, tokenizer, ["a cat"], ["a cat"], **options),
                 lambda: Assessor(**options),
                 lambda: assess_elsewhere(model, tokenizer, ["a cat"], ["a cat"], **{"calibration": None, **options})):
        with pytest.raises(ConfigError, match=message):
            call()


def test_a_quality_that_is_no_assessor_is_refused_before_the_search(monkeypatch):
    """quality=True was an AttributeError once the search had run."""
    monkeypatch.setattr("attnmt.decoding.translate.searched_batches", lambda *args: pytest.fail("searched"))
    with pytest.raises(ConfigError, match=r"^quality: expected an attnmt.Assessor \(or None\), got bool; e.g. "
                                          r"Assessor\(load_calibration\(model_dir\)\)$"):
        translate_n_best(ending_model(), CharTokenizer(), ["a cat"], quality=True)


@pytest.mark.parametrize("quality", [True, "x"])
def test_a_documents_quality_that_is_no_assessor_is_refused_on_construction(quality):
    """ModelTranslator(quality=True) was an AttributeError in translate(), once the search had run."""
    with pytest.raises(ConfigError, match=rf"^quality: expected an attnmt.Assessor \(or None\), got "
                                          rf"{type(quality).__name__}; "):
        ModelTranslator(ending_model(), CharTokenizer(), quality=quality)


def test_a_documents_quality_false_assesses_nothing_as_none_does():
    translator = ModelTranslator(ending_model(), CharTokenizer(), quality=False)
    assert translator.quality is None
    texts, _ = translator.translate(["a cat"], [False])
    assert texts == ModelTranslator(ending_model(), CharTokenizer()).translate(["a cat"], [False])[0]
    assert translator.assessed == {}


class TargetChars(CharTokenizer):
    """CharTokenizer's ids on the target side too: a character it has no letter for is unknown (1, unk_id)."""

    def encode_target(self, text: str) -> list[int]:
        return self.encode(text)


def test_a_translator_and_a_served_model_split_with_the_models_fits_and_writes_built_once():
    """ModelTranslator's and ServedModel's ``fits`` and ``writes`` are ``fits_and_writes``' for their
    model, as n-best paragraphs and ``attnmt score`` split with: built at their first use, then the
    same two functions at every use (both built new ones at each, each class in its own copy)."""
    model, tokenizer = ending_model(), TargetChars()
    pair, longest = fits_and_writes(model, tokenizer), model.config.longest_input  # 62 tokens: 62 letters
    for holder in (ModelTranslator(model, tokenizer), ServedModel(model, tokenizer)):
        assert holder.fits is holder.fits and holder.writes is holder.writes
        assert holder.fits("a" * longest) and pair.fits("a" * longest)
        assert not holder.fits("a" * (longest + 1)) and not pair.fits("a" * (longest + 1))
        assert holder.writes("a cat") and pair.writes("a cat")
        assert not holder.writes("\u00a9") and not pair.writes("\u00a9")  # an unknown piece: the symbol is kept


@pytest.mark.parametrize("threshold", [torch.tensor(0.5), np.array(0.5), np.float32(0.5)])
def test_a_threshold_held_in_a_0d_tensor_or_array_is_that_number(threshold):
    """torch.tensor(0.5) and np.array(0.5) were taken until the threshold was checked, then refused."""
    assessor = Assessor(threshold=threshold)
    assert low_quality_threshold(None, assessor.threshold) == 0.5
    assert flags_of(some_features(0), 0.4, None, threshold) == flags_of(some_features(0), 0.4, None, 0.5)
    assert "low_quality" in flags_of(some_features(0), 0.4, None, threshold)


@pytest.mark.parametrize("threshold", [torch.tensor(2.0), torch.tensor([0.5]), np.array("0.5"), torch.tensor(True)])
def test_a_tensor_or_array_threshold_that_is_no_number_from_0_to_1_is_refused(threshold):
    with pytest.raises(ConfigError, match=THRESHOLD):
        assess(ending_model(), CharTokenizer(), ["a cat"], ["a cat"], threshold=threshold)


@pytest.mark.parametrize("unwanted", [False, np.False_])
def test_quality_false_assesses_nothing_as_none_does(unwanted):
    """quality=wanted and Assessor(calibration) gives False when not wanted: taken as None, as it was."""
    model, tokenizer = ending_model(), CharTokenizer()
    found = translate_n_best(model, tokenizer, ["a cat"], Decoding(beam_size=2, n_best=2), quality=unwanted)
    assert found == translate_n_best(model, tokenizer, ["a cat"], Decoding(beam_size=2, n_best=2))
    assert [t.assessment for t in found[0]] == [None, None]


def test_a_prefix_that_is_not_valid_unicode_is_named():
    with pytest.raises(DataError, match=r"^prefix is not valid Unicode"):
        translate(ending_model(), CharTokenizer(), ["a cat"], decoding=Decoding(beam_size=1), prefix="\ud800")


def test_attributes_given_as_one_string_are_refused():
    with pytest.raises(ConfigError, match=r"^document option attributes: expected a tuple of names"):
        DocumentOptions(attributes="alt")


@pytest.mark.parametrize("option, message", [
    ({"source_lang": None}, r"source_lang: expected a language code such as 'en', 'de' or 'pt-BR' \(for the "
                            r"sentence splitter\), got None"),
    ({"source_lang": "english"}, r"source_lang: expected a language code such as 'en', .*, got 'english'"),
    ({"target_lang": 3}, r"target_lang: expected a language code such as 'de', 'fr' or 'pt-BR' \(or None: .*\), "
                         r"got 3"),
    ({"target_lang": "German"}, r"target_lang: expected a language code such as 'de', .*, got 'German'"),
    ({"target_lang": "de DE"}, r"target_lang: expected a language code such as 'de', .*, got 'de DE'"),
    ({"attributes": None}, r"attributes: expected a tuple of names, such as \('alt', 'title'\), got None"),
    ({"split": "no"}, r"split: expected true or false, got 'no'"),
    ({"macros": 1}, r"macros: expected true or false, got 1"),
])
def test_a_document_option_of_the_wrong_type_is_named(option, message):
    with pytest.raises(ConfigError, match=rf"^document option {message}$"):
        DocumentOptions(**option)


def test_a_target_language_code_is_written_as_bcp_47_writes_it_as_on_the_command_line():
    assert DocumentOptions(target_lang="de_DE").target_lang == "de-DE"
    assert DocumentOptions(target_lang="pt-BR", source_lang="en_US").source_lang == "en_US"  # sentencex reads it


def test_document_switches_and_attributes_are_read_as_bools_and_a_tuple():
    options = DocumentOptions(split=np.False_, macros=np.True_, attributes=(name for name in ["alt", "title"]))
    assert (options.split, options.macros, options.attributes) == (False, True, ("alt", "title"))
    assert type(options.split) is bool and type(options.macros) is bool


def test_a_whole_max_tokens_of_another_number_type_is_taken():
    model, tokenizer = ending_model(), CharTokenizer()
    assert translate(model, tokenizer, ["a cat"], max_tokens=4096.0) == translate(model, tokenizer, ["a cat"])
