"""The sentence splitter (attnmt.documents.sentences) breaks no glossary term in two: each sentence's
terms are matched in it alone, so "the Wham! Guide" split after "Wham!" required the term of
neither half, and the translation came without it, silently.  Every path splits in
``sentence_spans``, so a line of plain text, a page of HTML and a Word file keep the term whole alike.
``same`` (conftest): each sentence translated as itself, the sentences it was given recorded."""

from types import SimpleNamespace

import docx
import pytest
from office_files import docx_bytes
from support import at_most, srt

from attnmt.decoding.glossary import Glossary
from attnmt.documents.markup import translate_markup
from attnmt.documents.office import translate_office
from attnmt.documents.paragraphs import assess_lines, line_pairs
from attnmt.documents.pipeline import DocumentOptions, paragraph_sentences, translate_lines, translator_fits
from attnmt.documents.sentences import sentence_spans
from attnmt.documents.subtitles import translate_subtitle_text
from attnmt.errors import AttnmtWarning

OPTIONS = DocumentOptions()
TERMS = Glossary.of({"Wham! Guide": "Wham! Guide", "We love you. Goodbye": "Wir lieben dich. Tschüss"})
LINE = "A man reads the Wham! Guide on a bike. He smiles."


def sentences(text: str, glossary: Glossary | None = TERMS, breaks: tuple[int, ...] = (), **limit) -> list[str]:
    return [text[s:e] for s, e in sentence_spans(text, "en", True, breaks, (), glossary, **limit)]


def test_a_term_the_splitter_would_break_stays_in_one_sentence():
    assert sentences(LINE, None) == ["A man reads the Wham!", "Guide on a bike.", "He smiles."]
    assert sentences(LINE) == ["A man reads the Wham! Guide on a bike.", "He smiles."]


def test_a_term_that_holds_a_whole_sentence_joins_it_to_the_next():
    text = "We love you. Goodbye my friend. See you."
    assert sentences(text) == ["We love you. Goodbye my friend.", "See you."]


def test_a_term_across_a_tab_does_not_join_two_fields_and_is_warned_about():
    """A term split by a tab was dropped silently: neither field required it."""
    text = "Wham!\tGuide on a bike."  # the tab, at 5, parts two fields (FlatText.breaks)
    with pytest.warns(AttnmtWarning, match=r"term 'Wham!\\tGuide' runs across two fields translated apart"):
        assert sentences(text, breaks=(5,)) == ["Wham!", "Guide on a bike."]


def test_a_line_with_a_term_across_a_tab_reaches_the_translator_in_two_fields_with_a_warning(same):
    same.glossary = TERMS
    with pytest.warns(AttnmtWarning, match="a tab or a line break parts them"):
        assert translate_lines(["A man reads the Wham!\tGuide on a bike."], same, OPTIONS)
    assert same.given == ["A man reads the Wham!", "Guide on a bike."]


def test_a_line_of_plain_text_reaches_the_translator_with_its_term_whole(same):
    same.glossary = TERMS
    assert translate_lines([LINE], same, OPTIONS) == [LINE]
    assert same.given == ["A man reads the Wham! Guide on a bike.", "He smiles."]
    assert paragraph_sentences(LINE, OPTIONS, TERMS) == same.given  # the server's and n-best's reading


def test_an_html_paragraph_reaches_the_translator_with_its_term_whole(same):
    same.glossary = TERMS
    page = "<p>A man reads the Wham! Guide on a bike.</p>"
    assert translate_markup([page], same, OPTIONS) == [page]
    assert same.given == ["A man reads the Wham! Guide on a bike."]


def test_a_word_paragraph_reaches_the_translator_with_its_term_whole(same):
    same.glossary = TERMS
    document = docx.Document()
    document.add_paragraph(LINE)
    translate_office(docx_bytes(document), ".docx", same, OPTIONS)
    assert same.given == ["A man reads the Wham! Guide on a bike.", "He smiles."]


def test_two_sentences_too_long_together_for_the_model_stay_apart_with_a_warning():
    text = "We love you. Goodbye my friend."  # joined: 31 characters
    assert sentences(text, fits=at_most(31)) == [text]
    with pytest.warns(AttnmtWarning, match="'We love you. Goodbye' was not kept in one sentence"):
        assert sentences(text, fits=at_most(30)) == ["We love you.", "Goodbye my friend."]


