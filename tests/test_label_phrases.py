"""A German translation of a short label is one of the label where it adds no verb, its article and noun agree and
it says no word twice (attnmt.decoding.label_phrases): a caption's model made "Dog" "Ein Hund schwimmt" and "A small
cat" "Eine kleine Katzen", words it finds likely."""

import pytest

from attnmt.decoding.label_phrases import (
    added_verb,
    cased,
    dative_plural,
    disagrees,
    known_words,
    misread,
    number,
    parts,
    repeated,
    unnamed,
)


@pytest.mark.parametrize(("label", "translation"), [
    ("Horse", "Ein Pferd galoppiert"),  # a verb in "-t" after the noun
    ("Tourists", "Touristen sind unterwegs"),  # a helping verb
    ("Cyclists", "Radfahrer fahren"),  # a plural label's subject, its verb in "-en"
    ("Old bridge", "Eine alte Brücke führt über den Fluss"),
])
def test_a_verb_the_label_has_no_word_for_makes_a_sentence_of_it(label, translation):
    assert added_verb(label, translation) and misread(label, translation)


@pytest.mark.parametrize(("label", "translation"), [
    ("Shop closed", "Geschäft geschlossen"),  # the participle translates the label's
    ("Room booked", "Zimmer gebucht"),
    ("View cart", "Warenkorb anzeigen"),  # a button's infinitive
    ("Subscribe", "Newsletter abonnieren"),  # an infinitive in "-en" after a singular, no finite verb
    ("Loading", "Wird geladen"),  # a helping verb first: no noun before the participle
    ("FAQ", "Häufig gestellte Fragen"),  # an adjective before its noun
    ("Women in red", "Frauen in roter Kleidung"),  # a preposition after the noun
    ("Price per item", "Preis pro Stück"),
    ("Contact us", "Kontaktieren Sie uns"),  # pronouns carry no meaning of their own
    ("Page not found", "Seite nicht gefunden"),
    ("HORSE", "EIN PFERD GALOPPIERT"),  # in capitals no noun shows
])
def test_a_predicate_the_label_has_a_word_for_or_none_is_no_added_verb(label, translation):
    assert not added_verb(label, translation)


@pytest.mark.parametrize(("label", "translation"), [
    ("A green bottle", "Eine grüne Flaschen"),  # a plural after a feminine singular's article
    ("A GREEN BOTTLE", "EINE GRÜNE FLASCHEN"),
    ("The invoice", "Die Rechnungen"),  # a singular label, a plural noun after "die"
    ("The old tree", "Die alten Baum"),  # "die" and an adjective in "-en": a plural's
    ("The little child", "Die kleine Kinder"),  # "die" and "-e" a singular's, the noun a plural
    ("Blue cups", "Eine blaue Tasse"),  # a plural label, a singular's article
    ("Cat", "Drei Katzen"),
    ("The big table", "Das große Tisches"),  # a genitive's ending after a nominative's article
])
def test_an_article_and_noun_of_two_numbers_or_cases_disagree(label, translation):
    assert disagrees(label, translation) and misread(label, translation)


@pytest.mark.parametrize(("label", "translation"), [
    ("A green bottle", "Eine grüne Flasche"),
    ("The children", "Die Kinder"),
    ("Two cups", "Zwei Tassen"),
    ("The garden", "Der Garten"),  # "-en" of a singular noun after a masculine article
    ("A mother", "Eine Mutter"),  # "-er" of a singular that takes no "-er" plural
    ("A customer", "Eine Kundin"),
    ("The station", "Die Station"),
    ("The house", "Das Haus"),
    ("Pants", "Eine Hose"),  # plural in form, one thing
    ("Sunglasses", "Eine Sonnenbrille"),
    ("The news", "Die Nachrichten"),  # no plural of "new": its number is not known
    ("Vegetables", "Das Gemüse"),  # a collective noun for an English plural
    ("Kitchen tools", "Ein Küchenwerkzeug"),
])
def test_an_article_and_noun_of_the_labels_number_agree(label, translation):
    assert not disagrees(label, translation)


def test_a_word_said_twice_where_the_label_says_it_once_is_repeated():
    assert repeated("Bird", "Vogel Vogel Vogel") and repeated("Team", "Ein Team ist im Team")
    assert not repeated("Bora Bora", "Bora Bora") and not repeated("Dog", "Ein Hund")


@pytest.mark.parametrize(("label", "said"), [
    ("Dogs", "plural"), ("Men at work", "plural"), ("Two black cats", "plural"), ("Children", "plural"),
    ("A dog", "singular"), ("Dog food", "singular"), ("Glass", "singular"), ("Bus", "singular"),
    ("News", None), ("Scissors", None), ("", None),
])
def test_an_english_labels_number_is_its_first_determiners_or_its_heads(label, said):
    assert number(label) == said


@pytest.mark.parametrize("label, translation", [
    ("Tall woman", "Eine Frau lacht"),  # a caption: its article, its subject, a verb for the adjective it dropped
    ("Street musician", "Ein Straßenmusiker spielt"),  # a compound for two words: as many words of meaning
])
def test_a_captions_verb_after_an_article_is_added_where_the_label_has_none(label, translation):
    assert added_verb(label, translation)


@pytest.mark.parametrize("label, translation", [
    ("A man fishing", "Ein Mann angelt"),  # "-ing"
    ("The shop is closed", "Das Geschäft ist geschlossen"),  # a helping verb
    ("Dog runs", "Ein Hund rennt"),  # a third person in "-s" after a noun
    ("Shop closed", "Das Geschäft geschlossen"),  # a participle in "-en" is no finite verb
])
def test_a_captions_verb_translates_the_labels_own(label, translation):
    assert not added_verb(label, translation)


