"""A field's value after a label in capitals (attnmt.text.field_names.valued): a person's name, a list, a time or a
price makes the label a field's, whatever its name, where speech after it makes it a speaker's."""

import pytest

from attnmt.text.field_names import valued
from attnmt.text.speaker_labels import dialogue, field_name, speaker_label


@pytest.mark.parametrize("field, speech", [
    ("TRANSLATOR: Ann Goldstein", "TRANSLATOR: Ann, look at this."),
    ("DIRECTOR: Nora Ephron", "DIRECTOR: Nora is late again."),
    ("PAINTER: Vincent van Gogh", "PAINTER: Vincent, hold still."),
    ("ILLUSTRATORS: J. R. R. Tolkien and Alan Lee", "ILLUSTRATORS: Tolkien drew it."),
    ("MUSIC BY: Hans Zimmer", "BAND: Music by Hans Zimmer!"),
    ("WRITTEN BY: A. A. Milne", "POOH: I am a bear."),
])
def test_a_role_before_a_persons_name_is_a_credit_and_before_speech_a_speakers_label(field, speech):
    """Read as a speaker's, "TRANSLATOR: Ann Goldstein" kept its English role: a film's or a book's credits."""
    assert speaker_label(field) is None
    assert speaker_label(speech)["label"] == speech[:speech.index(":") + 1]


@pytest.mark.parametrize("field, speech", [
    ("ACCESSORIES: Leather case, charger, cable.", "JAMES: Yes, yes, I know."),
    ("PRIZES: Gold, silver and bronze medals.", "GUARDS: Halt, who goes there?"),
    ("TIPS: Book early; bring water; wear good shoes.", "CHARLES: Fine, thanks."),
    ("OPENING TIMES: Mon-Fri 9am-5pm", "COACH: Meet me at 9am."),
    ("TOLLS: Cars €4.50, vans €9", "DRIVER: Keep the change, €4.50 is fine!"),
    ("LAST TOUR: Daily at 17:30", "ANNA: It's 17:30, where is he?"),
    ("PARTNERS: Acme, Globex, Initech", "TOM: Well, John, I think so."),
    ("SHADES: Sand, olive, slate", "COACH: Run, jump, throw, repeat."),  # a plural's list, not a list after a role
    ("GRADES: A, B, C", "SOLDIERS: Left, right, left, right."),  # an item said twice is speech
    ("SHOWS: Daily at 20:00", "EMILY: At 8pm, by the fountain."),  # three words without a digit at most
    ("BOARD: Mary Barra, Wayne Smith", "NURSE: Mr Smith, please sit down"),
    ("SPEAKERS: Dr. Jane Goodall", "GUEST: Hi Anna"),
])
def test_a_label_before_a_list_a_time_or_a_price_is_a_fields_and_before_speech_a_speakers(field, speech):
    """No name in field_names' list: the value's shape says it ("OPENING TIMES:", "TIPS:", "PRIZES:" kept English)."""
    assert speaker_label(field) is None
    assert speaker_label(speech)["label"] == speech[:speech.index(":") + 1]



@pytest.mark.parametrize("said", ["", " ", "."])
def test_nothing_after_a_label_is_no_credited_name(said):
    assert not valued(["TRANSLATOR"], said)


@pytest.mark.parametrize("speech, field", [
    ("HERMIONE: Ron Weasley", "EXECUTIVE PRODUCER: Steven Spielberg"),
    ("KATE: Ben Affleck and Matt Damon.", "COVER DESIGN: Chip Kidd"),
    ("MARGARET: Tuesday at 10:30.", "NEXT TRAIN: Tuesday at 10:30"),
    ("LUCAS: Eggs, bacon, toast.", "SIDES: Eggs, bacon, toast."),  # a name in "-AS" is no plural
])
def test_a_persons_name_or_a_time_after_a_name_is_its_speakers_and_after_a_role_or_a_schedule_a_fields(speech, field):
    """Read as a credit or a time whatever the label, "HERMIONE: Ron Weasley" had the speaker's name translated
    alone; a role (``CREDITS``, "... BY"), a plural or a schedule's first word makes the label a field's."""
    assert speaker_label(speech)["label"] == speech[:speech.index(":") + 1]
    assert speaker_label(field) is None and field_name(field) is not None