def test_a_line_too_long_to_join_reaches_the_translator_whole_in_two_sentences(same):
    same.glossary, same.fits = TERMS, at_most(30)  # a cut sentence lost the rest of its words
    with pytest.warns(AttnmtWarning, match="not kept in one sentence"):
        translated = translate_lines(["We love you. Goodbye my friend."], same, OPTIONS)
    assert translated == ["We love you. Goodbye my friend."]
    assert same.given == ["We love you.", "Goodbye my friend."]


def test_a_translator_without_fits_is_not_sent_a_joined_sentence_too_long_for_a_model(same):
    """A user's translator without ``fits`` had two sentences joined around a term at any length,
    and the model cut the joined one, losing its words: without a tokenizer to count with, at
    most 1,000 bytes are joined (translator_parts.within_bytes), and beyond them the term warns."""
    same.glossary = TERMS
    first = "A man " + "really " * 150 + "reads the Wham!"  # 1,071 characters: joined, past 1,022 tokens
    with pytest.warns(AttnmtWarning, match="'Wham! Guide' was not kept in one sentence"):
        assert translate_lines([f"{first} Guide on a bike."], same, OPTIONS) == [f"{first} Guide on a bike."]
    assert same.given == [first, "Guide on a bike."]
    same.given.clear()
    assert translate_lines([LINE], same, OPTIONS) == [LINE]  # short: still joined
    assert same.given == ["A man reads the Wham! Guide on a bike.", "He smiles."]


def test_a_translator_without_fits_counts_with_its_tokenizer_where_it_has_one():
    """A user's translator that holds a model and its tokenizer (here a token a word) is counted
    as ModelTranslator.fits counts, to the model's longest input."""
    counting = SimpleNamespace(model=SimpleNamespace(config=SimpleNamespace(longest_input=5)),
                               tokenizer=SimpleNamespace(encode=str.split))
    fits = translator_fits(counting)
    assert fits("We love you. Goodbye") and not fits("a b c d e f")


def test_a_translation_is_split_keeping_the_target_terms_whole_as_its_source_the_source_terms():
    source = "A dog runs. We love you. Goodbye my friend."
    translation = "Ein Hund rennt. Wir lieben dich. Tschüss mein Freund."  # the term split, 3 sentences to 2
    assert line_pairs(source, translation, OPTIONS, "de", TERMS) == [
        ("A dog runs.", "Ein Hund rennt."),
        ("We love you. Goodbye my friend.", "Wir lieben dich. Tschüss mein Freund.")]


def test_a_line_read_by_its_sentences_is_split_once_with_its_terms(monkeypatch):
    """line_pairs splits the source line once for its sentences and its letterless parts: each
    split looks for the glossary's terms in the whole line (sentence_spans), and a second was waste."""
    looked: list[str] = []
    found_in = Glossary.found_in
    monkeypatch.setattr(Glossary, "found_in", lambda self, text: looked.append(text) or found_in(self, text))
    source = "A dog runs. 2012. A cat sleeps."
    pairs = line_pairs(source, "Ein Hund rennt. 2012. Eine Katze schläft.", OPTIONS, "de", TERMS)
    assert pairs == [("A dog runs.", "Ein Hund rennt."), ("A cat sleeps.", "Eine Katze schläft.")]
    assert looked.count(source) == 1


def test_a_term_across_two_cues_reaches_the_translator_in_one_sentence(same):
    same.glossary = TERMS
    cues = ("1\n00:00:03,500 --> 00:00:05,000\nA man reads the Wham!\n\n"
            "2\n00:00:05,100 --> 00:00:07,000\nGuide on a bike. A dog runs.\n")
    translate_subtitle_text(cues, same, OPTIONS)
    assert same.given == ["A man reads the Wham! Guide on a bike.", "A dog runs."]


@pytest.mark.parametrize(("term", "cues"), [
    ("Apple Music", ("A girl is eating an apple", "Music is playing in the park.")),
    ("thank you", ("I just wanted to thank", "You know what? Forget it.")),
])
def test_a_term_across_two_cues_in_another_case_leaves_them_apart(same, term, cues):
    same.glossary = Glossary.of({term: term})  # matched ignoring case: the cues joined, and lost "apple" to it
    first, second = cues
    translate_subtitle_text(f"1\n00:00:01,000 --> 00:00:02,000\n{first}\n\n"
                            f"2\n00:00:02,100 --> 00:00:03,000\n{second}\n", same, OPTIONS)
    assert same.given[0] == first


