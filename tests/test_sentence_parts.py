"""A sentence given to ``translate`` cut at its tabs and line breaks (attnmt.decoding.sentence_parts): each part
translated apart, the breaks kept where they stood, as ``attnmt translate`` keeps a text line's tabs."""

from types import SimpleNamespace

import pytest
from support import failing_on

import attnmt
import attnmt.decoding.quality as quality_module
from attnmt.checkpoint import load_model_dir
from attnmt.decoding import Decoding
from attnmt.decoding.failed_sentences import SentencesFailed
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.inputs import Guides
from attnmt.decoding.quality import Assessment, Assessor
from attnmt.decoding.sentence_parts import PART_BREAK, parted
from attnmt.decoding.translate import Translation, translate, translate_n_best
from attnmt.documents import translate_text

FIRST, SECOND = "a dog runs.", "a cat sleeps."


@pytest.fixture(scope="module")
def loaded(trained_model):
    return load_model_dir(trained_model)


@pytest.mark.parametrize("text, breaks", [
    ("Name:\tJohn Smith", ["\t"]),
    ("Line one\nline two.", ["\n"]),
    ("a \t b\r\nc\u2028", [" \t ", "\r\n", "\u2028"]),
    ("a\u00a0b c", []),  # a no-break space ends nothing
])
def test_a_tab_or_a_line_break_with_the_spaces_beside_it_parts_a_sentence(text, breaks):
    assert PART_BREAK.findall(text) == breaks


def test_translate_keeps_a_tab_and_a_line_break_inside_a_sentence_as_the_command_keeps_a_line_s(loaded, reached):
    """Read whole, the model took each for a space: the demo model wrote "Fecheme Folne." for "Name:\\tJohn Smith",
    where a text line gave each field's translation with the tab between them."""
    model, tokenizer = loaded
    lines = [f"{FIRST}\t{SECOND}", f"\t{FIRST}", f"{FIRST} \t 42", f"1)\t{FIRST}"]
    translated = translate(model, tokenizer, [*lines, f"{FIRST}\n{SECOND}"])
    assert translated[:-1] == translate_text(model, tokenizer, lines)
    assert translated == ["ein hund rennt\teine katze schläft", "\tein hund rennt", "ein hund rennt \t 42",
                          "1)\tein hund rennt", "ein hund rennt\neine katze schläft"]
    assert set(reached) - {""} == {FIRST, SECOND}  # the parts, never a tab or a break


def test_n_best_hypotheses_join_each_part_s_k_th_best(loaded):
    """The k-th joins each part's k-th best, its scores their sums, its quality the worst part's."""
    model, tokenizer = loaded
    decoding = Decoding(beam_size=3, n_best=2)
    first, second, both = translate_n_best(model, tokenizer, [FIRST, SECOND, f"{FIRST}\t{SECOND}"], decoding,
                                           quality=Assessor())
    assert len(both) == 2
    for a, b, h in zip(first, second, both, strict=True):
        assert h.text == f"{a.text}\t{b.text}"
        assert h.score == pytest.approx(a.score + b.score) and h.log_prob == pytest.approx(a.log_prob + b.log_prob)
        assert h.quality == min(a.quality, b.quality)


def test_a_prefix_starts_the_first_part_with_letters(loaded):
    model, tokenizer = loaded
    [text] = translate(model, tokenizer, [f"12\t{FIRST}\t{SECOND}"], prefix="zwei")
    assert text.startswith("12\tzwei") and text.count("\t") == 2


def test_a_sentence_the_model_fails_on_in_one_part_fails_whole_and_is_named_by_its_own_index(loaded, monkeypatch):
    model, tokenizer = loaded
    failing_on(model, tokenizer, "the boy laughs", monkeypatch)
    with pytest.raises(SentencesFailed) as failed:
        translate(model, tokenizer, [f"{FIRST}\t{SECOND}", f"{FIRST}\tthe boy laughs", SECOND])
    assert list(failed.value.failures) == [1] and "sentence 2" in str(failed.value)
    assert failed.value.outputs == ["ein hund rennt\teine katze schläft", "", "eine katze schläft"]
    with pytest.raises(SentencesFailed) as failed:
        translate_n_best(model, tokenizer, [f"the boy laughs\n{FIRST}", FIRST])
    assert failed.value.outputs[0] == [] and failed.value.outputs[1][0].text == "ein hund rennt"


