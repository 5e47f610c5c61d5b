"""A cue's lines read as speakers' turns (attnmt.documents.cue_lines): where a speaker's dash
is, what stays in front of each turn and what reaches the model, through one WebVTT cue
translated by conftest.py's stand-ins."""

import pytest

from attnmt.documents.subtitles import translate_subtitle_text
from attnmt.documents.translators import FoundTranslations
from attnmt.errors import LeftUntranslated


def cue(lines: str) -> str:
    """A WebVTT file of one cue with these lines."""
    return f"WEBVTT\n\n00:00.000 --> 00:01.000\n{lines}\n"


@pytest.mark.parametrize("lines, translated", [
    ("<v Anna> - Where is the dog?</v>\n<v Ben> - In the water.</v>",
     "<v Anna> - DOG? THE IS WHERE</v>\n<v Ben> - WATER. THE IN</v>"),
    ("Where is the dog?\n<i>  - In the water.</i>", "DOG? THE IS WHERE\n<i>  - WATER. THE IN</i>"),
])
def test_spaces_between_a_start_tag_and_a_speakers_dash_are_kept_in_its_start(mirror, lines, translated):
    """Only a dash right after the tag was a speaker's: "- Where is the dog?" went to the model,
    which moved the dash ("DOG? THE IS WHERE -")."""
    assert translate_subtitle_text(cue(lines), mirror) == cue(translated)
    assert mirror.given == ["Where is the dog?", "In the water."]


@pytest.mark.parametrize("lines, translations, written", [
    ("Where is it?\n- Here.", {"Here.": "Hier."}, "Where is it?\n- Hier."),
    ("Where is it?", {}, "Where is it?"),
])
def test_a_turn_translated_as_nothing_keeps_its_source_in_its_cue(lines, translations, written):
    """An empty line was left where the turn was, which ended the cue: what followed it was read
    again as a block without a timing line; then the turn was left out, its words lost without a
    word.  It keeps its source, with a warning naming its line."""
    with pytest.warns(LeftUntranslated, match="line 4: the translation of 'Where is it\\?' came back empty"):
        out = translate_subtitle_text(cue(lines), FoundTranslations(translations))
    assert out == cue(written)


def test_a_cue_of_a_voice_a_line_is_parted_where_a_dash_follows_a_sentences_end(mirror):
    """Each voice line was one turn: "- In the water." went to the model with its dash."""
    lines = "<v Anna>- Where is the dog? - In the water.</v>\n<v Ben>- Thanks.</v>"
    out = translate_subtitle_text(cue(lines), mirror)
    assert out == cue("<v Anna>- DOG? THE IS WHERE - WATER. THE IN</v>\n<v Ben>- THANKS.</v>")
    assert mirror.given == ["Where is the dog?", "In the water.", "Thanks."]


@pytest.mark.parametrize("lines, given", [
    ("<v Anna>-5 degrees today.</v>\n<v Ben>-10 here.</v>", ["-5 degrees today.", "-10 here."]),
    ("-5 degrees in the north,\n-3 in the south.", ["-5 degrees in the north, -3 in the south."]),
    ("–5 degrees in the north,\n–3 in the south.", ["–5 degrees in the north, –3 in the south."]),
    ("--5 degrees in the north,\n--3 in the south.", ["--5 degrees in the north, --3 in the south."]),
])
def test_a_dash_right_before_a_digit_is_a_minus_in_a_cue_whose_every_line_begins_with_one(same, lines, given):
    """Every line beginning with a dash made each a speaker's turn, without a space after the
    dash too: the model was given "5 degrees today." and the minus kept outside it (a voice a
    line), or one sentence cut in two ("5 degrees in the north,"; "3 in the south.")."""
    assert translate_subtitle_text(cue(lines), same) == cue(lines)
    assert same.given == given


