"""Unicode's bidirectional controls around and inside sentences (attnmt.documents.bidi), through
plain text, the server's paragraphs, markup and Word files, with the stand-in translators of
conftest.py.  The model read an isolate at a sentence's edge as an unknown piece and dropped it;
a closing one that the segmenter put at the next sentence's start took the space after it along."""

import pytest
from lxml import etree
from office_files import W, read_members, word_paragraph

from attnmt.decoding.quality import Assessment
from attnmt.decoding.translate import Translation
from attnmt.documents.bidi import balanced, edges
from attnmt.documents.markup import translate_markup
from attnmt.documents.office import translate_office
from attnmt.documents.paragraphs import paragraph, text_pairs
from attnmt.documents.pipeline import DocumentOptions, paragraph_sentences, translate_lines
from attnmt.documents.review import Review
from attnmt.documents.sentence_words import word_numbers
from attnmt.documents.subtitles import runs_on

GERMAN = {"A man is walking.": ("Ein Mann geht spazieren.", []), "A dog runs.": ("Ein Hund rennt.", []),
          "A cat sleeps.": ("Eine Katze schläft.", [])}
LRI, RLI, FSI, PDI = "\u2066", "\u2067", "\u2068", "\u2069"
LRE, RLE, PDF, LRO, RLO = "\u202a", "\u202b", "\u202c", "\u202d", "\u202e"
LRM, RLM, ALM = "\u200e", "\u200f", "\u061c"


def test_controls_around_a_sentence_come_back_around_its_translation_with_the_space_after_it(known):
    """The repro: "Ein Mann geht spazieren.Ein Hund rennt." (both controls and the space lost) and
    "Eine Katze schläft.\\u202c" (the opening control lost, the closing one kept)."""
    translator = known(GERMAN)
    out = translate_lines([f"{RLI}A man is walking.{PDI} A dog runs.", f"{RLE}A cat sleeps.{PDF}"], translator)
    assert out == [f"{RLI}Ein Mann geht spazieren.{PDI} Ein Hund rennt.", f"{RLE}Eine Katze schläft.{PDF}"]
    assert translator.given == ["A man is walking.", "A dog runs.", "A cat sleeps."]


@pytest.mark.parametrize("opening, closing", [(LRI, PDI), (RLI, PDI), (FSI, PDI), (LRE, PDF), (RLE, PDF),
                                              (LRO, PDF), (RLO, PDF)])
def test_a_pair_around_a_whole_line_wraps_its_whole_translation(mirror, opening, closing):
    out = translate_lines([f"{opening}A dog runs. A cat sleeps.{closing}"], mirror)
    assert out == [f"{opening}RUNS. DOG A SLEEPS. CAT A{closing}"]
    assert mirror.given == ["A dog runs.", "A cat sleeps."]


def test_a_pair_around_the_second_of_two_sentences_wraps_its_translation_alone(known):
    out = translate_lines([f"A dog runs.  {RLI}A cat sleeps.{PDI}  A man is walking."], known(GERMAN))
    assert out == [f"Ein Hund rennt.  {RLI}Eine Katze schläft.{PDI}  Ein Mann geht spazieren."]


@pytest.mark.parametrize("line", [f"{RLE}A cat sleeps.", f"A cat sleeps.{PDF}", f"A dog runs. {PDI}A cat sleeps.",
                                  f"A dog runs.{RLM} A cat sleeps.", f"{LRM}A dog runs. {ALM}A cat sleeps."])
def test_a_lone_control_or_a_mark_at_an_edge_stays_where_it_was(same, line):
    assert translate_lines([line], same) == [line]
    assert same.given == [sentence for sentence in ["A dog runs.", "A cat sleeps."] if sentence in line]


def test_a_pair_inside_a_sentence_goes_to_the_model_and_comes_back_whole_or_not_at_all(same, fixed):
    line = f"He said {RLI}shalom{PDI} to me."
    assert translate_lines([line], same) == [line]
    assert translate_lines([line], fixed(f"Er sagte {RLI}shalom zu mir.", [])) == ["Er sagte shalom zu mir."]