def test_translate_reads_a_sound_description_at_a_sentence_s_start_alone_as_the_command_does(loaded, reached):
    """Read with the words after it, the demo model wrote "[LAUGHS] Yes, of course." as "Häner bewäntliche
    U-Fahrerfahrer.", the brackets lost, where a text line and a subtitle cue translate it alone."""
    model, tokenizer = loaded
    lines = [f"[a dog runs] {SECOND}", f"- (a cat sleeps)  {FIRST}", f"ANNA: [a dog runs] {SECOND}"]
    translated = translate(model, tokenizer, lines)
    assert translated == translate_text(model, tokenizer, lines)
    assert translated == ["[ein hund rennt] eine katze schläft", "- (eine katze schläft)  ein hund rennt",
                          "ANNA: [ein hund rennt] eine katze schläft"]
    assert sorted(set(reached) - {""}) == ["a cat sleeps", "a cat sleeps.", "a dog runs", "a dog runs."]


@pytest.mark.parametrize("sentence, outputs, joined", [
    ("[LAUGHS] Yes, of course.", ["[EINE LACHT.]", "Ja, natürlich."], "[EINE LACHT] Ja, natürlich."),
    ("- (sighs)  I know", ["- (seufzt.)", "Ich weiß."], "- (seufzt)  Ich weiß"),
    ("ANNA: [LAUGHS]\t¿Sí?", ["ANNA: [EINE LACHT.]", "Ja?"], "ANNA: [EINE LACHT]\tJa?"),
    ("Yes\tNo", ["Ja.", "Nein."], "Ja\tNein"),
    ("Name:\tJohn Smith.", ["Name:", "John Smith."], "Name:\tJohn Smith."),
    ("Wait...\nWhere?", ["Warte.", "Wo?"], "Warte...\nWo?"),
    ("Lädt…\tOK", ["Lädt.", "OK."], "Lädt…\tOK"),
    ("BENEFITS: Free parking.", ["VORTEILE.", "Kostenloses Parken."], "VORTEILE: Kostenloses Parken."),
    ("- Prix :  dès 25 €", ["- Preis.", "ab 25 €"], "- Preis :  ab 25 €"),
    ("(♪ soft music ♪) Do not run.", ["(♪ Die Band spielt. ♪)", "Lauf nicht."], "(♪ Die Band spielt ♪) Lauf nicht."),
    ("[♪ upbeat music ♪]	Yes", ["[♪ Ein Musiker singt. ♪]", "Ja."], "[♪ Ein Musiker singt ♪]	Ja"),
    ("(soft music 👍) OK.", ["(Die Band spielt. 👍)", "OK."], "(Die Band spielt 👍) OK."),
])
def test_each_part_of_a_cut_sentence_ends_as_its_part_does(sentence, outputs, joined):
    """The stop the model adds to every sentence stayed inside a description's brackets and after each field: the
    demo model wrote "[LAUGHS] Yes, of course." as "[EINE LACHT.] Große Baue."."""
    parts, _ = parted([sentence], Guides.of(1))
    assert parts.joined(outputs) == [joined]
    [[best]] = parts.joined_n_best([[Translation(output, -1.0, -1.0)] for output in outputs], None)
    assert best.text == joined


def test_translate_ends_a_description_and_each_field_as_their_source_ends(loaded, monkeypatch):
    """The tiny model writes no stops; here every translation it gives gets one, as the demo model's do."""
    model, tokenizer = loaded
    decode = tokenizer.decode
    monkeypatch.setattr(tokenizer, "decode", lambda ids: decode(ids).rstrip(".") + ".")
    lines = [f"[a dog runs] {SECOND}", f"a dog runs\t{SECOND}", f"ANNA: (a cat sleeps) {FIRST}"]
    expected = ["[ein hund rennt] eine katze schläft.", "ein hund rennt\teine katze schläft.",
                "ANNA: (eine katze schläft) ein hund rennt."]
    assert translate(model, tokenizer, lines) == expected
    assert attnmt.translate(model, tokenizer, lines) == expected
    assert [best.text for best, *_ in translate_n_best(model, tokenizer, lines)] == expected
    assert translate(model, tokenizer, [FIRST[:-1]]) == ["ein hund rennt."]  # one part: its caller ends it


