"""Quality estimation: the flags' rules, the features of one forced pass, and the calibration's fit (its file:
test_calibration_file.py)."""

import math
import re
import unicodedata
from dataclasses import fields, replace

import pytest
import torch
from support import PAIRS, calibration_pairs, search_config, some_features

from attnmt.checkpoint import load_model_dir
from attnmt.decoding import DEFAULT, Decoding
from attnmt.decoding.calibration import (
    CALIBRATION,
    MIN_SENTENCES,
    Calibration,
    calibrate,
    fingerprint,
    fit_calibration,
    load_calibration,
    save_calibration,
)
from attnmt.decoding.fitting import logistic_fit, probability, reliability, ridge_fit
from attnmt.decoding.forced import ForcedPass
from attnmt.decoding.quality import Assessment, Assessor, assess, assess_searched, flags_of
from attnmt.decoding.quality_ending import mark_written
from attnmt.decoding.quality_features import Features, features_of, rules_broken, segments
from attnmt.decoding.quality_joined import joined, read_whole
from attnmt.decoding.quality_language import Languages
from attnmt.decoding.quality_measures import (
    ADDED_END_RUN,
    ADDED_RUN,
    added,
    attention_spread,
    copied_run,
    copied_share,
    cut_short,
    looped,
    names_of,
    repeated_share,
    stop_lost,
    symbols_looped,
    words_doubled,
    words_of,
)
from attnmt.decoding.search import Hypothesis
from attnmt.decoding.state import Recording
from attnmt.decoding.translate import SearchedBatch, translate, translate_n_best
from attnmt.errors import DataError
from attnmt.fast import prepare
from attnmt.model import Transformer
from attnmt.text.tokenizer import Tokenizer

SOURCES = [s for s, _ in PAIRS]
REFERENCES = [t for _, t in PAIRS]


@pytest.fixture(scope="module")
def model_and_tokenizer(trained_model):
    return load_model_dir(trained_model)


def assessed(model_and_tokenizer, sources, translations):
    model, tokenizer = model_and_tokenizer
    return assess(model, tokenizer, sources, translations)


def test_a_word_trigram_three_times_in_a_row_is_a_loop():
    assert looped("ein hund rennt ein hund rennt ein hund rennt".split())
    assert looped("ein hund hund hund".split())
    assert not looped("ein hund rennt und ein hund schläft".split())


def test_a_four_word_phrase_twice_is_a_loop():
    assert looped("ein mann fährt ein fahrrad und ein mann fährt ein auto".split())


def test_a_sentence_of_three_words_written_twice_is_a_loop():
    """No 4-gram to repeat and no n-gram three times: "ein hund rennt ein hund rennt" was no loop."""
    assert looped("ein hund rennt ein hund rennt".split(), "a dog runs".split())
    assert looped(words_of("Ein Hund rennt. Ein Hund rennt."), words_of("A dog runs."))
    assert not looped("ein hund rennt und ein hund schläft".split(), "a dog runs and a dog sleeps".split())
    assert not looped(words_of("Tor, Tor, Tor! Tor, Tor, Tor!"), words_of("Goal, goal, goal! Goal, goal, goal!"))

def test_a_repeat_the_source_has_as_often_is_no_loop():
    # Counted, not matched word for word: the source is in another language.
    assert not looped(words_of("Die Trommel macht bumm bumm bumm."), words_of("The drum goes boom boom boom."))
    assert looped(words_of("Die Trommel macht bumm bumm bumm bumm."), words_of("The drum goes boom boom boom."))
    # Multi30k test line 542: "ein mann in einem" twice, as "a man in a" is in the source.
    assert not looped(words_of("Ein Mann in einem gelben Hemd und ein Mann in einem dunkelblauen Hemd unterhalten "
                               "sich."),
                      words_of("A man in a yellow shirt and a man in a dark blue shirt talking."))
    assert looped("ein mann fährt ein fahrrad und ein mann fährt ein auto".split(), "a man rides".split())


def test_letters_looping_inside_a_word_are_a_loop():
    assert looped(words_of("Ein Dezininininin steht auf der Straße."))  # "in" five times
    assert looped(words_of("Ein Künnnnner spielt."))  # "n" five times
    assert looped(words_of("我喜欢你们我喜欢你们我喜欢你们。"), words_of("I like you."))  # five letters three times
    assert not looped(words_of("一个男人在街上走。"), words_of("A man walks on the street."))
    assert not looped(words_of("Eine Ananas in Mississippi kostet 10000 Dollar."))  # twice, or digits
    assert not looped(words_of("Er ruft Brrrrr."), words_of("He shouts Brrrrr."))  # as the source has it


def test_a_function_word_written_twice_in_a_row_is_a_repetition():
    """"Ein Mann sitzt auf der der Bank." raised no flag: a word twice is no loop (``looped``)."""
    assert words_doubled("Ein Mann sitzt auf der der Bank.", "A man sits on the bench.")
    assert words_doubled("A man sits on the the bench.", "Ein Mann sitzt auf der Bank.")
    assert words_doubled("Ein großer weißer und und ein kleiner Hund.", "A big white and a small dog.")
    assert not words_doubled("Leute, die die Straße überqueren.", "People crossing the street.")  # relative pronoun
    assert not words_doubled("Die Trommel macht bumm bumm.", "The drum goes boom.")  # content words: on purpose
    assert not words_doubled("Der der Mann.", "The man.") and not words_doubled("Tor, Tor!", "Goal!")
    assert not words_doubled("Ein Mann sieht der der Frau zu.", "A man watches the the woman.")  # as the source
    assert not words_doubled("Nous nous levons tôt.", "We get up early.", "fr")  # reflexive: grammar's own
    assert not words_doubled("Er fragt, ob sie sie kennt.", "He asks whether she knows her.", "de")
    assert not words_doubled("Ich weiß, dass das das Beste ist.", "I know that this is the best.", "de")
    assert not words_doubled("Ik weet dat dat klopt.", "I know that this is right.", "nl")
    assert not words_doubled("What it is is a game.", "Was es ist, ist ein Spiel.", "en")


def test_any_word_twice_in_a_row_is_a_repetition_in_a_language_that_doubles_none_on_purpose():
    assert words_doubled("Eine Frau steht steht am Pult.", "A woman stands at a lectern.", "de")
    assert not words_doubled("Eine Frau steht steht am Pult.", "A woman stands at a lectern.")  # language unknown
    assert not words_doubled("Adam yavaş yavaş yürüyor.", "The man walks slowly.", "tr")  # Turkish's "slowly"


def test_a_symbol_again_and_again_is_a_loop_unless_the_source_has_as_long_a_run():
    """A model stuck on a symbol writes no word more: "Ein Hund rennt!!!!!!!!" had no loop."""
    assert symbols_looped("Ein Hund rennt!!!!!!!!", "A dog runs!")
    assert symbols_looped("Ein Hund rennt - - - - - -", "A dog runs.")
    assert symbols_looped("Ein Hund rennt?!?!?!", "A dog runs?!")
    assert symbols_looped("Ein Hund rennt..........", "A dog runs...")
    assert not symbols_looped("Ein Hund rennt...", "A dog runs...")  # an ellipsis
    assert not symbols_looped("Ein Hund rennt!!!", "A dog runs!")  # under SYMBOL_RUN
    assert not symbols_looped("Kapitel 1 .......... 5", "Chapter 1 .......... 5")  # as long a run as the source's
    assert not symbols_looped("Ein Hund - rennt - schnell - weg", "A dog - runs - fast - away")  # words between

