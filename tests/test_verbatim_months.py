"""A month or a day of the week the source names and the translation drops (verbatim_months.dates_dropped)."""

import pytest

from attnmt.decoding.verbatim import differs
from attnmt.decoding.verbatim_months import dates_dropped


@pytest.mark.parametrize(("source", "translation", "target"), [
    ("We meet on Monday at the station.", "Wir treffen uns am Bahnhof.", "de"),
    ("The invoice is due by Friday.", "Die Rechnung ist fällig.", "de"),
    ("Sunday mornings are quiet.", "Die Morgen sind ruhig.", "de"),
    ("El museo cierra los lunes.", "The museum is closed.", "en"),
    ("Der Markt ist samstags geöffnet.", "The market is open.", "en-GB"),
    ("The office opens on Wednesday at 9.", "Het kantoor gaat om 9 uur open.", "nl"),
    ("We meet on Wednesday with 3 colleagues.", "Wir treffen uns mit 3 Kollegen.", "de"),  # "mit 3" is no "Mi."
])
def test_a_day_of_the_week_dropped_breaks_the_rule(source, translation, target):
    """A day on the source's side alone was read as reworded: "on Monday" left out raised no flag."""
    assert differs(source, translation, target, "en")


@pytest.mark.parametrize(("source", "translation", "target"), [
    ("The shop is closed in December.", "Der Laden ist geschlossen.", "de"),
    ("The festival takes place in May.", "Das Festival findet statt.", "de"),
    ("Classes start in September.", "Les cours commencent bientôt.", "fr"),
    ("Il concerto è a giugno.", "Das Konzert findet statt.", "de"),
    ("Send the report by email in May.", "Senden Sie den Bericht per E-Mail.", "de"),  # "E-Mail" holds no "Mai"
])
def test_a_month_dropped_breaks_the_rule(source, translation, target):
    assert differs(source, translation, target, "en")


@pytest.mark.parametrize(("source", "translation"), [
    ("We meet on Monday at the station.", "Wir treffen uns am Montag am Bahnhof."),
    ("On Sundays we rest.", "Sonntags ruhen wir."),  # a plural, an adverb
    ("Easter Monday is a holiday.", "Ostermontag ist ein Feiertag."),  # within a compound
    ("Good Friday is a holiday.", "Karfreitag ist ein Feiertag."),
    ("See you on Tuesday.", "À mardi."),  # any language's name
    ("Open Monday to Friday.", "Geöffnet Mo.–Fr."),  # shortened
    ("Open Monday to Friday.", "Werktags geöffnet."),  # the days it is one of
    ("Closed on Saturdays and Sundays.", "Am Wochenende geschlossen."),
    ("The store opens Dec. 3.", "Der Laden öffnet am 3. Dez."),
    ("The report covers January to March.", "Der Bericht umfasst Januar bis März."),
    ("Payment is due in 10/2025, in October.", "Die Zahlung ist 10/2025 fällig."),  # a month as its number
    ("The Sunday Times reported it.", "Die Sunday Times berichtete darüber."),  # a name kept as written
    ("Theresa May spoke.", "Theresa May sprach."),
])
def test_a_day_or_a_month_said_in_any_way_is_not_dropped(source, translation):
    assert not dates_dropped(source, translation, "de")


@pytest.mark.parametrize(("source", "translation"), [
    ("May I come in?", "Darf ich reinkommen?"),  # a verb, at a sentence's start
    ("You May Also Like", "Das könnte Ihnen auch gefallen"),  # a headline's capitals
    ("They march to the square.", "Sie marschieren zum Platz."),
    ("An august institution.", "Eine ehrwürdige Institution."),
    ("Workers carry out the assembly.", "Arbeiter führen die Montage durch."),  # "Montage" is no Monday
])
def test_a_word_that_is_no_month_or_day_is_never_dropped(source, translation):
    assert not dates_dropped(source, translation, "de")


@pytest.mark.parametrize("target", [None, "ru", "pt"])
def test_a_day_is_read_only_where_the_translations_language_names_days_the_rule_knows(target):
    """Russian's "понедельник" and Portuguese's "segunda-feira" are no name the rule knows: it cannot tell."""
    assert not dates_dropped("We meet on Monday.", "Мы встречаемся в понедельник.", target)


@pytest.mark.parametrize(("source", "translation"), [
    ("Submit it by 3 March.", "Reichen Sie es bis zum 3. ein."),
    ("The shop opens on 5 May.", "Der Laden öffnet am 5."),
    ("Payment is due on December 12.", "Die Zahlung ist am 12. fällig."),
])
def test_a_day_number_alone_is_no_month(source: str, translation: str) -> None:
    assert dates_dropped(source, translation, "de")


@pytest.mark.parametrize(("source", "translation"), [
    ("Submit it by 3 March.", "Reichen Sie es bis zum 3.3. ein."),
    ("The shop opens on 5 May 2021.", "Der Laden öffnet am 05.05.2021."),
    ("Payment is due on December 12.", "Die Zahlung ist am 12/12 fällig."),
    ("Meet me on 4 April 2026.", "Treffen wir uns am 4. 4. 2026."),
])
def test_a_month_in_a_numeric_date_is_said(source: str, translation: str) -> None:
    assert not dates_dropped(source, translation, "de")