@pytest.mark.parametrize("lines, translated, given", [
    ("♪ The children are singing ♪\n♪ The dog is running ♪", "♪ SINGING ARE CHILDREN THE ♪\n♪ RUNNING IS DOG THE ♪",
     ["The children are singing", "The dog is running"]),
    ("<i>♫ The children are singing ♫</i>\n<i>♫ The dog is running ♫</i>",
     "<i>♫ SINGING ARE CHILDREN THE ♫</i>\n<i>♫ RUNNING IS DOG THE ♫</i>",
     ["The children are singing", "The dog is running"]),
    ("Where is the dog?\n♪ The dog is running ♪", "DOG? THE IS WHERE\n♪ RUNNING IS DOG THE ♪",
     ["Where is the dog?", "The dog is running"]),
])
def test_a_line_beginning_with_a_note_begins_a_lyrics_turn_its_notes_kept_at_both_ends(mirror, lines, translated,
                                                                                       given):
    """Two lyric lines were one text: the model, given "♪ The children are singing ♪ ♪ The dog is
    running ♪", wrote "♪ Die Kinder" / "♪ ♪ singen. ♪", the second line's words gone."""
    assert translate_subtitle_text(cue(lines), mirror) == cue(translated)
    assert mirror.given == given


@pytest.mark.parametrize("lines, translated, given", [
    ("in the park ♪", "PARK THE IN ♪", "in the park"),
    ("and the dog\nis running ♪♪", "RUNNING IS\nDOG THE AND ♪♪", "and the dog is running")])
def test_a_lyrics_last_line_keeps_the_notes_it_ends_with_at_its_end(mirror, lines, translated, given):
    """A lyric run over two cues ("♪ I saw a man" / "in the park ♪") ends the second with its note
    alone: the model read the note as a word, and turned around, it came back "♪ PARK THE IN"."""
    assert translate_subtitle_text(cue(lines), mirror) == cue(translated)
    assert mirror.given == [given]


@pytest.mark.parametrize("control", ["\u202b", "\u200f", "\u2067", "\u061c", "\u202b\u200f"])
def test_a_bidi_control_before_a_speakers_dash_stays_in_front_of_their_turn(mirror, control):
    """Hebrew and Arabic subtitles start a speaker's line with RLE or RLM: the dash was not read as
    a speaker's, so both lines went to the model as one text and the dashes were lost."""
    lines = f"{control}- Where is the dog?\n{control}- In the water."
    out = translate_subtitle_text(cue(lines), mirror)
    assert out == cue(f"{control}- DOG? THE IS WHERE\n{control}- WATER. THE IN")
    assert mirror.given == ["Where is the dog?", "In the water."]


@pytest.mark.parametrize("lines, translated", [
    ("   Hello there.", "   THERE. HELLO"),
    ("\tThe dog is\n    in the park.", "\tPARK. THE IN\n    IS DOG THE"),
    ("  - Where is he?\n  - Here he is.", "  - HE? IS WHERE\n  - IS. HE HERE"),
])
def test_a_lines_indentation_stays_before_its_translation(mirror, lines, translated):
    """Wrapped anew, a cue's lines lost the spaces they began with ("   Hello there." came back
    "THERE. HELLO"): the file's author put them there."""
    assert translate_subtitle_text(cue(lines), mirror) == cue(translated)


@pytest.mark.parametrize("lines, translated", [
    ("[door slams]\nWho is there at the door?", "[DOOR SLAMS]\nWHO IS THERE AT THE DOOR?"),
    ("JOHN:\nWho is there\nat the door?", "JOHN:\nWHO IS THERE\nAT THE DOOR?"),
    ("- JOHN:\n  Who is there at the door?", "- JOHN:\n  WHO IS THERE AT THE DOOR?"),
])
def test_a_label_alone_on_a_cues_first_line_stays_alone_on_it(upper, lines, translated):
    """Translated alone and put back before the words, the label was wrapped with them: "[door
    slams]" / "Who is there at the door?" came back "[DOOR SLAMS] WHO IS" / "THERE AT THE DOOR?"."""
    assert translate_subtitle_text(cue(lines), upper) == cue(translated)


@pytest.mark.parametrize("lines, translated", [
    ("♪ The dog is running ♪\u00a0", "♪ RUNNING IS DOG THE ♪\u00a0"),
    ("♪ The dog is running ♪&nbsp;", "♪ RUNNING IS DOG THE ♪&nbsp;"),
    ("♪ The dog is\nrunning in the park ♪\u202f", "♪ PARK THE IN\nRUNNING IS DOG THE ♪\u202f"),
    ("in the park ♪\u00a0", "PARK THE IN ♪\u00a0"),
])
def test_a_lyrics_notes_before_no_break_spaces_are_kept_at_its_end(mirror, lines, translated):
    """A no-break space after the closing note hid it from the lyric's end: the model was given
    "The dog is running ♪", and turned around, the note came back first ("♪ ♪ RUNNING IS DOG THE")."""
    assert translate_subtitle_text(cue(lines), mirror) == cue(translated)
    assert all("♪" not in given for given in mirror.given)