@pytest.mark.parametrize(("cues", "why", "given"), [
    (("A <i>red</i>", "car drives."), "one of them has tags", ["A red", "car drives."]),
    (("A man", "and a woman see a", "red", "car drive by."), "3 cues are joined at most of a sentence too long for "
     "the model", ["A man and a woman see a red", "car drive by."]),
])
def test_a_term_across_two_cues_that_stay_apart_is_warned_about_naming_both(same, cues, why, given):
    same.glossary = Glossary.of({"red car": "Sportwagen"})  # the term's translation was dropped without a word
    same.fits = at_most(30)  # a model that reads the 42 characters of the four cues in parts
    last = 4 * len(cues) - 1  # the line the last cue's text is on
    with pytest.warns(AttnmtWarning) as heard:
        translate_subtitle_text(srt(*cues), same, OPTIONS)
    assert [str(warning.message) for warning in heard] == [
        f"input, lines {last - 4} and {last}: the glossary term 'red car' runs across two cues translated apart "
        f"({why}), so its translation is not kept; write the term within one cue"]
    assert same.given == given


@pytest.mark.parametrize(("text", "options", "why"), [
    ("1\n00:00:01,000 --> 00:00:02,000\nA man sees a red\n\n2\n00:00:02,000 --> 00:00:03,000\ncar drive by.\n",
     DocumentOptions(split=False), "--no-split joins no cues"),
    ("WEBVTT\n\n00:01.000 --> 00:02.000\nA man sees a red\n\nNOTE a comment\n\n00:02.000 --> 00:03.000\n"
     "car drive by.\n", OPTIONS, "a NOTE or another block stands between them"),
])
def test_a_term_across_two_cues_never_joined_is_warned_about_naming_both(same, text, options, why):
    """With --no-split, or a NOTE between, two cues are never joined, and a term across them was
    dropped without a word, where one across cues kept apart for tags is warned about."""
    same.glossary = Glossary.of({"red car": "Sportwagen"})
    first = text.index("A man")
    lines = (text[:first].count("\n") + 1, text[:text.index("car drive")].count("\n") + 1)
    with pytest.warns(AttnmtWarning) as heard:
        translate_subtitle_text(text, same, options)
    assert [str(warning.message) for warning in heard] == [
        f"input, lines {lines[0]} and {lines[1]}: the glossary term 'red car' runs across two cues translated apart "
        f"({why}), so its translation is not kept; write the term within one cue"]
    assert same.given == ["A man sees a red", "car drive by."]


def test_score_builds_the_glossary_of_target_terms_once_for_all_lines(monkeypatch):
    glossary = Glossary.of({"We love you. Goodbye": "Wir lieben dich. Tschüss", "dog": "Hund"})
    builds = []
    built = Glossary.__post_init__
    monkeypatch.setattr(Glossary, "__post_init__", lambda self: builds.append(len(self)) or built(self))
    lines = ["A dog runs. We love you. Goodbye my friend.", "A dog sleeps.", "The dog barks. A cat runs."]
    translations = ["Ein Hund rennt. Wir lieben dich. Tschüss mein Freund.", "Ein Hund schläft.",
                    "Der Hund bellt. Eine Katze rennt."]
    for _ in range(2):  # 5,000 terms took 0.2 s to build, on every line of ``attnmt score``
        assess_lines(lambda s, t: [None] * len(s), lines, translations, OPTIONS, "de", glossary)
    assert builds == [2]


def test_a_term_across_two_cues_joins_them_whatever_its_apostrophes_and_spaces(same):
    same.glossary = Glossary.of({"Rock 'n'  Roll": "Rock 'n' Roll"})
    translate_subtitle_text("1\n00:00:01,000 --> 00:00:02,000\nThey play Rock ‘n’\n\n"
                            "2\n00:00:02,100 --> 00:00:03,000\nRoll all night.\n", same, OPTIONS)
    assert same.given == ["They play Rock ‘n’ Roll all night."]  # its ‘n’ no quote, as in a text line


@pytest.mark.parametrize("space", ["\xa0", "\u202f", "\u2009", "\u3000", "\u2028", "\x85"])
def test_an_initials_stop_after_a_space_of_several_bytes_is_split_not_a_crash(space, same):
    """sentencex panicked (a Rust slice inside the space's UTF-8 bytes) where a capital letter alone
    stood before a no-break, thin or ideographic space or a line separator and a stop: ``attnmt translate``
    of "Plan A\\xa0. A dog runs." ended in a PanicException's traceback, the server's request too."""
    line = f"Plan A{space}. A dog runs."
    spaced = sentences(line.replace(space, " "), None)  # split as where the space is an ASCII one
    assert sentences(line, None) == [sentence.replace(" .", f"{space}.") for sentence in spaced]
    assert translate_lines([line], same) == [line]