@pytest.mark.parametrize("speech, field", [
    ("JAMES: Coffee, tea, whatever.", "EXTRAS: Coffee, tea, juice."),
    ("CHARLES: Apples, pears, plums.", "FRUITS: Apples, pears, plums."),
    ("HANS: Brot, Wein, Käse.", "SNACKS: Chips, nuts, olives."),
    ("JACQUES: Paris, Lyon, Nice.", "STOPS: Paris, Lyon, Nice."),
    ("DR. JONES: Tom Hanks, Meg Ryan", "GUESTS: Tom Hanks, Meg Ryan"),
    ("CARLOS: 9am, at the gate.", "DOORS: 9am"),
])
def test_a_name_whose_s_is_no_plurals_before_a_list_is_a_speakers_and_a_plural_before_it_a_fields(speech, field):
    """Read as a plural's, "JAMES: Coffee, tea, whatever." had the name translated alone: the demo model wrote
    "FUSSGÄNGER:", and "HANS:" "ES:"."""
    assert speaker_label(speech)["label"] == speech[:speech.index(":") + 1]
    assert field_name(speech) is None
    assert speaker_label(field) is None and field_name(field) is not None


@pytest.mark.parametrize("field, speech", [
    ("SPECIMEN: 2 ml", "ANNA: 5pm."),
    ("SODIUM: 5%", "TOM: $40"),
    ("POTASSIUM: 4.1 mEq", "ANNA: 2 days."),  # a time's count is said
    ("CHOLESTEROL: 190 mg", "MAN 2: 2 ml"),  # a role and its number
    ("HAEMOGLOBIN: 13 g/dL", "NURSE: 5 ml"),  # a person's noun
    ("DOGS: Three.", "ANNA: Three."),
    ("CHILDREN: Two.", "WOMAN: Two."),  # a plural without "-S"
    ("PEOPLE: Seventy", "MEN: Seventy"),
    ("PLAYERS: Two to four", "GUARDS: Two!"),
])
def test_a_word_before_a_measure_with_its_unit_or_a_count_in_words_is_a_fields_and_a_name_before_it_a_speakers(
        field, speech):
    """Read as a speaker's, "SPECIMEN: 2 ml" kept "SPECIMEN:" and the demo model wrote "2 ml" as "Zwei Chirurgen";
    "DOGS: Three." came back "DOGS: Drei Kerle."."""
    assert speaker_label(field) is None and field_name(field) == (field.index(":"), field.index(":") + 1)
    assert speaker_label(speech)["label"] == speech[:speech.index(":") + 1]


@pytest.mark.parametrize("field, speech", [
    ("ENERGY: 250 kcal", "ANNA: 250 cats"),
    ("GLUCOSE: 5.4 mmol/L", "TOM: 5 days"),
    ("SIGNAL: 3 bars", "MAX: 3 slices."),
    ("CHARGE: 4000 mAh.", "LEO: 12 minutes."),
    ("FLOUR: 2 cups.", "NURSE: 2 cups."),  # a person's noun
    ("SPECIMEN: 2 ml.", "ANNA: 2 weeks."),
])
def test_a_word_before_a_number_and_a_known_units_symbol_or_name_is_a_fields_a_stop_after_it_or_none(field, speech):
    """A unit of four letters or more, a unit in words and a measure with a stop read as a speaker's: the demo model
    wrote "ENERGY: 250 kcal" as "ENERGY: Zwei Gitarristen" and "SPECIMEN: 2 ml." as "SPECIMEN: Zwei Chirurgen.";
    a time's or a thing's count after a name is still said."""
    assert speaker_label(field) is None and field_name(field) == (field.index(":"), field.index(":") + 1)
    assert speaker_label(speech)["label"] == speech[:speech.index(":") + 1]


@pytest.mark.parametrize("field, speech", [
    ("VITAMIN D: 30 ng/ml", "AGENT K: 30 ng/ml"),  # a person's noun before its letter
    ("VITAMIN B12: 450 pg/ml", "MAN 2: 450 ml"),
    ("OMEGA 3: 2 g.", "NURSE B: 2 g."),
    ("TYPE A: 5 kg", "DR. WHO: 5 kg"),  # an abbreviation's stop
    ("HBA1C: 5.6%", "MAN2: 5.6%"),  # digits in a word
])
def test_a_things_name_with_a_letter_or_a_number_before_a_measure_with_its_unit_is_a_fields(field, speech):
    """Read as a speaker's, "VITAMIN D: 30 ng/ml" kept its name and the demo model wrote "30 ng/ml" as "Fünf findet
    sich"; a person's noun before its letter or number, or a title's stop, is still a speaker's who says it."""
    assert speaker_label(field) is None and field_name(field) == (field.index(":"), field.index(":") + 1)
    assert speaker_label(speech)["label"] == speech[:speech.index(":") + 1]


def test_a_measure_with_a_stop_alone_is_a_fields_and_in_a_script_the_turn_of_the_name_that_speaks_there():
    """"SPECIMEN: 2 ml." is a field's, so "MARTA: 3 kg." alone is one too; where MARTA speaks, it is her turn."""
    lines = ["MARTA: Where were you?", "LEO: At home.", "MARTA: 3 kg."]
    assert speaker_label(lines[2]) is None and field_name(lines[2]) == (5, 6)
    assert speaker_label(lines[2], dialogue(lines))["label"] == "MARTA:"