def test_translate_reads_a_fields_name_after_a_sounds_description_alone_as_the_command_does(loaded, reached):
    """"[MUSIC] INGREDIENTS: Flour, eggs, milk." went to the demo model as "INGREDIENTS: Flour, eggs, milk." and came
    back "[MUSIK] Krankenschwestern in einem Schrürzen, ...", the name and its colon lost."""
    model, tokenizer = loaded
    lines = [f"[MUSIC] INGREDIENTS: {FIRST}"]
    translated = translate(model, tokenizer, lines)
    assert translated == translate_text(model, tokenizer, lines)
    assert translated[0].endswith(": ein hund rennt") and set(reached) - {""} == {"MUSIC", "INGREDIENTS", FIRST}


def test_translate_reads_a_fields_name_alone_and_keeps_its_colon_as_the_command_does(loaded, reached):
    """Read with its value, the demo model lost the name: "BENEFITS: Free parking and Wi-Fi." came back "Auf einem
    Parkplatz ..."."""
    model, tokenizer = loaded
    lines = [f"INGREDIENTS: {FIRST}", f"- Side Effects :  {SECOND}", "TRANSLATOR: Ann Goldstein"]
    translated = translate(model, tokenizer, lines)
    assert translated == translate_text(model, tokenizer, lines)
    assert translated[0].endswith(": ein hund rennt") and translated[1].endswith(" :  eine katze schläft")
    assert translated[1].startswith("- ") and translated[2].count(": ") == 1
    assert translated[2].endswith(": Ann Goldstein")  # a person's name kept as written
    assert sorted(set(reached) - {""}) == sorted({"INGREDIENTS", "Side Effects", "TRANSLATOR", FIRST, SECOND})


def test_translate_reads_each_sound_description_alone_as_the_command_does(loaded, reached):
    """Read as one, "[MUSIC] (cheering)" came back "Großer Ärenen" from the demo model, both brackets lost; a
    speaker's extension in brackets before them, "(V.O.)", stays with its name."""
    model, tokenizer = loaded
    lines = [f"[a dog runs] (a cat sleeps) {FIRST}", f"DR. SMITH (V.O.): [a cat sleeps] (a dog runs) {SECOND}"]
    translated = translate(model, tokenizer, lines)
    assert translated == translate_text(model, tokenizer, lines)
    assert translated == ["[ein hund rennt] (eine katze schläft) ein hund rennt",
                          "DR. SMITH (V.O.): [eine katze schläft] (ein hund rennt) eine katze schläft"]


def test_translate_keeps_a_fields_value_that_is_a_measure_alone_as_the_command_does(loaded, reached):
    """The demo model wrote "PREP TIME: 15 min" as "...: Ein Basketballspieler mit der Nummer", the measure lost."""
    model, tokenizer = loaded
    lines = ["PREP TIME: 15 min", "WEIGHT: 1.2 kg"]
    translated = translate(model, tokenizer, lines)
    assert translated == translate_text(model, tokenizer, lines)
    assert [line[line.index(":"):] for line in translated] == [": 15 min", ": 1.2 kg"]
    assert len(set(reached) - {""}) == 2 and not any(character.isdigit() for text in reached for character in text)


def test_translate_keeps_a_fields_name_the_model_finds_garbled_as_the_command_does(loaded, monkeypatch):
    """Alone, the demo model wrote "BENEFITS" as "EIN DEMA" (plausibility under 0.3), which a text line's guard kept
    out and ``attnmt.translate`` took: the name now keeps its source there too, and so does a plausible one whose
    translation opens with an article it lacks (the tiny model's "ein mann fährt ein fahrrad" for "Side Effects",
    as the demo model's "EIN SCHILD" for "SIGNAL"), and the value is translated whatever it is judged."""
    model, tokenizer = loaded
    plausible = {"INGREDIENTS": 0.05, "Side Effects": 0.9, FIRST: 0.01, SECOND: 0.01}
    judged = []

    def assess(model, tokenizer, sources, translations, **_):
        judged.extend(sources)
        return [SimpleNamespace(quality=0.0, words=[(source, plausible.get(source, 0.9))]) for source in sources]

    monkeypatch.setattr(quality_module, "assess", assess)
    lines = [f"INGREDIENTS: {FIRST}", f"Side Effects: {SECOND}", FIRST]
    translated = translate(model, tokenizer, lines)
    assert translated == translate_text(model, tokenizer, lines)
    assert translated[0] == "INGREDIENTS: ein hund rennt" and translated[1] == "Side Effects: eine katze schläft"
    assert translated[2] == "ein hund rennt" and set(judged) == {"INGREDIENTS", "Side Effects"}