@pytest.mark.parametrize("lines, translated, given", [
    ("- ♪ Happy birthday to you ♪\n- Thank you.", "- ♪ YOU TO BIRTHDAY HAPPY ♪\n- YOU. THANK",
     ["Happy birthday to you", "Thank you."]),
    ("- Sing!\n- <i>♪ Sing with me ♪</i>", "- SING!\n- <i>♪ ME WITH SING ♪</i>", ["Sing!", "Sing with me"]),
    ("- ♪ The dog is running", "- ♪ RUNNING IS DOG THE", ["The dog is running"]),
])
def test_a_lyric_after_a_speakers_dash_keeps_its_notes_out_of_the_model(mirror, lines, translated, given):
    """The dash was the turn's start and the notes its words: the model was given "♪ Happy birthday
    to you ♪", and a model reads a note as a word, moving it or dropping it."""
    assert translate_subtitle_text(cue(lines), mirror) == cue(translated)
    assert mirror.given == given


@pytest.mark.parametrize("lines, translated, given", [
    ("- ♪ Sing with me ♪ - Stop singing.", "- ♪ ME WITH SING ♪ - SINGING. STOP", ["Sing with me", "Stop singing."]),
    ("- Sing it! - ♪ Sing with me ♪ - Stop.", "- IT! SING - ♪ ME WITH SING ♪ - STOP.",
     ["Sing it!", "Sing with me", "Stop."]),
])
def test_a_one_line_cue_is_parted_where_a_dash_follows_a_lyrics_closing_note(mirror, lines, translated, given):
    """Only a sentence's end parted turns on a line: "Sing with me ♪ - Stop singing." went to the model
    as one text, and the second speaker's dash and words came back before the lyric."""
    assert translate_subtitle_text(cue(lines), mirror) == cue(translated)
    assert mirror.given == given


@pytest.mark.parametrize("lines, translated, given", [
    ("JOHN: Where are you?\nMARY: Here.", "JOHN: YOU? ARE WHERE\nMARY: HERE.",
     ["Where are you?", "Here."]),
    ("JOHN: Where are you going\nMARY: Home.", "JOHN: GOING YOU ARE WHERE\nMARY: HOME.",
     ["Where are you going", "Home."]),
    ("Hello?\n<i>JOHN:</i> Who is it?", "HELLO?\n<i>JOHN:</i> IT? IS WHO", ["Hello?", "Who is it?"]),
    ("Who is it?\n[knocking] Hello?", "IT? IS WHO\n[KNOCKING] HELLO?", ["Who is it?", "[knocking]", "Hello?"]),
    ("Who is it?\n[knocking]\nHello?", "IT? IS WHO\n[KNOCKING]\nHELLO?", ["Who is it?", "[knocking]", "Hello?"]),
    ("I saw a man\n[knocking] in the park.", "PARK. THE IN\n[KNOCKING] MAN A SAW I",
     ["I saw a man [knocking] in the park."]),  # a description inside a sentence stays in it
])
def test_a_line_opening_with_a_speakers_name_or_after_a_sentence_with_a_description_begins_a_turn(
        mirror, lines, translated, given):
    """Only a cue's first line had a label: "MARY:" went to the model with the words around it and
    came back inside the first speaker's line ("JOHN: HOME. MARY:" / "GOING YOU ARE WHERE")."""
    assert translate_subtitle_text(cue(lines), mirror) == cue(translated)
    assert mirror.given == given


def test_a_cues_last_speaker_after_a_name_label_runs_on_into_the_next_cue(mirror):
    source = ("WEBVTT\n\n00:00.000 --> 00:01.000\nJOHN: Hi.\nMARY: I saw a man\n\n"
              "00:01.000 --> 00:02.000\nin the park.\n")
    translate_subtitle_text(source, mirror)
    assert mirror.given == ["Hi.", "I saw a man in the park."]