def test_a_pair_whose_halves_fall_in_two_sentences_is_left_out_of_both_translations(mirror):
    """Each sentence's translation would keep half of the pair: "WALKS. MAN A\\u2067" mis-embeds the rest."""
    assert translate_lines([f"A man {RLI}walks. A dog{PDI} runs."], mirror) == ["WALKS. MAN A RUNS. DOG A"]


@pytest.mark.parametrize("line", [f"He wrote {RLI}One. Two{PDI} and left.", f"{RLI}A man walks. A dog{PDI} runs.",
                                  f"A man walks {RLI}fast."])
def test_a_sentence_translated_as_itself_keeps_its_controls(same, line):
    """Half a pair is left out of what the model wrote, not out of the source it gave back: the halves
    of a pair in two sentences, or a control whose partner the source lacks, were dropped."""
    assert translate_lines([line], same) == [line]


@pytest.mark.parametrize("line", [f"He wrote {RLI}One. Two{PDI} and left.", f"{RLI}A man walks. A dog{PDI} runs.",
                                  f"A man walks {RLI}fast."])
def test_a_sentence_a_review_kept_in_its_source_keeps_it_character_for_character(mirror, line):
    """``--below-quality source``: the kept source went through ``balanced`` as a translation does."""
    review = Review(lambda sources, texts: [Assessment(0.2, [], False) for _ in sources], 0.5, source_below=True)
    assert translate_lines([line], mirror, review=review) == [line]


def kept_with(word: str) -> Review:
    """``--below-quality source`` for each sentence holding ``word``: it is kept in its source."""
    return Review(lambda sources, texts: [Assessment(0.2 if word in s else 0.9, [], False) for s in sources], 0.5,
                  source_below=True)


def translated(kind: str, line: str, translator, review: Review | None = None) -> str:
    """``line`` translated as a line of text, an HTML paragraph's content or a Word paragraph's run."""
    if kind == "text":
        return translate_lines([line], translator, review=review)[0]
    if kind == "html":
        [out] = translate_markup([f"<p>{line}</p>"], translator, review=review)
        return out.removeprefix("<p>").removesuffix("</p>")
    runs = f'<w:r><w:t xml:space="preserve">{line}</w:t></w:r>'
    out = translate_office(word_paragraph(runs), ".docx", translator, DocumentOptions(), review=review)
    return "".join(t.text or "" for t in etree.fromstring(read_members(out)["word/document.xml"]).iter(f"{{{W}}}t"))


@pytest.mark.parametrize("kind", ["text", "html", "docx"])
@pytest.mark.parametrize("kept, out", [("man", "A man walks. RUNS. DOG A"), ("dog", "WALKS. MAN A A dog runs.")])
def test_a_kept_sentence_gives_up_its_half_of_a_pair_whose_other_half_its_neighbours_translation_lost(mirror, kind,
                                                                                                   kept, out):
    """One of the two sentences a pair straddles kept in its source held its half, the other's
    translation lost its own: "\u2067A man walks. RUNS. DOG A", a lone isolate mis-embedding the rest."""
    assert translated(kind, f"{RLI}A man walks. A dog{PDI} runs.", mirror, kept_with(kept)) == out


def test_a_sentence_the_model_wrote_as_itself_gives_up_a_half_the_next_translation_lost(known):
    translator = known({f"{RLI}A man walks.": (f"{RLI}A man walks.", []), f"A dog{PDI} runs.": ("Ein Hund rennt.", [])})
    assert translate_lines([f"{RLI}A man walks. A dog{PDI} runs."], translator) == ["A man walks. Ein Hund rennt."]


@pytest.mark.parametrize("kind", ["text", "html", "docx"])
def test_a_pair_over_a_kept_sentence_and_one_without_letters_that_took_a_term_stays_whole(termed, kind):
    """Both hold their halves: the one without letters changed (its term), and was taken for a translation
    that had lost its half, so the kept sentence's isolate went and left a lone PDI."""
    out = translated(kind, f"{RLI}A man walks. 2012{PDI}.", termed, kept_with("man"))
    assert out == f"{RLI}A man walks. zweitausendzwölf{PDI}."