def judging(monkeypatch, plausible: dict[str, float]) -> list[str]:
    """The model's plausibility of each source's translation as ``plausible`` says (0.01 for any other), the
    sources judged noted in the list returned."""
    judged: list[str] = []

    def assess(model, tokenizer, sources, translations, *_, **__):
        judged.extend(sources)
        return [Assessment(plausible.get(source, 0.01), [], False) for source in sources]

    monkeypatch.setattr(quality_module, "assess", assess)
    return judged


def test_translate_n_best_keeps_a_garbled_fields_name_in_every_hypothesis_as_translate_keeps_it_in_its_best(
        loaded, monkeypatch):
    """The demo model's hypotheses for "BENEFITS: Free parking." were "EIN DEMA: ...", "AUF DIESEM DE: ...", where
    ``translate`` kept "BENEFITS"; rank 1 is now ``translate``'s, and a plausible name whose translation opens with an
    article it lacks (the tiny model's "ein ..." for "Side Effects") keeps its source in each too."""
    model, tokenizer = loaded
    judged = judging(monkeypatch, {"Side Effects": 0.9})
    lines = [f"INGREDIENTS: {FIRST}", f"- Side Effects: {SECOND}"]
    decoding = Decoding(beam_size=3, n_best=3)
    found = translate_n_best(model, tokenizer, lines, decoding)
    assert [each[0].text for each in found] == translate(model, tokenizer, lines, decoding)
    assert len(found[0]) == 3 and all(h.text.startswith("INGREDIENTS: ") for h in found[0])
    assert found[1] and all(h.text.startswith("- Side Effects: ") for h in found[1])
    assert set(judged) == {"INGREDIENTS", "Side Effects"}


def test_a_kept_fields_name_is_assessed_as_a_copy_and_leaves_its_value_the_lines_quality(loaded, monkeypatch):
    """Assessed as its own translation, "PREP TIME" kept gave its line quality 0.0 and ``copied``: the model wrote
    none of it, so it has a copy's assessment, quality 1 and no flags, and its value's is the line's."""
    model, tokenizer = loaded
    judging(monkeypatch, {})
    [found] = translate_n_best(model, tokenizer, [f"INGREDIENTS: {FIRST}"], Decoding(beam_size=2, n_best=2),
                               quality=Assessor())
    [value] = translate_n_best(model, tokenizer, [FIRST], Decoding(beam_size=2, n_best=2), quality=Assessor())
    assert [h.text for h in found] == [f"INGREDIENTS: {h.text}" for h in value]
    assert [h.assessment.quality for h in found] == pytest.approx([h.assessment.quality for h in value], abs=1e-4)
    assert all(h.assessment.flags == [] for h in found if h.assessment.quality > 0.5)


def test_a_fields_name_its_prefix_starts_is_the_users_and_taken_as_it_came(loaded, monkeypatch):
    """A prefix starts the first part with letters, a field's name too: put back in its place, the source lost the
    user's words ("zwei" of ``translate``'s best was gone)."""
    model, tokenizer = loaded
    judged = judging(monkeypatch, {})
    line, decoding = f"INGREDIENTS: {FIRST}", Decoding(beam_size=2, n_best=2)
    texts = [*translate(model, tokenizer, [line], prefix="zwei"),
             *(h.text for h in translate_n_best(model, tokenizer, [line], decoding, prefix="zwei")[0])]
    assert len(texts) == 3 and all(text.startswith("zwei") for text in texts) and judged == []