def test_repeated_share_counts_bigrams_seen_before():
    assert repeated_share("a b a b".split()) == pytest.approx(1 / 3)  # (a b) (b a) (a b): one of three again
    assert repeated_share("a b c".split()) == 0.0


def test_copied_share_is_the_share_of_translation_words_found_in_the_source():
    assert copied_share("a dog runs", "A dog runs!") == 1.0
    assert copied_share("a dog runs", "ein hund rennt") == 0.0
    assert copied_share("a dog runs", "ein dog rennt") == pytest.approx(1 / 3)


def test_a_copy_in_another_unicode_form_is_a_copy():
    """The model reads both in NFKC: a source typed with combining accents (NFD) or in full-width
    letters, copied as "é" and ASCII, was 0.2 and 0.0, and flagged no ``copied``."""
    text = "The café owner René met Zoë and Chloé in Genève."
    assert copied_share(unicodedata.normalize("NFD", text), text) == 1.0
    assert copied_share(text, unicodedata.normalize("NFD", text)) == 1.0
    assert copied_share("ＴＨＥ ＤＯＧ ＲＵＮＳ ＦＡＳＴ.", "THE DOG RUNS FAST.") == 1.0
    assert copied_share("Die Straße", "die STRASSE") == 1.0  # case-folded: "ß" is "ss"


def one_word(copied: float) -> Assessment:
    """A sentence of one word, a copy of its source's (1.0) or not (0.0)."""
    return Assessment(0.9, [], False, features=Features(-0.1, -0.1, -0.1, 0.0, 0.0, copied, 1.0, words=1))


def test_a_copy_of_a_text_of_one_word_sentences_is_copied():
    """"Cancel. Retry. Abort." scored against itself: no sentence has the two words the rule needs
    alone, the text has three, all source words."""
    assert joined([one_word(1.0)] * 3).flags == ["copied"]
    assert joined([one_word(1.0), one_word(1.0), one_word(0.0)]).flags == ["copied"]  # two of three words: 67 %
    assert joined([one_word(1.0), one_word(0.0)]).flags == []  # half its words
    assert joined([one_word(1.0)]).flags == []  # one word in all


def test_a_text_whose_copied_words_are_names_is_no_copy():
    """"Anna. Paris." as "Anna. Paris.": two names kept, no word the model was to translate."""
    name = Assessment(0.9, [], False, features=replace(one_word(1.0).features, names=1))
    assert joined([name, name]).flags == [] and joined([name, one_word(1.0), one_word(1.0)]).flags == ["copied"]


def test_a_text_read_whole_reads_the_verbatim_rule_without_a_terminal_s_codes():
    """``attnmt score`` of translate's JSONL output: a hyperlink's URL glued to the word it wraps was read as
    "https://example.org\\x1b\\link", which the translation of "link" ("Verweis") made differ; translate, whose model
    read the text without its codes, raised no flag."""
    link = "\x1b]8;;https://example.org\x1b\\{}\x1b]8;;\x1b\\"
    source = f"\x1b[1mA dog runs in the park.\x1b[0m {link.format('link')}"
    translation = f"\x1b[1mEin Hund rennt im Park.\x1b[0m {link.format('Verweis')}"
    assert read_whole(one_word(0.0), source, translation).flags == []
    changed = read_whole(one_word(0.0), f"\x1b[31m{source} 5\x1b[0m", "Ein Hund rennt im Park. \x1b[31m6\x1b[0m")
    assert changed.flags == ["verbatim"]  # a number changed is still one


def test_the_references_of_a_model_that_knows_them_raise_no_flag(model_and_tokenizer):
    for a in assessed(model_and_tokenizer, SOURCES, REFERENCES):
        assert a.flags == [] and a.quality > 0.8 and a.calibrated is False


def test_the_source_copied_as_its_translation_is_flagged_copied(model_and_tokenizer):
    [a] = assessed(model_and_tokenizer, ["a man rides a bike"], ["a man rides a bike"])
    assert "copied" in a.flags and "low_quality" in a.flags


def test_a_translation_with_another_number_is_flagged_verbatim_and_its_quality_kept(model_and_tokenizer):
    [right, changed] = assessed(model_and_tokenizer, ["3 dogs run"] * 2, ["3 hunde rennen", "5 hunde rennen"])
    assert "verbatim" not in right.flags and "verbatim" in changed.flags
    assert changed.quality == pytest.approx(math.exp(changed.features.mean_log_prob))  # a rule: no fit input


def test_a_translation_with_another_number_in_words_is_flagged_verbatim(model_and_tokenizer):
    [right, changed] = assessed(model_and_tokenizer, ["two dogs run"] * 2, ["zwei hunde rennen", "drei hunde rennen"])
    assert "verbatim" not in right.flags and "verbatim" in changed.flags and changed.quality < right.quality

def test_a_number_in_words_added_against_the_sources_article_is_flagged_verbatim_where_the_languages_are_known(
        model_and_tokenizer):
    model, tokenizer = model_and_tokenizer
    for languages, flagged in ((Languages("en", "de"), True), (Languages(None, "de"), False)):
        [added] = assess(model, tokenizer, ["a dog runs"], ["zwei hunde rennen"], languages=languages)
        assert ("verbatim" in added.flags) is flagged


def test_a_translation_that_lost_its_sources_tags_or_placeholders_is_flagged_verbatim(model_and_tokenizer):
    """The model, which never saw a "<" or a "%", rates the translation without them far above the one that
    keeps them (0.998 against 0.0008): the flag alone says that the program will not fill it."""
    sources = ["a man rides <b>a bike</b>"] * 2 + ["a man rides %s"] * 2
    kept, lost, kept_printf, lost_printf = assessed(model_and_tokenizer, sources, [
        "ein mann fährt <b>ein fahrrad</b>", "ein mann fährt ein fahrrad", "ein mann fährt %s", "ein mann fährt"])
    assert lost.quality > kept.quality and "verbatim" in lost.flags and "verbatim" not in kept.flags
    assert "verbatim" in lost_printf.flags and "verbatim" not in kept_printf.flags

def test_a_looping_translation_is_flagged_repetition(model_and_tokenizer):
    [a] = assessed(model_and_tokenizer, ["a dog runs"], ["ein hund rennt rennt rennt rennt"])
    assert "repetition" in a.flags


@pytest.mark.parametrize(("broken", "flag"), [
    ("ein mann fährt ein fahrrad rides a bike", "copied"),  # a stretch of the source left untranslated
    ("ein mann fährt,", "untranslated"),  # cut off at a comma
])
def test_a_partial_translation_is_flagged_where_the_whole_one_is_not(model_and_tokenizer, broken, flag):
    """"Ein Mann schläft in einem green room on a couch." raised no rule: 5 of its 10 words are the
    source's, under the copied share; nor did a translation that stops at a comma."""
    [part, whole] = assessed(model_and_tokenizer, ["a man rides a bike"] * 2, [broken, "ein mann fährt ein fahrrad"])
    assert flag in part.flags and flag not in whole.flags