@pytest.mark.parametrize("kind", ["text", "html", "docx"])
def test_a_sentence_without_letters_gives_up_a_half_its_neighbours_translation_lost(termed, kind):
    assert translated(kind, f"{RLI}A man walks. 2012{PDI}.", termed) == "A MAN WALKS. zweitausendzwölf."


def test_a_control_standing_alone_in_a_kept_sentence_goes_with_its_space_and_the_marks_stay_on_their_words(mirror):
    """Its word's weights stayed: every word after it took the weights of the word before, and the
    <b> went one word off ("A man walks <b>fast</b>." came back "A man <b>walks</b> fast.")."""
    [out] = translate_markup([f"<p>A man {RLI} walks <b>fast</b> now. A dog{PDI} runs.</p>"], mirror,
                             review=kept_with("man"))
    assert out == "<p>A man walks <b>fast</b> now. RUNS. DOG A</p>"


def test_a_word_run_after_a_control_dropped_from_a_kept_sentence_keeps_its_words(mirror):
    runs = (f'<w:r><w:t xml:space="preserve">A man {RLI} walks </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>fast</w:t>'
            f'</w:r><w:r><w:t xml:space="preserve"> now. A dog{PDI} runs.</w:t></w:r>')
    out = translate_office(word_paragraph(runs), ".docx", mirror, DocumentOptions(), review=kept_with("man"))
    body = etree.fromstring(read_members(out)["word/document.xml"])
    assert "".join(t.text or "" for t in body.iter(f"{{{W}}}t")) == "A man walks fast now. RUNS. DOG A"
    assert [t.text for r in body.iter(f"{{{W}}}r") if r.find(f"{{{W}}}rPr/{{{W}}}b") is not None
            for t in r.iter(f"{{{W}}}t")] == ["fast"]


@pytest.mark.parametrize("line, split, read", [
    (f"{RLI}A man walks. A dog{PDI} runs.", True, [f"{RLI}A man walks.", f"A dog{PDI} runs."]),
    (f"{RLI}A man walks.{PDI} A dog runs.", False, [f"{RLI}A man walks.{PDI} A dog runs."]),
])
def test_a_control_at_an_edge_whose_partner_is_inside_a_sentence_goes_to_the_model_with_it(known, line, split,
                                                                                          read):
    """Kept between sentences, the isolate's start stayed while the model, which drops such controls
    (a SentencePiece model's unknown pieces), dropped its end: unbalanced."""
    german = ["Ein Mann geht.", "Ein Hund rennt."] if split else ["Ein Mann geht. Ein Hund rennt."]
    translator = known({sentence: (translation, []) for sentence, translation in zip(read, german, strict=True)})
    assert translate_lines([line], translator, DocumentOptions(split=split)) == ["Ein Mann geht. Ein Hund rennt."]
    assert translator.given == read


@pytest.mark.parametrize("inside", ["שלום עולם.", "مرحبا بالعالم."])
def test_right_to_left_text_inside_an_isolate_is_read_without_its_controls(same, inside):
    line = f"{RLI}{inside}{PDI} A dog runs."
    assert translate_lines([line], same) == [line]
    assert same.given == [inside, "A dog runs."]


@pytest.mark.parametrize("text, expected", [
    (f"a {RLI}b{PDI} c", f"a {RLI}b{PDI} c"),
    (f"a {RLI}b c", "a b c"),
    (f"a b{PDI} c{PDF}", "a b c"),
    (f"{LRI}a {RLE}b{PDF} c{PDI}", f"{LRI}a {RLE}b{PDF} c{PDI}"),
    (f"{LRI}a {RLE}b{PDI} c{PDF}", f"{LRI}a b{PDI} c"),  # the isolate's end cuts the embedding off unclosed
    (f"{RLE}a {LRI}b{PDF} c{PDI}", f"a {LRI}b c{PDI}"),  # inside an isolate, a PDF closes nothing opened outside it
    (f"{RLM}a{LRM}", f"{RLM}a{LRM}"),
])
def test_balanced_keeps_controls_only_in_pairs(text, expected):
    assert balanced(text) == expected


def test_edges_leave_out_spaces_and_controls_at_either_end_only():
    text = f" {RLI} A {LRI}b{PDI}.{PDI} "
    assert text[slice(*edges(text, 0, len(text)))] == f"A {LRI}b{PDI}."