@pytest.mark.parametrize("field, speech", [
    ("TRANSLATOR: ANN GOLDSTEIN", "HERMIONE: RON WEASLEY"),
    ("TRANSLATOR: Ann Goldstein (2012)", "TOM: GET OUT"),
    ("CAST: TOM HANKS, MEG RYAN (1993)", "ANNA: Tom Hanks (1993)"),
])
def test_a_name_in_capitals_or_with_its_year_after_a_credits_role_is_a_credit(field, speech):
    """Read as a speaker's, "TRANSLATOR: ANN GOLDSTEIN" came back "TRANSLATOR: EIN UNIFORMIERTER MANN"."""
    assert speaker_label(field) is None and valued(field.split(":")[0].split(), field.split(": ", 1)[1])
    assert speaker_label(speech) is not None


def test_a_plurals_list_after_a_scripts_last_turn_is_a_fields_where_its_word_names_food():
    """"BREADS: Rye, spelt, sourdough." after two turns read as one more speaker's, as "MILES:" closing a script."""
    lines = ["ANNA: Where is the bread?", "TOM: In the kitchen.", "BREADS: Rye, spelt, sourdough."]
    speakers = dialogue(lines)
    assert speaker_label(lines[2], speakers) is None and field_name(lines[2], speakers) == (6, 7)


@pytest.mark.parametrize("field, speech", [
    ("PREP TIME: Twenty minutes", "JACK: Twenty minutes."),
    ("INCUBATION TIME: Twelve hours", "OLD MAN: Twelve hours."),  # a person's noun
    ("SAMPLE VOLUME: Ten millilitres", "MALCOLM X: Ten millilitres"),  # an initial
    ("WEIGHT: Three kilos.", "ROSA: Three kilos."),
    ("COOK TIME: Forty-five minutes", "SERGEANT MILLER: Forty-five minutes."),  # a title before a name
])
def test_a_measure_in_words_after_a_fields_word_or_a_label_of_several_words_is_a_fields(field, speech):
    """Read as a speaker saying it, "PREP TIME: Twenty minutes" kept its English "PREP TIME", as the same measure in
    digits ("PREP TIME: 20 min") did not; a name, a person's noun, an initial or a title before it still says it."""
    assert speaker_label(field) is None and field_name(field) == (field.index(":"), field.index(":") + 1)
    assert speaker_label(speech)["label"] == speech[:speech.index(":") + 1]


@pytest.mark.parametrize("field, speech", [
    ("WORKERS: Two men.", "LUCY: Two men."),
    ("Guests: Two adults.", "DANA: Two adults."),
    ("Bags: One suitcase", "NICK: One suitcase"),
    ("PASSENGERS: Three children", "PASSENGERS: Three children ran off with my hat."),  # a sentence, not a count
])
def test_things_counted_in_words_after_a_plural_are_a_fields_value(field, speech):
    """"Workers: Two men." was translated whole ("Zwei Arbeiter arbeiten." from the demo model) and "WORKERS: Two
    men." kept "WORKERS" as a speaker's name; after a name the same words are said."""
    assert speaker_label(field) is None and field_name(field) == (field.index(":"), field.index(":") + 1)
    assert field_name(speech) is None


@pytest.mark.parametrize("field, speech", [
    ("PM2.5: 12 µg/m3", "ANNA: 12 days"),  # a decimal in the code, a unit's power as a digit
    ("PM10: 40 µg/m3", "TOM: 40 dollars"),
    ("FLOOR AREA: 80 m2", "MAN 2: 80 m2"),
])
def test_a_code_with_a_decimal_or_a_unit_with_its_power_as_a_digit_is_a_fields(field, speech):
    """"PM2.5: 12 µg/m3" read as a speaker's: "PM2.5" was no thing's name and "µg/m3" no unit, its "3" no "³"."""
    assert speaker_label(field) is None and field_name(field) == (field.index(":"), field.index(":") + 1)
    assert speaker_label(speech)["label"] == speech[:speech.index(":") + 1]


@pytest.mark.parametrize("speech, field", [
    ("SERGEANT MILLER: 2 men.", "PATIENT WEIGHT: 70 kg"),
    ("AUNT MAY: 3 kg.", "DRIVER AGE: 42"),
    ("CAPTAIN REYES: 6 km", "OWNER ID: 12345"),
])
def test_a_persons_noun_as_a_title_before_a_name_is_a_speakers_and_before_a_fields_word_a_fields(speech, field):
    """Read as a field of two words before a quantity, "SERGEANT MILLER: 2 men." had its name translated alone."""
    assert speaker_label(speech)["label"] == speech[:speech.index(":") + 1]
    assert speaker_label(field) is None