@pytest.mark.parametrize(("source", "translation", "copied"), [
    ("A man sleeps in a green room on a couch.", "Ein Mann schläft in einem green room on a couch.", True),
    ("Two men build a blue fishing hut on a lake.", "Zwei Männer bauen eine blaue fishing hut on a lake", True),
    ("A man is loading cotton onto a truck.", "Ein Mann lädt Baumwolle auf einen Lastwagen.", False),
    ("Giant bears sit in the street in New York City.", "Riesige Bären sitzen in New York City auf der Straße.",
     False),  # a name keeps its capitals
    ("A man holds a sign saying stop raping my wife.", "Ein Mann hält ein Schild: „stop raping my wife“.", False),
    ("Girls walk hand in hand.", "Mädchen gehen Hand in Hand.", False),  # one lower-case word of three
    ("See https://example.com/how-to-use for more.", "Siehe https://example.com/how-to-use für mehr.", False),
    ("Open my.final.report.pdf now.", "Öffne jetzt my.final.report.pdf.", False),  # what passes through
    ("Write to anna.maria.b@example.org today.", "Schreib heute an anna.maria.b@example.org.", False),
    ('<a href="/help" class="is-it-on">Help</a> me', '<a href="/help" class="is-it-on">Hilfe</a>', False),
    ("Run `pip install attnmt` now.", "Führe jetzt `pip install attnmt` aus.", False),  # code
    ("See github.com/attnmt/attnmt for the code.", "Den Code finden Sie unter github.com/attnmt/attnmt.", False),
])
def test_three_words_in_a_row_copied_in_lower_case_are_a_copied_run(source, translation, copied):
    assert copied_run(source, translation) == copied


@pytest.mark.parametrize(("source", "translation", "cut"), [
    ("A group of men are loading cotton onto a truck.", "Eine Gruppe von Männern,", True),
    ("A man in a red coat is sitting on a bench.", "Ein Mann in einem roten Mantel sitzt auf einer (", True),
    ("A sign says:", "Ein Schild sagt:", False),  # the source goes on too: a subtitle's line
    ("A sign says \"Come on now.\"", "Ein Schild sagt: „Come on now.“", False),  # German's closing quote
    ("A dog runs.", "Ein Hund rennt.", False),
    ("A man is sitting on a bench.", "...", True),  # punctuation alone: cut before its first word
    ("Dog.", ".", True),
    ("...", "...", False),  # no letter in the source either
    ("Chapter 12", "12", False),  # a number is a word
    ("Visit https://example.com/ today.", "Besuchen Sie heute https://example.com/", False),  # a URL's last "/"
    ("Open <b>the file</b> now.", "Öffnen Sie jetzt <b>die Datei</b>", False),
    ("How are you?", "Τι κάνεις;", False),  # the Greek question mark
])
def test_a_translation_ending_where_a_sentence_goes_on_is_cut_short(source, translation, cut):
    assert cut_short(source, translation) == cut


@pytest.mark.parametrize(("source", "translation", "lost"), [
    ("A man sleeping in a green room on a couch.", "Ein Mann schläft in einem grünen Raum auf einem Sofa", True),
    ("Watch out!", "Pass auf", True),
    ("A dog runs across the street.", "Ein Hund rennt über die", True),  # cut after a whole word
    ("A dog runs.", "Ein Hund rennt.", False),
    ("A dog runs", "Ein Hund rennt", False),  # the source has no full stop either
    ("A dog runs.", "Ein Hund rennt.\n", False),  # a line's end, a no-break space, a zero-width space after it
    ("A dog runs.", "Ein Hund rennt.\u00a0", False),
    ("A dog runs.\u200b", "Ein Hund rennt", True),
    ('A sign says "Stop."', "Ein Schild sagt „Halt.“", False),  # German's closing quote after the mark
    ("Is he there?", "Ist er da?", False),
    ("How are you?", "Τι κάνεις;", False),  # the Greek question mark
    ("Dog.", "...", False),  # no word: cut_short's
])
def test_a_translation_without_its_sources_final_mark_lost_its_stop(source, translation, lost):
    assert stop_lost(source, translation) == lost


def test_a_translation_that_lost_its_sources_full_stop_breaks_the_punctuation_rule():
    forced = ForcedPass([5, 6, 7, 8, 2], [9, 10, 11], [-0.1] * 4, torch.full((3, 5), 0.2))
    pieces = ["\u2581A", "\u2581dog", "\u2581runs", ".", "</s>"]
    lost, kept = (features_of(forced, "A dog runs.", text, pieces, 1) for text in ("Ein Hund rennt", "Ein Hund rennt."))
    assert rules_broken(lost, (0.4, 2.5))["punctuation"] and not rules_broken(kept, (0.4, 2.5))["punctuation"]


def read_by_hand(source: str, translation: str) -> Features:
    """The Features of ``translation`` from a forced pass of even log-probs and attention, its pieces one a word."""
    pieces = [f"\u2581{word}" for word in source.split()] + ["</s>"]
    forced = ForcedPass(list(range(5, 5 + len(pieces))), [9, 10, 11], [-0.1] * 4, torch.full((3, len(pieces)), 0.5))
    return features_of(forced, source, translation, pieces, 1)


def test_names_are_the_words_written_with_a_capital_where_no_sentence_starts():
    assert names_of("Michael Jordan is signing autographs in New York.") == {"jordan", "new", "york"}
    assert names_of("A man walks. The dog runs after Max: Stop!") == {"max"}
    assert names_of("The New dog and the new cat.") == set()  # in lower case too: no name


@pytest.mark.parametrize(("source", "translation", "copied"), [
    ("Michael Jordan is signing autographs in New York.", "Michael Jordan gibt in New York Autogramme.", False),
    ("Anna and Thomas are walking through Paris.", "Anna und Thomas gehen durch Paris.", False),
    ("John and Mary visit New York.", "John and Mary visit New York.", True),  # a copy, names aside
    ("Anna is walking through Paris.", "Anna is walking through Paris.", True),
])
def test_names_kept_as_written_are_no_copy(source, translation, copied):
    """"Michael Jordan gibt in New York Autogramme." was 5 of 7 words copied, flagged ``copied``."""
    assert rules_broken(read_by_hand(source, translation), (0.1, 10.0))["copied"] is copied


@pytest.mark.parametrize(("source", "translation"), [
    ("Team meeting tomorrow.", "Team-Meeting morgen."),
    ("Online shop closed.", "Online-Shop geschlossen."),
    ("Software update available.", "Software-Update verfügbar."),
    ("Live stream today.", "Live-Stream heute."),
    ("Check e-mail now.", "E-Mail-Check jetzt."),  # "e-mail" the source's own compound, "E-Mail-Check" not
])
def test_a_compound_the_translation_joins_with_hyphens_is_no_copy(source, translation):
    """"Team meeting tomorrow." as "Team-Meeting morgen." was 2 of 3 words copied, flagged ``copied``: German makes
    one word of the two, with a hyphen.  The source as it is, or with a hyphen it already writes, is still a copy."""
    assert not rules_broken(read_by_hand(source, translation), (0.1, 10.0))["copied"]
    assert rules_broken(read_by_hand(source, source), (0.1, 10.0))["copied"]


@pytest.mark.parametrize(("source", "translation"), [
    ("Platform 9 at 10:45", "Gleis 9 um 10:45"),
    ("Gate 12 at 14:30", "Flugsteig 12 um 14:30"),
    ("Version 2.3.1 released on 12.05.2024", "Version 2.3.1 veröffentlicht am 12.05.2024"),
    ("Rooms 20-40, floors 1-3", "Zimmer 20-40, Etagen 1-3"),
])
def test_numbers_kept_as_written_are_no_copy(source, translation):
    """"Platform 9 at 10:45" as "Gleis 9 um 10:45" was 3 of 5 words copied, flagged ``copied``: a number is kept as
    it is, which the verbatim rule checks, and is no word left untranslated.  The source as it is is still a copy."""
    assert not rules_broken(read_by_hand(source, translation), (0.1, 10.0))["copied"]
    assert rules_broken(read_by_hand(source, source), (0.1, 10.0))["copied"]