KNOWN = frozenset(("fußball", "spieler", "straße", "musiker", "bau", "arbeiter", "hoch", "laden"))  # a vocabulary's


@pytest.mark.parametrize(("label", "translation"), [
    ("Soccer players", "Fußballspieler kämpfen"),  # a plural's verb in "-en", a compound for the label's two words
    ("Street musician", "Straßenmusiker spielt"),  # a linking "n"
    ("Construction workers", "Bauarbeiter arbeiten"),
])
def test_a_verb_after_a_compound_of_the_labels_words_is_added(label, translation):
    assert added_verb(label, translation, KNOWN) and misread(label, translation, KNOWN)


@pytest.mark.parametrize(("label", "translation"), [
    ("Save changes", "Änderungen speichern"),  # a button's infinitive, its object no compound
    ("Upload photos", "Fotos hochladen"),  # a verb in small letters is read whole
    ("Soccer players", "Fußballspieler"),
])
def test_a_compound_of_known_words_adds_no_verb_where_the_label_has_one_or_none_is_written(label, translation):
    assert not added_verb(label, translation, KNOWN)


@pytest.mark.parametrize(("label", "translation"), [
    ("Update passwords", "Passwörter aktualisieren"),  # a compound for one English word, the label's verb last
    ("Download files", "Dateien herunterladen"),
    ("Change passwords", "Passwörter ändern"),  # an infinitive in "-rn"
])
def test_a_buttons_infinitive_last_translates_the_imperative_it_opens_with(label, translation):
    """The demo model's "Passwörter aktualisieren" for "Update passwords" was read as a plural's subject and its
    verb, "Passwörter" two words of the vocabulary: a verb the label has no word for, and the label kept its
    English."""
    known = KNOWN | {"pass", "wörter"}
    assert not added_verb(label, translation, known) and not misread(label, translation, known)


@pytest.mark.parametrize(("label", "translation"), [
    ("Update passwords", "Ein Mann aktualisiert Passwörter"),  # a caption's verb, not last
    ("Street players", "Straßenspieler spielen"),  # no imperative first
])
def test_a_verb_after_its_subject_is_added_whatever_the_label_opens_with(label, translation):
    assert added_verb(label, translation, KNOWN | {"pass", "wörter"})


def test_a_compound_of_two_known_words_writes_two():
    assert parts("Fußballspieler", KNOWN) == 2 and parts("Straßenmusiker", KNOWN) == 2
    assert parts("Fußball", KNOWN) == 1 and parts("Änderungen", KNOWN) == 1 and parts("hochladen", KNOWN) == 1


class Vocabulary:
    """A tokenizer's pieces, named by id."""

    pieces = ("<unk>", "▁Fußball", "▁Spieler", "▁der", "▁Ei", "spieler", "▁Bau", "▁3D")
    vocab_size = len(pieces)

    def id_to_piece(self, i: int) -> str:
        return self.pieces[i]


def test_the_known_words_are_the_vocabularys_whole_words_with_a_capital():
    assert known_words(Vocabulary()) == {"fußball", "spieler", "bau"}
    assert known_words(object()) == frozenset()


PLURALS = frozenset(("schuh", "schuhe", "kind", "kinder", "pferd", "pferde", "katze", "junge"))  # a vocabulary's


@pytest.mark.parametrize("translation", ["Schwarze Schuhen", "PFERDEN", "Kindern", "Die Kindern"])
def test_a_plural_with_the_datives_n_is_no_labels_noun(translation):
    assert dative_plural(translation, PLURALS) and misread("Black shoes", translation, PLURALS)


@pytest.mark.parametrize("translation", [
    "Schuhe", "Kinder", "Katzen",  # "-n" of a feminine's plural: no "Katz"
    "Jungen",  # a weak noun's plural: no "Jung"
    "Mit Schuhen",  # after a preposition: no label's noun
])
def test_a_plurals_own_n_or_a_preposition_is_no_dative_plural(translation):
    assert not dative_plural(translation, PLURALS)


def test_a_plurals_translation_of_adjectives_alone_names_nothing():
    """The demo model wrote "Black dogs" as "Schwarz", 0.47 likely; a label that names no things may be one."""
    assert unnamed("Black dogs", "Schwarz") and unnamed("BLACK DOGS", "SCHWARZ") and misread("Black dogs", "Schwarz")
    assert not unnamed("Black dogs", "Schwarze Hunde") and not unnamed("Closed", "Geschlossen")
    assert not unnamed("Black dogs", "")


def test_a_translation_in_capitals_is_read_in_germans_case_for_its_verbs():
    """In capitals no noun shows; the words the vocabulary knows with a capital show them ("Fußballspieler", its "SS"
    read as "ß"), and a verb after one is added as in small letters."""
    known = frozenset(("fußballspieler", "pferd"))
    assert cased("FUSSBALLSPIELER KÄMPFEN", known) == "Fußballspieler kämpfen"
    assert cased("EIN PFERD GALOPPIERT", known) == "Ein Pferd galoppiert"
    assert cased("Ein Pferd", known) == "Ein Pferd"  # in small letters: as it is
    assert misread("SOCCER PLAYERS", "FUSSBALLSPIELER KÄMPFEN", known | KNOWN)
    assert misread("HORSE", "EIN PFERD GALOPPIERT", known) and not misread("HORSE", "EIN PFERD", known)