@pytest.mark.parametrize("translation", ["Hallo\n\nda.", "Hallo\nda.", "Hallo\r\nda.", "Hallo \r da.", "Hallo da.\n\n"])
def test_a_translation_with_line_breaks_comes_back_in_the_cues_lines(translation):
    """A translator's line break went into the file as it was: a blank line ended the cue and made
    "da." a block without a timing line, and a lone CR was read back as one more line."""
    source = cue("Hello there.") + "\n00:01.000 --> 00:02.000\nGood bye.\n"
    out = translate_subtitle_text(source, FoundTranslations({"Hello there.": translation, "Good bye.": "Tschüss."}))
    assert out == cue("Hallo da.") + "\n00:01.000 --> 00:02.000\nTschüss.\n"


@pytest.mark.parametrize("lines, translated, given", [
    ("Who is it? [knocking]\nHello?", "IT? IS WHO [KNOCKING]\nHELLO?", ["Who is it?", "[knocking]", "Hello?"]),
    ("Who is it? [knocking]\nIs anyone home?", "IT? IS WHO [KNOCKING]\nHOME? ANYONE IS",
     ["Who is it?", "[knocking]", "Is anyone home?"]),
    ("Call me (tomorrow).\nOkay?", "(TOMORROW).\nME CALL OKAY?", ["Call me (tomorrow).", "Okay?"]),  # one turn
])
def test_a_line_after_a_sentence_and_a_description_begins_a_turn(mirror, lines, translated, given):
    """The description ending the first line went to the model with the second line's words
    ("[knocking] Hello?"), which moved it into them."""
    assert translate_subtitle_text(cue(lines), mirror) == cue(translated)
    assert mirror.given == given


@pytest.mark.parametrize("lines, translated", [
    ("<i>- Where are</i>\n<i>you going?</i>", "<i>- GOING? YOU</i>\n<i>ARE WHERE</i>"),
    ("<i>- Come. - Where are</i>\n<i>you going?</i>", "<i>- COME. - GOING? YOU</i>\n<i>ARE WHERE</i>"),
    ("<v Anna><i>- Where are</i>\n<i>you going?</i>", "<v Anna><i>- GOING? YOU</i>\n<i>ARE WHERE</i>"),
    ("<i>- Come.</i>\n<i>- Where?</i>", "<i>- COME.</i>\n<i>- WHERE?</i>"),
    ("<i>- Where are you</i>\n<i>going? - Home.</i>", "<i>- GOING? YOU</i>\n<i>ARE WHERE - HOME.</i>"),
    ("<b><i>- Where are</i></b>\n<b><i>you going?</i></b>", "<b><i>- GOING? YOU</i></b>\n<b><i>ARE WHERE</i></b>"),
    ("<v Anna><i>- Where are</i>\n<i>you going?</i></v>", "<v Anna><i>- GOING? YOU</i>\n<i>ARE WHERE</i></v>"),
])
def test_a_speakers_turn_in_italics_line_by_line_keeps_its_tags_well_nested(mirror, lines, translated):
    """Subtitle Edit writes italics a line, and the start tag before the dash stayed in front of the turn while
    its end tag went to the model with the words: "<i>- <i>GOING? YOU</i>" / "ARE</i> WHERE", an <i> in an <i>
    and words out of the italics."""
    assert translate_subtitle_text(cue(lines), mirror) == cue(translated)


@pytest.mark.parametrize("lines, translated", [
    ("<i>JOHN: The dog is</i>\n<i>running in the park.</i>", "<i>JOHN: PARK. THE IN</i>\n<i>RUNNING IS DOG THE</i>"),
    ("<i>The dog is</i>\n<i>running. [DOOR SLAMS]</i>", "<i>RUNNING. IS DOG</i>\n<i>THE SLAMS] [DOOR</i>"),
    ("<i>- JOHN:</i>\n<i>The dog is running.</i>", "<i>- JOHN:</i>\n<i>RUNNING. IS DOG THE</i>"),
    ("<i>- The dog is running.</i>\n<i>[DOOR SLAMS]</i>", "<i>- RUNNING. IS DOG THE</i>\n<i>SLAMS] [DOOR</i>"),
])
def test_a_label_or_a_description_in_italics_a_line_keeps_the_tags_well_nested_and_its_line(mirror, lines,
                                                                                             translated):
    """Translated alone, a label took the start tag before it and left its line's end tag to the words
    ("<i>JOHN: <i>PARK. THE IN" / "RUNNING</i> IS</i> DOG THE"), and a label alone on the first line of a turn in
    italics a line no longer stayed alone on it ("<i>- JOHN: RUNNING.</i>" / "<i>IS DOG THE</i>")."""
    assert translate_subtitle_text(cue(lines), mirror) == cue(translated)