def test_a_text_whose_copied_words_are_numbers_is_no_copy():
    """"Gleis 9. 10:45." as a text of sentences: its numbers, kept, are no copy, as a name is not."""
    number = Assessment(0.9, [], False, features=replace(one_word(1.0).features, numbers=1))
    assert joined([number, number, one_word(0.0)]).flags == []
    assert joined([number, one_word(1.0), one_word(1.0)]).flags == ["copied"]


class MarksKnown:
    """A target tokenizer whose vocabulary holds "." (id 4) and no "!" (unknown, id 1)."""

    def encode_target(self, text: str) -> list[int]:
        return [4 if ch == "." else 1 for ch in text.replace(" ", "")]


def test_the_punctuation_rule_reads_only_a_mark_the_models_vocabulary_writes(model_and_tokenizer):
    """The tiny vocabulary knows no ".": every full stop is lost to it, and no line is flagged for one."""
    assert mark_written(MarksKnown(), "A dog runs.", 1) and not mark_written(MarksKnown(), "Run!", 1)
    [lost] = assessed(model_and_tokenizer, ["a dog runs."], ["ein hund rennt"])
    assert lost.features.stop_lost is False and "punctuation" not in lost.flags


def test_assess_flags_a_lost_full_stop_where_the_models_vocabulary_writes_it():
    """Through a real tokenizer whose vocabulary holds "." (trained on the pairs with a full stop) and a random
    model of its size: the rule reads the text, not the weights; "!" it lacks is lost to it, and not flagged."""
    tokenizer = Tokenizer.train([f"{side}." for pair in PAIRS for side in pair], vocab_size=60)
    torch.manual_seed(0)
    model = Transformer(search_config(vocab_size=tokenizer.vocab_size)).eval()
    lost, kept, unwritable = assess(model, tokenizer, ["a dog runs.", "a dog runs.", "a dog runs!"],
                                    ["ein hund rennt", "ein hund rennt.", "ein hund rennt"])
    assert "punctuation" in lost.flags
    assert "punctuation" not in kept.flags and "punctuation" not in unwritable.flags


def test_a_translation_with_an_article_twice_is_flagged_repetition(model_and_tokenizer):
    [doubled, whole] = assessed(model_and_tokenizer, ["the dog sleeps"] * 2,
                                ["der der hund schläft", "der hund schläft"])
    assert "repetition" in doubled.flags and "repetition" not in whole.flags


def test_a_translation_looping_on_a_symbol_is_flagged_repetition_and_scores_below_the_whole_one(model_and_tokenizer):
    good, looping = assessed(model_and_tokenizer, ["a dog runs"] * 2, ["ein hund rennt", "ein hund rennt - - - - - -"])
    assert "repetition" in looping.flags and "repetition" not in good.flags and looping.quality < good.quality

def test_a_translation_written_twice_is_flagged_repetition_and_scores_below_the_whole_one(model_and_tokenizer):
    good, twice = assessed(model_and_tokenizer, ["a dog runs"] * 2, ["ein hund rennt", "ein hund rennt ein hund rennt"])
    assert "repetition" in twice.flags and "repetition" not in good.flags and twice.quality < good.quality

def test_a_repeat_of_the_sources_is_not_flagged_repetition(model_and_tokenizer):
    [a] = assessed(model_and_tokenizer, ["a dog runs runs runs runs"], ["ein hund rennt rennt rennt rennt"])
    assert "repetition" not in a.flags


def test_a_translation_three_times_too_long_is_flagged_length(model_and_tokenizer):
    [a] = assessed(model_and_tokenizer, ["a dog runs"], ["ein mann fährt ein fahrrad und eine frau liest ein buch"])
    assert "length" in a.flags


def test_a_cut_translation_scores_below_the_whole_one(model_and_tokenizer):
    whole, cut = assessed(model_and_tokenizer, ["a woman reads a book"] * 2, ["eine frau liest ein buch", "eine frau"])
    assert cut.quality < whole.quality and cut.features.eos_log_prob < whole.features.eos_log_prob


def test_blank_pairs_are_not_assessed(model_and_tokenizer):
    assert assessed(model_and_tokenizer, ["", "a dog runs"], ["", ""]) == [None, None]


def test_a_translation_of_invisible_characters_alone_is_empty_for_every_assessor(model_and_tokenizer):
    """A zero-width space, a word joiner or a soft hyphen shows nothing, as a blank translation: no
    pass, and the Assessor (translate, the server) gives it quality 0 and ``empty``.  The word
    joiner and the soft hyphen were read as an unknown piece; the zero-width space was left None."""
    model, tokenizer = model_and_tokenizer
    invisible = ["\u200b", "\u2060", "\u00ad"]
    assert assessed(model_and_tokenizer, ["a dog runs"] * 3, invisible) == [None] * 3
    found = Assessor().assess(model, tokenizer, ["a dog runs"] * 3, invisible)
    assert [(a.quality, a.flags) for a in found] == [(0.0, ["empty", "low_quality"])] * 3



def test_a_source_of_invisible_characters_alone_is_blank_to_the_search_as_to_the_assessor(model_and_tokenizer):
    """A soft hyphen, a word joiner or NUL alone shows nothing: translate gives "" and
    translate_n_best [], as for a line of spaces, and the Assessor takes "" for the copy it is.
    The search read them as an unknown piece and invented a sentence of quality ~0.1."""
    model, tokenizer = model_and_tokenizer
    invisible = ["\u00ad", "\u2060", "\x00"]
    assert translate(model, tokenizer, invisible) == [""] * 3
    assert translate_n_best(model, tokenizer, invisible, quality=Assessor()) == [[]] * 3
    found = Assessor().assess(model, tokenizer, invisible, [""] * 3)
    assert [(a.quality, a.flags) for a in found] == [(1.0, [])] * 3

def test_punctuation_the_vocabulary_lacks_is_not_flagged_unknown_a_symbol_or_a_word_is(model_and_tokenizer):
    """A vocabulary without "«" or "—" flagged every line of a text that has them ``unknown``, and a weak
    model's review listed them all; a symbol ("€") or a word the model cannot read still is flagged."""
    model, tokenizer = model_and_tokenizer
    assert tokenizer.encode_target("« — €").count(model.config.unk_id) == 3  # none of them a piece of its own
    quoted, dashed, priced, named = assessed(model_and_tokenizer, ["«a dog runs»", "a dog — runs", "a dog runs €",
                                                                   "a dog runs"],
                                             ["«ein hund rennt»", "ein hund — rennt", "ein hund rennt €",
                                              "ein hund rennt 東京"])
    assert "unknown" not in quoted.flags and "unknown" not in dashed.flags
    assert "unknown" in priced.flags and "unknown" in named.flags
    assert (quoted.features.unknown, priced.features.unknown) == (0, 2)  # "€" in the source and the translation


def test_the_assessor_reads_utf8_bytes_as_their_text(model_and_tokenizer):
    """Assessor.assess took bytes on to ``with_empty``, which looked for a blank translation in them:
    AttributeError: 'int' object has no attribute 'isspace'.  Now it reads them as ``assess`` does."""
    model, tokenizer = model_and_tokenizer
    as_text = Assessor().assess(model, tokenizer, ["a dog runs", "a cat sleeps"], ["ein hund rennt", ""])
    as_bytes = Assessor().assess(model, tokenizer, [b"a dog runs", b"a cat sleeps"], [b"ein hund rennt", b""])
    assert as_bytes == as_text and as_text[1].flags == ["empty", "low_quality"]