@pytest.mark.parametrize(("text", "language", "sentences"), [
    ("It is approx. 5 km.", "en", ["It is approx. 5 km."]),
    ("Prices incl. VAT are high.", "en-GB", ["Prices incl. VAT are high."]),
    ("Prices excl. VAT are high.", "en", ["Prices excl. VAT are high."]),
    ("Est. 1990 in Paris.", "en", ["Est. 1990 in Paris."]),
    ("Tel.: 555 123.", "en", ["Tel.: 555 123."]),
    ("The est. cost is high.", "en", ["The est. cost is high."]),
    ("It was approx. 5 km. Then we stopped.", "en", ["It was approx. 5 km.", "Then we stopped."]),
    ("The call is at 9 EST. We start then.", "en", ["The call is at 9 EST.", "We start then."]),
    ("It weighs 5 lbs. The box is red.", "en", ["It weighs 5 lbs.", "The box is red."]),
    ("Il est. 5 chats.", "fr", ["Il est.", "5 chats."])])
def test_a_common_english_abbreviation_the_segmenter_misses_ends_no_sentence(text, language, sentences):
    """sentencex cut "It is approx. 5 km." after "approx."; a real stop, a capital's abbreviation and
    another language's word ("est", French "is") still end one."""
    assert [text[start:end] for start, end in sentence_spans(text, language)] == sentences


def test_a_cue_in_italics_a_line_is_a_cue_with_tags_for_the_sentences_around_it(same):
    """Its tags taken out of its text and put back around each line, it read as a cue without tags, and ran on
    into the cue after it, which cues with tags never do (a term across them is warned about)."""
    same.glossary = Glossary.of({"red car": "Sportwagen"})
    source = ("1\n00:00:01,000 --> 00:00:02,000\n<i>A man sees</i>\n<i>a red</i>\n\n"
              "2\n00:00:02,100 --> 00:00:03,000\ncar.")
    with pytest.warns(AttnmtWarning, match=r"input, lines 3 and 8: the glossary term 'red car' runs across two cues "
                                           r"translated apart \(one of them has tags\)"):
        assert translate_subtitle_text(source, same, OPTIONS) == source
    assert same.given == ["A man sees a red", "car."]


@pytest.mark.parametrize(("text", "parts"), [
    ("Visit Bike.Com today.", ["Visit Bike.Com today."]), ("Visit Shop.Bike.De now.", ["Visit Shop.Bike.De now."]),
    ("Visit BIKE.COM today.", ["Visit BIKE.COM today."]), ("Email Sales@Bike.Com now.", ["Email Sales@Bike.Com now."]),
    ("The dog.It ran away.", ["The dog.", "It ran away."]),
    ("I love Paris.It is big.", ["I love Paris.", "It is big."]),
])
def test_a_host_in_title_case_or_capitals_ends_no_sentence(text, parts):
    """sentencex breaks after a stop before a capital: "Visit Bike.Com today." was "Visit Bike." and "Com today.", the
    host translated as two sentences' words; two sentences glued, a word after the second's first, stay two."""
    assert [text[start:end] for start, end in sentence_spans(text, "en")] == parts


@pytest.mark.parametrize(("text", "parts"), [
    ("THE DOG.IT RAN AWAY.", ["THE DOG.", "IT RAN AWAY."]), ("THE DOG.IT'S AWAY.", ["THE DOG.", "IT'S AWAY."]),
    ("MAIL SALES.EXAMPLE.COM NOW.", ["MAIL SALES.EXAMPLE.COM NOW."]),
    ("MAIL SALES.EXAMPLE.IT NOW.", ["MAIL SALES.EXAMPLE.IT NOW."]), ("VISIT BIKE.IT now.", ["VISIT BIKE.IT now."]),
])
def test_two_sentences_glued_in_capitals_are_two_and_a_host_in_capitals_one(text, parts):
    """With a host in capitals kept whole, "THE DOG.IT RAN AWAY." was one sentence, DOG.IT its host."""
    assert [text[start:end] for start, end in sentence_spans(text, "en")] == parts


@pytest.mark.parametrize(("text", "parts"), [
    ("Sales fell.Net income rose.", ["Sales fell.", "Net income rose."]),
    ("It rose.App sales grew.", ["It rose.", "App sales grew."]),
    ("We use Asp.Net daily.", ["We use Asp.Net daily."]), ("We use asp.net daily.", ["We use asp.net daily."]),
])
def test_a_sentence_glued_after_a_stop_whose_first_word_is_a_domain_is_its_own(text, parts):
    """"Sales fell.Net income rose." was one sentence, "fell.Net" read as a host no sentence ends inside."""
    assert [text[start:end] for start, end in sentence_spans(text, "en")] == parts
