"""What of a sentence ``translate`` is given the model does not read (attnmt.decoding.sentence_edges): a list's
mark and a terminal's codes at its edges, written back around its translation, and its soft hyphens, dropped, as
``attnmt translate`` (attnmt.documents.translate_text) keeps and drops them."""

import pytest

from attnmt.checkpoint import load_model_dir
from attnmt.decoding.sentence_edges import quoted_edges, read_sentences, sentence_edges
from attnmt.decoding.translate import translate, translate_n_best
from attnmt.documents import translate_text


@pytest.fixture(scope="module")
def loaded(trained_model):
    return load_model_dir(trained_model)


@pytest.mark.parametrize("sentence, edges", [
    ("- A dog runs.", ("- ", "A dog runs.", "")),
    ("  1)\tA girl sings.", ("  1)\t", "A girl sings.", "")),
    ("## \x1b[1mA man rides.\x1b[0m", ("## \x1b[1m", "A man rides.", "\x1b[0m")),
    ("\x1b[1m- A dog runs.\x1b[0m", ("\x1b[1m", "- A dog runs.", "\x1b[0m")),  # as a text line: no mark first
    ("-5 °C outside. A. Smith came.", ("", "-5 °C outside. A. Smith came.", "")),
    ("(2) A dog runs.", ("(2) ", "A dog runs.", "")),
    ("§ 3 A dog runs.", ("§ 3 ", "A dog runs.", "")),
    ("iv. A dog runs.", ("iv. ", "A dog runs.", "")),
    ("ANNA: Where are you going?", ("ANNA: ", "Where are you going?", "")),
    ("- DR. SMITH (V.O.):  Hello.", ("- DR. SMITH (V.O.):  ", "Hello.", "")),
    ("Q: How long?", ("Q: ", "How long?", "")),
    ("NOTE: Do not touch.", ("", "NOTE: Do not touch.", "")),  # a remark's word is translated
    ("I: went home. Anna: Hi.", ("", "I: went home. Anna: Hi.", "")),  # a letter alone; no capitals
    ("05:12 Interview with Anna", ("05:12 ", "Interview with Anna", "")),  # a podcast's chapter
    ("[00:00:05] INTERVIEWER: How?", ("[00:00:05] INTERVIEWER: ", "How?", "")),  # a transcript's time and label
    ("10:30 is late.", ("10:30 ", "is late.", "")),
])
def test_a_list_mark_a_speakers_label_and_the_codes_after_them_are_the_sentence_s_head(sentence, edges):
    assert sentence_edges(sentence) == edges
    assert "".join(sentence_edges(sentence)) == sentence


def test_the_model_reads_a_sentence_without_its_soft_hyphens_and_the_breaks_inside_its_words():
    """Between letters of a script written without spaces (Thai), a zero-width space parts words, and stays."""
    edges, read = read_sentences(["- A man is play\u00ading the gui\u00adtar.", "\u00ad",
                                  "A brown do\u200bg and a\u2060cat.", "ผม\u200bรัก"])
    assert read == ["A man is playing the guitar.", "", "A brown dog and acat.", "ผม\u200bรัก"]
    assert edges[0].head == "- "


LINES = ["- a dog runs", "1) a cat sleeps", "  * two dogs run", "a dog ru\u00adns", "## \x1b[1ma cat sleeps\x1b[0m",
         "two do\u200bgs run"]


def test_translate_keeps_a_list_mark_and_drops_soft_hyphens_as_the_command_does(loaded, reached):
    """The Python call gave the model "- a dog runs" whole and wrote the translation without its "-"; the soft
    hyphen reached the model inside its word."""
    model, tokenizer = loaded
    translated = translate(model, tokenizer, LINES)
    assert translated == translate_text(model, tokenizer, LINES)
    assert translated[:2] == ["- ein hund rennt", "1) eine katze schläft"]
    assert not {"\u00ad", "\u200b", "-"} & set("".join(reached))


def test_translate_keeps_a_speakers_label_as_the_command_does(loaded, reached):
    """The demo model wrote "ANNA: Where are you going?" without its name, and "Q: How long ...?" without its "Q:"."""
    model, tokenizer = loaded
    lines = ["ANNA: A dog runs", "- Q: A cat sleeps"]
    translated = translate(model, tokenizer, lines)
    assert translated == translate_text(model, tokenizer, lines)
    assert translated == ["ANNA: ein hund rennt", "- Q: eine katze schläft"]
    assert not {"ANNA", "Q"} & {word.strip(":").upper() for each in reached for word in each.split()}


def test_translate_keeps_the_names_that_take_turns_in_a_dialogue_as_the_command_does(loaded, reached):
    """"Anna:" / "Tom:" / "Anna:" were read as words by ``translate``, as by the command: the demo model lost them."""
    model, tokenizer = loaded
    lines = ["Anna: A dog runs", "Tom: A cat sleeps", "Anna: A dog runs"]
    translated = translate(model, tokenizer, lines)
    assert translated == translate_text(model, tokenizer, lines)
    assert translated == ["Anna: ein hund rennt", "Tom: eine katze schläft", "Anna: ein hund rennt"]
    assert not {"ANNA", "TOM"} & {word.strip(":").upper() for each in reached for word in each.split()}