LONG = {"A man is walking his dog.": "Ein Mann geht mit seinem kleinen Hund im großen Park spazieren.",
        "Hi.": "Hallo, wie geht es dir an diesem wunderschönen Morgen?",
        "Hello.": "Guten Morgen, mir geht es heute wirklich sehr gut."}


def test_a_one_line_cue_whose_translation_is_too_long_for_a_line_is_wrapped_into_two_even_lines():
    """A translation of 63 characters came back on the cue's one line, running off the screen's edge:
    subtitlers wrap a cue to two lines of at most 42 characters, at the space nearest the middle."""
    out = translate_subtitle_text(cue("A man is walking his dog."), FoundTranslations(LONG))
    assert out == cue("Ein Mann geht mit seinem kleinen\nHund im großen Park spazieren.")


def test_a_speakers_turn_too_long_for_its_line_keeps_its_line():
    """Each speaker keeps the one line their dash starts: another would make the cue one of three lines."""
    out = translate_subtitle_text(cue("- Hi.\n- Hello."), FoundTranslations(LONG))
    assert out == cue(f"- {LONG['Hi.']}\n- {LONG['Hello.']}")


def test_a_line_roll_up_captions_repeat_is_not_wrapped_anew():
    """Wrapped into two lines, the cue before's line was repeated in half ("Hund im großen Park spazieren.")."""
    source = cue("A man is walking his dog.") + "\n00:01.000 --> 00:02.000\nA man is walking his dog.\nHi.\n"
    out = translate_subtitle_text(source, FoundTranslations(LONG))
    assert out == cue(LONG["A man is walking his dog."]) + (
        f"\n00:01.000 --> 00:02.000\n{LONG['A man is walking his dog.']}\n{LONG['Hi.']}\n")


def test_a_speakers_turn_that_would_make_the_line_before_too_long_goes_on_a_line_of_its_own():
    """Two speakers on one line ("- Hi. - Hello.") came back on one line of 109 characters; with a line to spare, the
    second speaker starts the cue's second line, as subtitlers set two speakers.  Short enough, they share it."""
    out = translate_subtitle_text(cue("- Hi. - Hello."), FoundTranslations(LONG))
    assert out == cue(f"- {LONG['Hi.']}\n- {LONG['Hello.']}")
    out = translate_subtitle_text(cue("- Hi. - Hello."), FoundTranslations({"Hi.": "Hallo.", "Hello.": "Servus."}))
    assert out == cue("- Hallo. - Servus.")


@pytest.mark.parametrize("lines, translations, written", [
    ("Hi.\nWhere have you been all day?",
     {"Hi.": "Hallo.", "Where have you been all day?": "Wo warst du den ganzen Tag?"},
     "Hallo.\nWo warst du den ganzen Tag?"),
    ("<i>Hi.</i>\n<i>Where were you?</i>", {"Hi.": "Hallo.", "Where were you?": "Wo warst du?"},
     "<i>Hallo.</i>\n<i>Wo warst du?</i>"),
    ("Hi.\nI am Dr. Smith's assistant.",
     {"Hi.": "Hallo.", "I am Dr. Smith's assistant.": "Ich bin Dr. Smiths Assistent."},
     "Hallo.\nIch bin Dr. Smiths Assistent."),  # its first sentence's end, not the more even "Dr."
    ("Hi.\nWhere were you?", {"Hi.": "Hallo.", "Where were you?": "Wo warst du den ganzen Tag, und warum so lange?"},
     "Hallo. Wo warst du den ganzen\nTag, und warum so lange?"),  # a sentence a line: the second too long
])
def test_a_cue_of_a_sentence_a_line_keeps_a_sentence_a_line(lines, translations, written):
    """Wrapped at the most even space, "Hi." / "Where have you been all day?" came back "Hallo. Wo warst" / "du den
    ganzen Tag?", a sentence cut where the source set each on its own line; where a line would be too long, even."""
    assert translate_subtitle_text(cue(lines), FoundTranslations(translations)) == cue(written)