def test_translate_keeps_a_count_or_a_measure_whose_translation_lost_it_in_the_best_and_every_hypothesis(loaded):
    """The demo model wrote "DOGS: Three." as "HUNDE: Drei Kerle." and "BATTERY: 4 bars" as "BATTERY: Drei
    weiblichen", as the tiny model writes a sentence of its own for each: the value keeps its source, as a text
    line's does, in each hypothesis too; one the prefix starts is the user's."""
    model, tokenizer = loaded
    lines = ["DOGS: Three.", "BATTERY: 4 bars", FIRST]
    translated = translate(model, tokenizer, lines)
    assert translated == translate_text(model, tokenizer, lines)
    assert translated[0].endswith(": Three.") and translated[1].endswith(": 4 bars") and "hund" in translated[2]
    found = translate_n_best(model, tokenizer, lines[:2], Decoding(beam_size=3, n_best=3))
    assert all(h.text.endswith((": Three.", ": 4 bars")) for each in found for h in each)
    prefixed, = translate(model, tokenizer, ["Three."], prefix="ein")
    assert prefixed.startswith("ein")


def test_translate_writes_a_count_alone_in_one_word_in_the_target_languages_word_in_every_hypothesis(
        loaded, monkeypatch):
    """The demo model wrote "SEATS: Twelve" as "SEATS: Es" and gave "ANNA: Three." back in English; into German the
    count is "Zwölf", "Drei.", as a text line writes it; a count the prefix starts is the user's."""
    model, tokenizer = loaded
    monkeypatch.setattr(model, "target_lang", "de")
    lines = ["SEATS: Twelve", "ANNA: Three."]
    translated = translate(model, tokenizer, lines)
    assert translated[0].endswith(": Zwölf") and translated[1] == "ANNA: Drei."
    found = translate_n_best(model, tokenizer, lines, Decoding(beam_size=3, n_best=3))
    assert all(h.text.endswith((": Zwölf", ": Drei.")) for each in found for h in each)
    prefixed, = translate(model, tokenizer, ["Three."], prefix="ein")
    assert prefixed.startswith("ein")


def test_translate_writes_a_numbered_parts_heading_in_the_target_languages_word_in_every_hypothesis(
        loaded, monkeypatch):
    """The demo model kept "Chapter 3:" in English beside a German title and lost "Book II:" read whole; into
    German the heading is "Kapitel 3:", "BUCH II:", as a text line writes it, its title the model's."""
    model, tokenizer = loaded
    monkeypatch.setattr(model, "target_lang", "de")
    lines = ["Chapter 3: A dog runs.", "BOOK II: A MAN WALKS.", "Appendix C: A cat sleeps."]
    translated = translate(model, tokenizer, lines)
    assert [text.split(":")[0] for text in translated] == ["Kapitel 3", "BUCH II", "Anhang C"]
    found = translate_n_best(model, tokenizer, lines, Decoding(beam_size=3, n_best=3))
    assert all(h.text.startswith(("Kapitel 3: ", "BUCH II: ", "Anhang C: ")) for each in found for h in each)


def test_translate_writes_a_numbered_parts_heading_alone_in_the_target_languages_word(loaded, monkeypatch):
    """A heading alone, a sentence or a line of one, is a text line's ("Act III" -> "Akt III"): read as a sentence,
    the demo model wrote "Volume 2" as "Zwei Frauen" and "Part iv:" as "Ein Mann steht vor einer Menschenmenge:"."""
    model, tokenizer = loaded
    monkeypatch.setattr(model, "target_lang", "de")
    lines = ["Volume 2", "Part iv:", "Act III\nScene 4"]
    assert translate(model, tokenizer, lines) == ["Band 2", "Teil iv:", "Akt III\nSzene 4"]
    found = translate_n_best(model, tokenizer, lines, Decoding(beam_size=3, n_best=3))
    assert [each[-1].text for each in found] == ["Band 2", "Teil iv:", "Akt III\nSzene 4"]
    glossary = Glossary.of({"Act": "hund"})  # a term the tiny model's vocabulary writes
    assert translate(model, tokenizer, ["Act III:"], glossary=glossary) == ["hund III:"]


def test_a_glossarys_term_for_a_numbered_parts_word_is_written_before_its_number(loaded, monkeypatch):
    """Made to hold the term alone, the demo model wrote "Chapter 3" as "Ein Mann, der 3 3 Abschnitt ist"."""
    model, tokenizer = loaded
    monkeypatch.setattr(model, "target_lang", "de")
    glossary = Glossary.of({"Chapter": "hund"})  # a term the tiny model's vocabulary writes
    translated, = translate(model, tokenizer, ["Chapter 3: A dog runs."], glossary=glossary)
    assert translated.startswith("hund 3: ")