def test_translate_keeps_a_dateline_and_a_name_before_a_number_and_translates_a_fields_name(loaded, reached):
    """The demo model lost "TOKYO, March 3 (Reuters):" and "ANNA:" of "ANNA: 3 MORE DAYS!" read with their words, and
    kept "BENEFITS:" in English as a speaker's name.  The name is translated alone now (it reaches the model), and the
    tiny model's translation of it, opening with an article the name lacks, is garbled: its source stands."""
    model, tokenizer = loaded
    lines = ["TOKYO, March 3 (Reuters): A dog runs", "ANNA: 3 DOGS RUN!", "BENEFITS: A dog runs"]
    translated = translate(model, tokenizer, lines)
    assert translated == translate_text(model, tokenizer, lines)
    assert translated[0].startswith("TOKYO, March 3 (Reuters): ") and translated[1].startswith("ANNA: ")
    assert translated[2] == "BENEFITS: ein hund rennt"
    read = {word.strip(":,").upper() for each in reached for word in each.split()}
    assert "BENEFITS" in read and not {"TOKYO", "REUTERS", "ANNA"} & read


def test_n_best_translations_keep_a_list_mark(loaded):
    model, tokenizer = loaded
    [hypotheses] = translate_n_best(model, tokenizer, ["- a dog runs"])
    assert hypotheses[0].text == "- ein hund rennt"


def test_a_run_of_symbols_the_vocabulary_cannot_write_at_a_sentence_s_edge_is_kept_around_it():
    writes = lambda text: text != "🎉"  # noqa: E731 - a vocabulary with no piece for "🎉"
    edges, read = read_sentences(["🎉 A dog runs. 🎉", "🎉 42", "A cat. →", "🎉A dog."], writes)
    assert [tuple(each) for each in edges] == [("🎉 ", "A dog runs.", " 🎉"), ("", "🎉 42", ""),
                                               ("", "A cat. →", ""), ("", "🎉A dog.", "")]
    assert read == ["A dog runs.", "🎉 42", "A cat. →", "🎉A dog."]


def test_translate_keeps_an_emoji_at_a_sentence_s_edge_as_the_command_does(loaded, reached):
    """The model read "🎉" as unknown and wrote nothing for it: the Python call lost it, the command kept it."""
    model, tokenizer = loaded
    lines = ["🎉 a dog runs", "a cat sleeps 👍🏽"]
    assert translate(model, tokenizer, lines) == ["🎉 ein hund rennt", "eine katze schläft 👍🏽"]
    assert [text for text in reached if text.strip()] == ["a dog runs", "a cat sleeps"]
    [hypotheses] = translate_n_best(model, tokenizer, lines[:1])
    assert hypotheses[0].text == "🎉 ein hund rennt" == translate_text(model, tokenizer, lines[:1])[0]


@pytest.mark.parametrize("sentence, edges", [
    ('"Two dogs play in the snow."', ('"', "Two dogs play in the snow.", '"')),
    ("  „Two dogs play.“ ", ("  „", "Two dogs play.", "“ ")),
    ("«Two dogs play.»", ("«", "Two dogs play.", "»")),
    ("(optional)", ("(", "optional", ")")),
    ("[DOOR SLAMS]", ("[", "DOOR SLAMS", "]")),
    ("‘It’s a dog.’", ("‘", "It’s a dog.", "’")),
])
def test_a_pair_of_quotes_or_brackets_around_a_whole_sentence_are_its_edges(sentence, edges):
    assert quoted_edges(sentence) == edges


@pytest.mark.parametrize("sentence", ['"Yes," he said, "go."', "(a) and (b)", '" a dog "', '"42"', "[a] and [b]"])
def test_quotes_that_wrap_no_whole_sentence_of_words_are_no_edges(sentence):
    assert quoted_edges(sentence) is None


def test_translate_reads_a_sound_description_without_its_square_brackets_and_writes_them_back(loaded, reached):
    """The demo model wrote "[DOOR SLAMS]" as "HÄNNER KRANKENSCHWESTERN", "[dog barking]" as "Wolbebebe…": the
    brackets that tell a viewer it is a sound, not speech, were lost."""
    model, tokenizer = loaded
    assert translate(model, tokenizer, ["[a dog runs]"]) == ["[ein hund rennt]"]
    assert reached == ["a dog runs"]


def test_translate_reads_a_quoted_sentence_without_its_quotes_and_writes_them_around_its_translation(loaded, reached):
    """The demo model read '"Two dogs play in the snow."' as "Auf dem Schnee.", its quotes and most words lost."""
    model, tokenizer = loaded
    lines = ['"a dog runs"', "(a cat sleeps)", "«two dogs run»"]
    assert translate(model, tokenizer, lines) == ['"ein hund rennt"', "(eine katze schläft)", "«zwei hunde rennen»"]
    assert reached == ["a dog runs", "a cat sleeps", "two dogs run"]
    assert translate_text(model, tokenizer, lines[:1]) == ['"ein hund rennt"']
    [hypotheses] = translate_n_best(model, tokenizer, lines[1:2])
    assert hypotheses[0].text == "(eine katze schläft)"