def test_the_words_of_a_line_with_controls_at_its_sentences_edges_are_numbered_as_pharaoh_splits_it():
    """The sentence's "A" was looked for past the text's "\\u2067A" and found in the next sentence."""
    text = f"{RLI}A dog runs.{PDI} A cat sleeps."
    sentences = paragraph_sentences(text)
    assert sentences == ["A dog runs.", "A cat sleeps."]
    assert word_numbers(sentences, text) == [[0, 1, 2], [3, 4, 5]]
    translated = f"{RLI}Ein Hund rennt.{PDI} Eine Katze schläft."
    diagonal = [(0, 0), (1, 1), (2, 2)]
    assert text_pairs([diagonal, diagonal], sentences, ["Ein Hund rennt.", "Eine Katze schläft."], text,
                      translated) == [(k, k) for k in range(6)]


def test_a_translation_that_lost_half_a_pair_is_numbered_without_it():
    assert word_numbers([f"Ein {RLI}Hund rennt."], "Ein Hund rennt.") == [[0, 1, 2]]


def test_the_servers_hypotheses_and_word_probabilities_keep_the_controls_in_place():
    """attnmt.documents.paragraphs.paragraph: what /v1/translate and ``attnmt translate
    --output-format jsonl`` give for a text of several sentences."""
    text = f"{RLI}A dog runs.{PDI} A cat sleeps."
    sentences = paragraph_sentences(text)
    found = [[Translation(german, -1.0, -2.0, Assessment(0.9, [], False, [(w, 0.5) for w in german.split()]))]
             for german in ("Ein Hund rennt.", "Eine Katze schläft.")]
    [best] = paragraph(text, sentences, found, lambda s, t: [], DocumentOptions()).hypotheses
    assert best.text == f"{RLI}Ein Hund rennt.{PDI} Eine Katze schläft."
    assert best.assessment.words == [(word, 0.5) for word in best.text.split()]


def test_html_text_keeps_the_controls_around_its_sentences(known):
    translator = known(GERMAN)
    [out] = translate_markup([f"<p>{RLI}A man is walking.{PDI} A dog runs.</p>"], translator)
    assert out == f"<p>{RLI}Ein Mann geht spazieren.{PDI} Ein Hund rennt.</p>"


@pytest.mark.parametrize("html", [f'<p>Call us. <span dir="ltr">{LRI}+1 555 0100{PDI}</span></p>',
                                  f"<p>Call us. <b>{LRM}+1 555 0100{LRM}</b></p>",
                                  f'<td><bdo dir="rtl">{LRI}A dog runs.{PDI}</bdo></td>',
                                  f'<p>A cat sleeps. <a href="/u/1">{FSI}A dog runs.{PDI}</a></p>',
                                  f"<p>{RLI}<b>A dog runs.</b>{PDI} A cat sleeps.</p>"])
def test_an_untouched_sentence_keeps_its_controls_in_the_element_that_held_them(same, html):
    """They went out of it ('\\u2066<span dir="ltr">+1 555 0100</span>\\u2069'), changing what a
    <bdo> or a dir="rtl" element shows; a sentence without letters changed at all."""
    assert translate_markup([html], same) == [html]


@pytest.mark.parametrize("html", [f'<p>Call us. <span dir="ltr">{LRI}https://example.org/help{PDI}</span></p>',
                                  f'<p><bdo dir="rtl">{RLI}info@example.org{PDI}</bdo> A dog runs.</p>',
                                  f"<p>A dog runs. <b>{LRM}https://example.org{LRM}</b> A cat sleeps.</p>"])
def test_a_protected_item_alone_in_an_element_keeps_its_controls_in_that_element(same, html):
    """No sentence reads the element's text, the URL taken out: it became a point at its end, and the
    opening control went out of it ('\u2066<span dir="ltr">https://example.org/help\u2069</span>')."""
    assert translate_markup([html], same) == [html]