@pytest.mark.parametrize("lines, translated", [
    ("<v Anna> Where is the dog?", "<v Anna> DOG? THE IS WHERE"),
    ("<v.loud Ben>  In the water.</v>", "<v.loud Ben>  WATER. THE IN</v>")])
def test_spaces_right_after_a_voice_over_the_whole_cue_stay_after_it(mirror, lines, translated):
    """They were read with the cue's text and dropped (``<v Anna>DOG? THE IS WHERE``), as a space right
    after any other start tag a cue opens with was: the span's content changed for a subtitle editor."""
    assert translate_subtitle_text(cue(lines), mirror) == cue(translated)


KEPT_NAMES = {"(door slams)": "(Eine Tür knallt zu)", "Who is it?": "Wer ist da?", "Come in.": "Komm rein, schnell.",
              "[MUSIC]": "[Musik spielt leise weiter]"}


@pytest.mark.parametrize("line, written", [
    ("(door slams) DR. SMITH (V.O.): Who is it?", "(Eine Tür knallt zu)\nDR. SMITH (V.O.): Wer ist da?"),
    ("[MUSIC] MRS. VAN DER BERG: Come in.", "[Musik spielt leise weiter]\nMRS. VAN DER BERG: Komm rein, schnell."),
    ("(door slams) JUROR 12: Come in.", "(Eine Tür knallt zu)\nJUROR 12: Komm rein, schnell."),
])
def test_a_cues_wrap_never_parts_a_kept_speakers_name(line, written):
    """The most even cut fell inside the name after a description: "(Eine Tür knallt zu) JUROR" / "12: Komm rein,
    schnell.", "... DR." / "SMITH (V.O.): ..."; the name stays whole on its line."""
    assert translate_subtitle_text(cue(line), FoundTranslations(KEPT_NAMES)) == cue(written)


@pytest.mark.parametrize("translation, written", [
    ("Es sind heute draußen schon 35 °C im Schatten, unglaublich.",
     "Es sind heute draußen schon\n35 °C im Schatten, unglaublich."),
    ("Das Zimmer im Hotel kostet 89 Euro pro Nacht mit Frühstück.",
     "Das Zimmer im Hotel kostet\n89 Euro pro Nacht mit Frühstück."),
    ("Mein Großvater wurde gestern 90 Jahre alt, wir haben gefeiert.",
     "Mein Großvater wurde gestern\n90 Jahre alt, wir haben gefeiert."),
])
def test_a_cues_wrap_keeps_a_number_on_the_line_of_the_word_it_counts(translation, written):
    """Subtitlers keep a number with its unit or its noun: the most even cut made "... schon 35" / "°C im ..."."""
    out = translate_subtitle_text(cue("A man is walking his dog."), FoundTranslations({"A man is walking his dog.":
                                                                                      translation}))
    assert out == cue(written)


@pytest.mark.parametrize("lines, translated, given", [
    ("<v Anna>Where is the dog\n<v Anna>in the water?", "<v Anna>WATER? THE IN\n<v Anna>DOG THE IS WHERE",
     ["Where is the dog in the water?"]),
    ("<v Anna>- Where is the dog\n<v Anna>in the water?\n<v Ben>- Here.",
     "<v Anna>- WATER? THE IN\n<v Anna>DOG THE IS WHERE\n<v Ben>- HERE.", ["Where is the dog in the water?", "Here."]),
    ("<v Anna><i>Where is the dog</i>\n<v Anna><i>in the water?</i>",
     "<v Anna><i>WATER? THE IN</i>\n<v Anna><i>DOG THE IS WHERE</i>", ["Where is the dog in the water?"]),
    ("<c.yellow>Where is the dog\n<c.yellow>in the water?", "<c.yellow>WATER? THE IN\n<c.yellow>DOG THE IS WHERE",
     ["Where is the dog in the water?"]),
])
def test_a_voice_each_line_opens_without_its_end_tag_stays_at_each_lines_start(mirror, lines, translated, given):
    """WebVTT leaves out a voice's end tag, and captioners repeat it on every line; the second line's tag was read
    with the words and went where its word went, inside the first line's voice: "<v Anna>WATER? THE IN DOG" /
    "THE <v Anna>IS WHERE"."""
    assert translate_subtitle_text(cue(lines), mirror) == cue(translated)
    assert mirror.given == given