def test_a_text_with_no_letter_passed_through_as_it_is_is_right_by_construction(model_and_tokenizer):
    # The tiny model reads "12345" as its own translation with probability ~0.0; a copy is its own reference.
    copies = assessed(model_and_tokenizer, ["12345", "!!!", " 2 + 2 "], ["12345", "!!!", "2 + 2"])
    assert [(a.quality, a.flags, a.calibrated) for a in copies] == [(1.0, [], False)] * 3
    changed, words = assessed(model_and_tokenizer, ["12345", "a dog runs"], ["12346", "a dog runs"])
    assert changed.quality < 1.0 and "low_quality" in changed.flags  # no copy: read as any translation
    assert words.quality < 1.0 and "copied" in words.flags  # letters: a copy is no translation


def test_the_words_of_a_text_passed_through_have_no_probability(model_and_tokenizer):
    """Passed through, the copy is none of the model's words: "123" got the model's 0.0 beside quality 1."""
    copies = assessed(model_and_tokenizer, ["123", " 2 + 2 "], ["123", "2 + 2"])
    assert [a.words for a in copies] == [[("123", None)], [("2", None), ("+", None), ("2", None)]]
    [changed] = assessed(model_and_tokenizer, ["12345"], ["12346"])
    assert changed.words[0][1] is not None  # no copy: the model's reading


def test_a_copy_the_model_reads_as_no_piece_is_right_by_construction(model_and_tokenizer):
    """A line of invisible characters alone (a zero-width space, a left-to-right mark, a byte order
    mark, DEL) passes through as it is; with no piece to read it had no pass and no assessment,
    and translate's tsv row had 5 columns, which evaluate and score refused."""
    _, tokenizer = model_and_tokenizer
    invisible = ["\u200b", "\u200e", "\ufeff", "\x7f"]
    assert [tokenizer.encode_target(text) for text in invisible] == [[]] * 4  # no forced pass to read
    copies = assessed(model_and_tokenizer, invisible, invisible)
    assert [(a.quality, a.flags, a.calibrated) for a in copies] == [(1.0, [], False)] * 4



def test_a_pair_the_model_reads_no_piece_of_one_side_of_is_no_good_translation(model_and_tokenizer):
    """"\u2581", SentencePiece's mark for a space, alone reads as no piece: as a translation of a
    source with text it is empty, and a translation of it (but the copy) is vouched for by nothing.
    ``attnmt score`` gave each quality 1 and no flags."""
    model, tokenizer = model_and_tokenizer
    assert tokenizer.encode_target("\u2581") == [] and tokenizer.encode("\u2581") == []  # no EOS either
    sources = ["a dog runs", "a dog runs", "\u2581", "\u2581", "\u2581", "\u2581 \u2581"]
    translations = ["\u2581", "\x7f\u2581", "ein hund", "\u2581", "\u2581\u2581", "\u2581"]  # DEL: invisible
    found = Assessor().assess(model, tokenizer, sources, translations)
    assert [(a.quality, a.flags) for a in found] == [(0.0, ["empty", "low_quality"])] * 2 + [
        (0.0, ["low_quality"])] + [(1.0, [])] * 3  # neither side read: nothing lost, nothing added
    assert found[2].words == [("ein", None), ("hund", None)]  # no word of it was read

# The 20 pairs' sources, others made of their words, a one-word source and a long one of seven sentences.
SEARCHED = [*SOURCES, "dog", "a dog sleeps", "two cats run", "the woman rides a horse", "a bird reads a book",
            "the girl laughs", "zebra quantum xylophone", " ".join(SOURCES[:7])]


def assert_assessed_alike(found: Assessment, expected: Assessment) -> None:
    assert found.quality == pytest.approx(expected.quality, abs=1e-4) and found.flags == expected.flags
    assert [w for w, _ in found.words] == [w for w, _ in expected.words]
    # each rounded to 4 places: 0.99945 rounds to 0.9994 from one batch and 0.9995 from the other on a Zen 4 EPYC
    assert [p for _, p in found.words] == pytest.approx([p for _, p in expected.words], abs=1.5e-4)
    assert compared(found.features) == pytest.approx(compared(expected.features), abs=1e-4)


def compared(features: Features) -> list:
    """The values of ``features`` that it is compared by (not what the verbatim rule read: Features.verbatim_read)."""
    return [getattr(features, f.name) for f in fields(Features) if f.compare]


@pytest.mark.parametrize("fast", [False, True], ids=["readable", "fast copy"])
@pytest.mark.parametrize(("beam", "n_best"), [(1, 1), (4, 1), (3, 3)])
def test_the_search_assesses_its_hypotheses_as_assess_does(model_and_tokenizer, fast, beam, n_best):
    readable, tokenizer = model_and_tokenizer
    model = prepare(readable) if fast else readable
    found = translate_n_best(model, tokenizer, SEARCHED, Decoding(beam_size=beam, n_best=n_best), max_sentences=8,
                             quality=Assessor())
    hypotheses = [(s, h) for s, hs in zip(SEARCHED, found, strict=True) for h in hs]
    again = assess(readable, tokenizer, [s for s, _ in hypotheses], [h.text for _, h in hypotheses])
    assert len(hypotheses) == n_best * len(SEARCHED)
    for (_, h), a in zip(hypotheses, again, strict=True):
        assert_assessed_alike(h.assessment, a)


def test_the_int8_copys_search_assesses_its_translations_as_assess_does_with_that_copy(model_and_tokenizer):
    """Its step keeps keys and values in float16, a forced pass in float32: the search's log-probs were
    taken as the pass's, and translate --int8 gave "a man runs" 0.9141 where score --int8 gave 0.9200."""
    readable, tokenizer = model_and_tokenizer
    model = prepare(readable, int8=True)
    found = translate_n_best(model, tokenizer, SEARCHED, Decoding(beam_size=2), quality=Assessor())
    again = assess(model, tokenizer, SEARCHED, [hs[0].text for hs in found])
    for hypotheses, a in zip(found, again, strict=True):
        assert_assessed_alike(hypotheses[0].assessment, a)


@pytest.mark.parametrize(("int8", "decoding", "recorded"), [
    (False, Decoding(beam_size=2), True),  # the search's log-probs and attention are the pass's: read, not computed
    (True, Decoding(beam_size=2), False),  # its step's cache in float16: the whole pass runs
    (False, Decoding(beam_size=2, repetition_penalty=1.5), False),  # a changed distribution: so too
])
def test_the_search_records_its_attention_only_where_the_assessment_reads_it(model_and_tokenizer, monkeypatch,
                                                                              int8, decoding, recorded):
    """translate --int8 kept every step's cross-attention of every hypothesis, for a pass that computes it again."""
    readable, tokenizer = model_and_tokenizer
    model = prepare(readable, int8=int8)
    steps = []
    mean = Recording.mean
    monkeypatch.setattr(Recording, "mean", lambda self, weights: steps.append(weights) or mean(self, weights))
    found = translate_n_best(model, tokenizer, SEARCHED[:6], decoding, quality=Assessor())
    assert bool(steps) == recorded
    again = assess(model, tokenizer, SEARCHED[:6], [hs[0].text for hs in found])
    for hypotheses, a in zip(found, again, strict=True):
        assert_assessed_alike(hypotheses[0].assessment, a)


def searched_alone(model_and_tokenizer, source: str, tokens: list[int], log_probs: list[float],
                   decoding: Decoding = DEFAULT) -> SearchedBatch:
    """A batch of one sentence whose search found one hypothesis: ``tokens``, at ``log_probs``."""
    model, tokenizer = model_and_tokenizer
    src = torch.tensor([tokenizer.encode(source)])
    with torch.inference_mode():
        memory = model.encode(src)
    return SearchedBatch([0], src, memory, [[Hypothesis(tokens, 0.0, sum(log_probs), 0, log_probs)]], decoding)