def test_an_element_holds_the_controls_around_its_sentences_translation(known):
    html = f'<p>A man is walking. <span dir="rtl">{LRI}A dog runs.{PDI}</span> <i><b>{RLM}A cat sleeps.</b></i></p>'
    [out] = translate_markup([html], known(GERMAN))
    assert out == (f'<p>Ein Mann geht spazieren. <span dir="rtl">{LRI}Ein Hund rennt.{PDI}</span> '
                   f"<i><b>{RLM}Eine Katze schläft.</b></i></p>")


def test_a_word_run_keeps_the_controls_around_its_sentences(known):
    translator = known(GERMAN)
    runs = f'<w:r><w:t xml:space="preserve">{RLI}A man is walking.{PDI} A dog runs.</w:t></w:r>'
    out = translate_office(word_paragraph(runs), ".docx", translator, DocumentOptions())
    texts = etree.fromstring(read_members(out)["word/document.xml"]).iter(f"{{{W}}}t")
    assert "".join(t.text or "" for t in texts) == f"{RLI}Ein Mann geht spazieren.{PDI} Ein Hund rennt."
    assert translator.given == ["A man is walking.", "A dog runs."]


def test_a_cue_ending_with_a_closed_isolate_ends_its_sentence():
    """Its sentence's end was taken to be before the PDI: the next cue was read as going on with it."""
    assert not runs_on(f"A dog runs.{PDI}", "then a cat sleeps.", "en")


ZWSP, WJ, BOM = "\u200b", "\u2060", "\ufeff"  # zero-width space, word joiner, byte order mark


@pytest.mark.parametrize("invisible", [ZWSP, WJ, BOM, "\x00", "\x01", LRM])
def test_an_invisible_character_between_sentences_stays_in_the_spacing_with_the_space_after_it(known, invisible):
    """The repro: "Ein Hund rennt.Eine Katze schläft." (the character and the space after it lost,
    as the model left them out at the second sentence's start); a word joiner the model read as
    part of the sentence, which changed its translation."""
    translator = known(GERMAN)
    lines = [f"A dog runs.{invisible} A cat sleeps.", f"A dog runs. {invisible}A cat sleeps."]
    out = translate_lines(lines, translator)
    assert out == [f"Ein Hund rennt.{invisible} Eine Katze schläft.", f"Ein Hund rennt. {invisible}Eine Katze schläft."]
    assert translator.given == ["A dog runs.", "A cat sleeps."]


def test_invisible_characters_around_a_line_stay_where_they_were(known):
    translator = known(GERMAN)
    assert translate_lines([f"{BOM}{ZWSP} A dog runs.{WJ}\x00"], translator) == [f"{BOM}{ZWSP} Ein Hund rennt.{WJ}\x00"]
    assert translator.given == ["A dog runs."]


def test_edges_leave_out_invisible_characters_at_either_end_only():
    text = f"{BOM} {ZWSP}A {WJ}dog{ZWSP}.{WJ}\x00 "
    assert text[slice(*edges(text, 0, len(text)))] == f"A {WJ}dog{ZWSP}."


def test_the_words_of_a_line_with_invisible_characters_at_its_sentences_edges_are_numbered_in_order():
    text = f"A dog runs. {ZWSP}A cat sleeps.{WJ} A man is walking."
    sentences = paragraph_sentences(text)
    assert sentences == ["A dog runs.", "A cat sleeps.", "A man is walking."]
    assert word_numbers(sentences, text) == [[0, 1, 2], [3, 4, 5], [6, 7, 8, 9]]


def test_html_text_keeps_an_invisible_character_between_its_sentences(known):
    [out] = translate_markup([f"<p>A man is walking.{ZWSP} <b>A dog runs.</b>{WJ} A cat sleeps.</p>"], known(GERMAN))
    assert out == f"<p>Ein Mann geht spazieren.{ZWSP} <b>Ein Hund rennt.</b>{WJ} Eine Katze schläft.</p>"


@pytest.mark.parametrize("html", [f"<p>A man is walking. <b>A dog runs.{ZWSP}</b> A cat sleeps.</p>",
                                  f"<p>A man is walking. <b>{WJ}A dog runs.</b> A cat sleeps.</p>"])
def test_an_element_holds_the_invisible_characters_around_its_sentence(same, html):
    assert translate_markup([html], same) == [html]