def test_the_searchs_own_log_probs_are_read_not_computed_again(model_and_tokenizer):
    model, tokenizer = model_and_tokenizer
    ids = tokenizer.encode_target("ein hund rennt")
    batch = searched_alone(model_and_tokenizer, "a dog runs", ids, [0.0] * (len(ids) + 1))  # P = 1 throughout
    [[found]] = assess_searched(model, tokenizer, ["a dog runs"], batch, [["ein hund rennt"]])
    assert found.quality == 1.0 and found.features.min_log_prob == 0.0


@pytest.mark.parametrize(("tokens", "decoding"), [
    ("other ids", Decoding()),  # the text reads as other ids than the search wrote
    ("its ids", Decoding(repetition_penalty=1.5)),  # the search scored a changed distribution
])
def test_where_the_searchs_log_probs_are_not_the_texts_the_forced_pass_gives_them(model_and_tokenizer, tokens,
                                                                                 decoding):
    model, tokenizer = model_and_tokenizer
    ids = tokenizer.encode_target("ein hund rennt")
    written = ids if tokens == "its ids" else ids[:-1]
    batch = searched_alone(model_and_tokenizer, "a dog runs", written, [0.0] * (len(written) + 1), decoding)
    [[found]] = assess_searched(model, tokenizer, ["a dog runs"], batch, [["ein hund rennt"]])
    assert_assessed_alike(found, assessed(model_and_tokenizer, ["a dog runs"], ["ein hund rennt"])[0])
    assert found.quality < 1.0


def test_translations_carry_no_quality_unless_asked(model_and_tokenizer):
    import attnmt

    model, tokenizer = model_and_tokenizer
    [[plain]], [[rated], []] = (attnmt.translate_n_best(model, tokenizer, ["a dog runs"]),
                                attnmt.translate_n_best(model, tokenizer, ["a dog runs", " "],
                                                        quality=attnmt.Assessor()))
    assert plain.text == rated.text == "ein hund rennt"
    assert plain.quality is None and plain.flags is None
    assert rated.quality > 0.8 and rated.flags == [] and rated.assessment.calibrated is False


def test_logistic_fit_recovers_the_weights_that_made_the_labels():
    generator = torch.Generator().manual_seed(0)
    x = torch.randn(4000, 2, generator=generator, dtype=torch.float64)
    p = torch.sigmoid(x @ torch.tensor([2.0, -1.0], dtype=torch.float64) + 0.5)
    y = (torch.rand(4000, generator=generator, dtype=torch.float64) < p).double()
    weights, bias = logistic_fit(x, y, l2=0.0)
    assert weights.tolist() == pytest.approx([2.0, -1.0], abs=0.15) and bias == pytest.approx(0.5, abs=0.15)


def test_a_weight_the_wrong_way_is_held_at_zero_and_the_rest_fitted_without_it():
    generator = torch.Generator().manual_seed(0)
    x = torch.randn(4000, 3, generator=generator, dtype=torch.float64)
    p = torch.sigmoid(x @ torch.tensor([2.0, -1.0, 0.5], dtype=torch.float64))
    y = (torch.rand(4000, generator=generator, dtype=torch.float64) < p).double()
    # Input 1 lowers the label's odds but may only raise them: it is left out, and the others are
    # fitted as if it were not there; inputs 0 and 2 keep their signs.
    weights, bias = logistic_fit(x, y, l2=0.0, directions=[1, 1, 1])
    alone, alone_bias = logistic_fit(x[:, [0, 2]], y, l2=0.0)
    assert weights[1] == 0.0 and weights[[0, 2]].tolist() == pytest.approx(alone.tolist()) and bias == pytest.approx(
        alone_bias)
    free, _ = logistic_fit(x, y, l2=0.0)  # the directions it would take anyway: the same fit
    assert logistic_fit(x, y, l2=0.0, directions=[1, -1, 1])[0].tolist() == pytest.approx(free.tolist())


def test_a_calibration_never_rates_a_cut_or_looped_translation_above_the_whole_one():
    # Own translations where, the mean log-prob held equal, a lower least piece log-prob and a loop
    # go with acceptable ones (a length effect a free fit reads as a rule): fitted freely, the
    # cut translation (EOS unlikely, the least log-prob far below any seen) or the looped one would
    # score higher.  Each input moves quality its own way only.
    generator = torch.Generator().manual_seed(1)
    features, labels = [], []
    for k in range(400):
        mean = -0.2 - 0.6 * float(torch.rand(1, generator=generator))
        good = float(torch.rand(1, generator=generator)) < math.exp(3 * mean + 0.6)
        least = -1.0 - 2.0 * good - float(torch.rand(1, generator=generator))
        features.append(Features(mean_log_prob=mean, min_log_prob=least,
                                 eos_log_prob=-0.1 - 0.2 * good, unread=0.0, repeated=0.0, copied=0.0,
                                 length_ratio=1.0, loop=good and k % 50 == 0))
        labels.append(float(good))
    calibration = fit_calibration(features, [100 * label for label in labels], [1.0] * 400, "0")
    whole = Features(mean_log_prob=-0.3, min_log_prob=-2.0, eos_log_prob=-0.1, unread=0.0, repeated=0.0, copied=0.0,
                     length_ratio=1.0)
    cut = Features(mean_log_prob=-0.3, min_log_prob=-9.0, eos_log_prob=-9.0, unread=0.0, repeated=0.0, copied=0.0,
                   length_ratio=1.0)
    looping = Features(mean_log_prob=-0.3, min_log_prob=-2.0, eos_log_prob=-0.1, unread=0.0, repeated=0.5,
                       copied=0.0, length_ratio=1.0, loop=True)
    assert calibration.quality(cut) <= calibration.quality(whole) >= calibration.quality(looping)
    free = torch.tensor([f.inputs(calibration.length_center, calibration.length_range) for f in features],
                        dtype=torch.float64)
    weights, _ = logistic_fit((free - free.mean(0)) / free.std(0).clamp(min=1e-6), torch.tensor(labels,
                                                                                                 dtype=torch.float64))
    assert weights[1] < 0  # min_log_prob: the way a free fit goes on these


def test_a_calibration_fitted_with_a_weight_the_wrong_way_still_loads_with_a_warning(trained_copy):
    features = [some_features(k) for k in range(200)]
    calibration = fit_calibration(features, [100.0 * (k % 20 < 10) for k in range(200)], [1.0] * 200,
                                  fingerprint(trained_copy))
    calibration.weights[calibration.inputs.index("loop")] = 0.5  # raising quality, as older files could
    save_calibration(calibration, trained_copy)
    with pytest.warns(UserWarning, match="quality.json was fitted with inputs pointing the wrong way"):
        assert load_calibration(trained_copy).weights == calibration.weights


def test_the_mean_log_prob_cut_at_knots_is_an_increasing_line_with_a_slope_per_stretch():
    knots = (-1.0, -0.5, -0.2)
    assert segments(-0.7, ()) == [-0.7]
    assert segments(-2.0, knots) == [-2.0, 0.0, 0.0, 0.0]
    assert segments(-0.7, knots) == pytest.approx([-1.0, 0.3, 0.0, 0.0])
    assert segments(-0.1, knots) == pytest.approx([-1.0, 0.5, 0.3, 0.1])
    def line(x: float) -> float:  # weights >= 0: it never falls, and each stretch has its own slope
        return sum(w * v for w, v in zip((1.0, 0.0, 4.0, 0.5), segments(x, knots), strict=True))

    xs = [-3 + 0.01 * k for k in range(301)]
    assert all(line(b) >= line(a) for a, b in zip(xs, xs[1:], strict=False))
    assert [line(-2.0) - line(-3.0), line(-0.5) - line(-1.0), line(-0.2) - line(-0.5), line(0.0) - line(-0.2)] == (
        pytest.approx([1.0, 0.0, 4 * 0.3, 0.5 * 0.2]))


def test_attention_spread_reads_how_thinly_the_translation_attends_and_what_it_leaves_unread():
    pieces = ["▁a", "▁b", "</s>"]  # two source pieces and </s>, which is left out
    one_each = torch.tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    assert attention_spread(one_each, pieces) == pytest.approx((0.0, 0.0, 0.0), abs=1e-9)
    even = torch.tensor([[0.4, 0.4, 0.2], [0.4, 0.4, 0.2]])  # each piece reads both alike, each read 0.8 in all
    assert attention_spread(even, pieces) == pytest.approx((1.0, math.log(0.8), 1.0))
    first_only = torch.tensor([[1.0, 0.0, 0.0], [1.0, 0.0, 0.0]])  # "▁b" unread; "▁a" read at both places
    assert attention_spread(first_only, pieces) == pytest.approx((0.0, math.log(1e-6) / 2, 0.5), abs=1e-6)
    assert attention_spread(torch.tensor([[1.0]]), ["</s>"]) == (0.0, 0.0, 0.0)


def end_read(translation: str, at_end: list[float]) -> torch.Tensor:
    """A cross-attention [T, 3] over the source "▁a", "." and "</s>" whose Tth translation piece (a word of
    ``translation`` each) gives ``at_end[T]`` to "." and "</s>" together and the rest to "▁a"."""
    assert len(translation.split()) == len(at_end)
    return torch.tensor([[1.0 - e, e / 2, e / 2] for e in at_end])


def spans_of(translation: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in re.finditer(r"\S+", translation)]


def test_a_run_of_words_read_from_the_source_s_end_is_added():
    """"Ein Mann fährt Fahrrad, während seine Frau im Auto wartet." for "A man is riding a bike." had no rule's
    flag: the clause the source does not say is read from its end, its final mark and </s>."""
    text = "Ein Mann fährt Fahrrad, während seine Frau im Auto wartet."
    at_end = [0.0, 0.0, 0.0, 0.1] + [0.5] * ADDED_RUN + [0.1]
    assert added(end_read(text, at_end), ["▁a", ".", "</s>"], text, spans_of(text))
    broken = at_end[:6] + [0.1] + at_end[7:]  # a word between: two runs of 2 and 3
    assert not added(end_read(text, broken), ["▁a", ".", "</s>"], text, spans_of(text))
    lower = [min(e, 0.29) for e in at_end]
    assert not added(end_read(text, lower), ["▁a", ".", "</s>"], text, spans_of(text))


def test_the_last_words_of_a_translation_read_from_the_source_s_end_are_added():
    """"Der Akku ist fast leer, obwohl er neu ist." for "The battery is almost empty." had no rule's flag: its clause
    the source does not say, 4 words read from the source's end, is shorter than a run anywhere must be."""
    text = "Der Akku ist fast leer, obwohl er neu ist."
    at_end = [0.0, 0.0, 0.0, 0.1, 0.2] + [0.5] * ADDED_END_RUN
    assert added(end_read(text, at_end), ["▁a", ".", "</s>"], text, spans_of(text))
    assert not added(end_read(text, [*at_end[:-1], 0.1]), ["▁a", ".", "</s>"], text, spans_of(text))  # 3 at the end
    middle = [0.0] + [0.5] * ADDED_END_RUN + [0.1] * 4  # as many within the sentence: a clause's verb and particle
    assert not added(end_read(text, middle), ["▁a", ".", "</s>"], text, spans_of(text))


def test_a_source_word_at_its_end_is_no_end_to_read_from():
    """Without a final mark the source's end is </s> alone: its last word, read by the last words, adds nothing."""
    text = "eins zwei drei vier fünf sechs"
    last_word = torch.tensor([[0.1, 0.9, 0.0]] * 6)  # each word reads "▁b", the last source word
    assert not added(last_word, ["▁a", "▁b", "</s>"], text, spans_of(text))
    assert added(torch.tensor([[0.1, 0.1, 0.8]] * 6), ["▁a", "▁b", "</s>"], text, spans_of(text))  # each: </s>


def test_assess_flags_no_addition_in_a_faithful_translation(trained_model):
    model, tokenizer = load_model_dir(trained_model)
    found = assess(model, tokenizer, [source for source, _ in PAIRS], [target for _, target in PAIRS])
    assert not any("added" in a.flags for a in found if a)


def pieces_for(translation: int, source: int, known: bool = True) -> Features:
    """The Features of a translation of ``translation`` pieces for a source of ``source``, those known or not."""
    return Features(mean_log_prob=-0.5, min_log_prob=-1.0, eos_log_prob=-0.1, unread=0.0, repeated=0.0, copied=0.0,
                    length_ratio=translation / source, source_pieces=source if known else 0)


def test_the_length_rule_leaves_a_short_sentence_a_piece_under_and_two_over_its_range():
    """"He quit his job." as "Er hat seinen Job gekündigt." (14 pieces for 6) and "Help!" as "Hilfe!" (2 for 4) were
    flagged ``length`` under the demo model's range, 0.51 to 2.14: one piece moves a short sentence's ratio far."""
    demo = (0.51, 2.14)
    assert not rules_broken(pieces_for(14, 6), demo)["length"] and not rules_broken(pieces_for(2, 4), demo)["length"]
    assert rules_broken(pieces_for(16, 6), demo)["length"] and rules_broken(pieces_for(1, 4), demo)["length"]
    assert rules_broken(pieces_for(8, 18), demo)["length"]  # 9.18 pieces at least, less 1: 8 is under
    assert rules_broken(pieces_for(14, 6, known=False), demo)["length"]  # no source pieces known: the ratio alone


def test_a_translation_far_shorter_than_the_usual_one_dropped_part_of_its_source():
    """"The storm caused power outages in several villages." as "Der Sturm verursachte Stromausfälle." raised no
    flag: the demo model's attention still read "in several villages", and the length rule's range reaches down to
    half the source's pieces.  At most 0.6 of the usual length (the demo calibration's center, log 1.06: 0.64 pieces
    a source piece), a piece under it aside, it is ``untranslated``; where no usual length is known, it is not."""
    demo = Calibration("sha", [], 0.0, [], [], length_center=0.06, length_range=(0.51, 2.14))
    assert flags_of(pieces_for(7, 14), 0.9, demo) == ["untranslated"]  # 0.50 a piece: under 0.64 - 1/14
    assert flags_of(pieces_for(8, 14), 0.9, demo) == []  # 0.57: over it
    assert flags_of(pieces_for(2, 4), 0.9, demo) == []  # "Help!" as "Hilfe!": 0.5, but a piece under is 0.39
    assert flags_of(pieces_for(7, 14), 0.9, None) == []  # no calibration, no usual length


def test_ridge_fit_recovers_the_line_and_holds_an_input_the_wrong_way_at_zero():
    generator = torch.Generator().manual_seed(0)
    x = torch.randn(2000, 3, generator=generator, dtype=torch.float64)
    y = x @ torch.tensor([3.0, -2.0, 1.0], dtype=torch.float64) + 50 + torch.randn(2000, generator=generator,
                                                                                    dtype=torch.float64)
    weights, bias = ridge_fit(x, y, l2=0.0)
    assert weights.tolist() == pytest.approx([3.0, -2.0, 1.0], abs=0.1) and bias == pytest.approx(50, abs=0.1)
    held, held_bias = ridge_fit(x, y, l2=0.0, directions=[1, 1, 1])
    alone, alone_bias = ridge_fit(x[:, [0, 2]], y, l2=0.0)
    assert held[1] == 0.0 and held[[0, 2]].tolist() == pytest.approx(alone.tolist())
    assert held_bias == pytest.approx(alone_bias)


def test_quality_ranks_by_the_chrf_on_each_side_of_the_threshold_not_only_by_the_side():
    # Which side of chrF 50 a translation falls on follows its mean log-prob alone; how far above
    # or below, its least piece log-prob.  A fit to the label alone would leave the least log-prob
    # out; quality fitted to chrF ranks the acceptable ones (and the others) by it too.
    generator = torch.Generator().manual_seed(2)
    features, chrf = [], []
    for _ in range(400):
        mean, least = -float(torch.rand(1, generator=generator)), -1 - 2 * float(torch.rand(1, generator=generator))
        features.append(Features(mean_log_prob=mean, min_log_prob=least, eos_log_prob=-0.1, unread=0.0,
                                 repeated=0.0, copied=0.0, length_ratio=1.0))
        chrf.append(10 + 50 * (mean >= -0.5) + 15 * (least + 3))
    calibration = fit_calibration(features, chrf, [1.0] * 400, "0")
    assert calibration.inputs[:6] == tuple(f"mean_log_prob_{j}" for j in range(1, 7)) and len(calibration.knots) == 5
    quality = [calibration.quality(f) for f in features]
    for side in (True, False):  # a fit to the label alone: Spearman 0.04 and -0.08 on these
        picked = [k for k, c in enumerate(chrf) if (c >= 50) == side]
        assert rank_correlation([quality[k] for k in picked], [chrf[k] for k in picked]) > 0.5
    assert rank_correlation(quality, chrf) > 0.85  # the label alone: 0.75
    acceptable = [q for q, c in zip(quality, chrf, strict=True) if c >= 50]
    assert sum(acceptable) / len(acceptable) > 0.8 > 0.2 > (sum(quality) - sum(acceptable)) / (400 - len(acceptable))


def rank_correlation(a: list[float], b: list[float]) -> float:
    """Spearman's correlation of values without ties."""
    ranks = [torch.tensor(v).argsort().argsort().double() for v in (a, b)]
    return float(torch.corrcoef(torch.stack(ranks))[0, 1])


def test_reliability_compares_each_bin_with_its_share_of_acceptable_translations():
    # Bin 0.2-0.3: mean 0.25, none acceptable (gap 0.25); bin 0.8-0.9: mean 0.85, all acceptable (gap 0.15).
    table = reliability([0.25, 0.25, 0.85, 0.85], [0, 0, 1, 1])
    assert [(n, round(q, 2), a) for _, _, n, q, a in table.rows] == [(2, 0.25, 0.0), (2, 0.85, 1.0)]
    assert table.ece == pytest.approx(0.5 * 0.25 + 0.5 * 0.15)


def test_a_calibration_round_trips_through_the_model_directory(trained_copy):
    features = [some_features(k) for k in range(200)]
    calibration = fit_calibration(features, [100.0 * (k % 20 < 10) for k in range(200)], [1.0] * 200,
                                  fingerprint(trained_copy))
    save_calibration(calibration, trained_copy)
    loaded = load_calibration(trained_copy)
    assert [loaded.quality(f) for f in features] == [calibration.quality(f) for f in features]
    assert calibration.quality(features[0]) > 0.9 > 0.1 > calibration.quality(features[19])


def test_calibrate_reports_how_it_reads_the_references(model_and_tokenizer, trained_copy):
    model, tokenizer = model_and_tokenizer
    sources, references = zip(*calibration_pairs(), strict=True)
    calibration, report = calibrate(model, tokenizer, trained_copy, sources, references)
    # The tiny model writes each pair's reference; the 60 pairs given another pair's reference
    # (label 0) teach it a low quality.  Read as translations of their sources, some of those
    # references get one too: the share it reports is that of the references it flags.
    qualities = [a.quality for a in assess(model, tokenizer, sources, references, calibration)]
    assert calibration.sentences == 120 and report.references_low == pytest.approx(
        sum(q < calibration.threshold for q in qualities) / 120)
    assert 0 < report.references_low < 1  # some flagged, some not


def test_too_few_sentences_to_calibrate_are_refused():
    with pytest.raises(DataError, match=f"20 sentences to calibrate on; quality needs at least {MIN_SENTENCES}"):
        fit_calibration([some_features(k) for k in range(20)], [100.0 * (k % 2) for k in range(20)], [1.0] * 20, "0")


@pytest.mark.parametrize("acceptable", [0, 1, 9, 91, 100])
def test_too_few_translations_on_one_side_of_the_threshold_are_refused(acceptable):
    """With 1 acceptable translation in 100 the fit was written all the same, and rated the good
    references 0.00 to 0.07, every one low_quality; only labels all one way were refused."""
    chrf = [60.0] * acceptable + [20.0] * (100 - acceptable)
    with pytest.raises(DataError, match=f"^{acceptable} of the 100 translations reach chrF 50 and {100 - acceptable} "
                                        "miss it: quality needs at least 10 of each to tell them apart; "):
        fit_calibration([some_features(k) for k in range(100)], chrf, [1.0] * 100, "0")


def test_ten_translations_on_each_side_of_the_threshold_are_enough():
    chrf = [60.0 if k % 10 == 0 else 20.0 for k in range(100)]
    assert fit_calibration([some_features(k) for k in range(100)], chrf, [1.0] * 100, "0").sentences == 100


def test_a_calibrated_quality_is_a_probability():
    features = [some_features(k) for k in range(200)]
    calibration = fit_calibration(features, [100.0 * (k % 20 < 10) for k in range(200)], [1.0] * 200, "0")
    assert all(0.0 <= calibration.quality(f) <= 1.0 and math.isfinite(calibration.quality(f)) for f in features)


@pytest.mark.parametrize("weight", [1.0, -1.0])
@pytest.mark.parametrize("value", [float("nan"), float("-inf"), float("inf")])
def test_an_input_that_is_no_finite_number_gives_quality_zero(value, weight):
    """min(50.0, NaN) is 50.0: a translation with a log-prob of -inf (a piece the model rules out),
    whose inputs added up to NaN, came out at quality 1.0."""
    assert probability([weight, 1.0], 0.0, [0.0, 0.0], [1.0, 1.0], [value, 0.5]) == 0.0
    assert probability([weight, 1.0], 0.0, [0.0, 0.0], [1.0, 1.0], [weight * 2.0, 0.5]) > 0.5


def test_terms_that_overflow_each_way_give_quality_zero():
    """1e308 * 2 is inf and 1e308 * -2 is -inf: their sum, NaN, came out at quality 1.0."""
    assert probability([1e308, 1e308], 0.0, [0.0, 0.0], [1.0, 1.0], [2.0, -2.0]) == 0.0
    assert probability([1e308, 1e308], 0.0, [0.0, 0.0], [1.0, 1.0], [2.0, 2.0]) == 1.0


def test_a_training_run_says_why_its_quality_stays_uncalibrated(trained_model):
    log = (trained_model / "train.log").read_text(encoding="utf-8")
    assert f"quality not calibrated (20 sentences to calibrate on; quality needs at least {MIN_SENTENCES}" in log
    assert not (trained_model / CALIBRATION).exists()


def test_attnmt_assess_scores_any_translation(model_and_tokenizer):
    import attnmt

    model, tokenizer = model_and_tokenizer
    [a] = attnmt.assess(model, tokenizer, ["a dog runs"], ["ein hund rennt"])
    assert a.flags == [] and [w for w, _ in a.words] == ["ein", "hund", "rennt"]

