"""What passes through a translation as it is written (attnmt.decoding.protected.PROTECTED): the technical
tokens a program or a platform reads, and not the numbers and words around them."""

import re
import unicodedata

import pytest

from attnmt.decoding import protected
from attnmt.decoding.protected import HOST, PLAIN_PROTECTED, PROTECTED


@pytest.mark.parametrize("text, found", [
    ("Run `ls -la` in the terminal, then `git status`.", ["`ls -la`", "`git status`"]),
    ("The dog sleeps in $HOME, and ${PATH} and $HOME/.config/app are set.", ["$HOME", "${PATH}",
                                                                            "$HOME/.config/app"]),
    ("The woman opens %APPDATA% and %USERPROFILE%\\Documents on her computer.", ["%APPDATA%",
                                                                                  "%USERPROFILE%\\Documents"]),
    ("A girl writes to @john_doe about #MachineLearning.", ["@john_doe", "#MachineLearning"]),
    ("A boy installs v2.3.1, then 2.13.0 and 1.0.0-rc1 of the game.", ["v2.3.1", "2.13.0", "1.0.0-rc1"]),
    ("The server at 192.168.1.10 listens on 10.0.0.1:8080.", ["192.168.1.10", "10.0.0.1:8080"]),
    ("The girl paints the wall #ff0000, the door #FFF and the roof #000000.", ["#ff0000", "#FFF", "#000000"]),
])
def test_a_technical_token_is_protected_whole(text, found):
    """The demo model wrote "$HOME" as "SOMAMESSSSt", "192.168.1.10" as "Nummer 5 5 5 5 5 58", and left out
    "#MachineLearning" and "v2.3.1"."""
    assert PROTECTED.findall(text) == found


def test_a_key_or_a_token_in_base64_is_protected_whole():
    """4000 characters of base64 came back from the demo model as words ("Ein findet eine 8 CARARRARRARRRRE")."""
    blob = "PZuDsGgLpEXqrcAqBH1Mz++6BpyOhLRa19aRYZ6f4TaqLG30jNVzAA/x2=="
    jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
    text = f"Paste {blob} or {jwt}, then AKIAIOSFODNN7EXAMPLE."
    assert PROTECTED.findall(text) == [blob, jwt, "AKIAIOSFODNN7EXAMPLE"]


@pytest.mark.parametrize("text, found", [
    ("Read https://en.wikipedia.org/wiki/Berlin_(disambiguation) for more.",
     ["https://en.wikipedia.org/wiki/Berlin_(disambiguation)"]),
    ("See en.wikipedia.org/wiki/Mercury_(planet), (or https://example.org/a) and (www.example.org/b_(c)).",
     ["en.wikipedia.org/wiki/Mercury_(planet)", "https://example.org/a", "www.example.org/b_(c)"]),
])
def test_a_url_keeps_the_brackets_it_opens_and_leaves_those_around_it(text, found):
    """The closing bracket of "Berlin_(disambiguation)" went to the model, and the link lost it."""
    assert PROTECTED.findall(text) == found


@pytest.mark.parametrize("text, found", [
    ("Call us at +49 30 1234567 or +1-800-555-0199 during the week.", ["+49 30 1234567", "+1-800-555-0199"]),
    ("Our office is (555) 123-4567, the desk +44 (0)20 7946 0958.", ["(555) 123-4567", "+44 (0)20 7946 0958"]),
    ("In Berlin it is 030 / 123 456, or call 800-555-0199 free.", ["030 / 123 456", "800-555-0199"]),
])
def test_a_telephone_number_is_protected_whole(text, found):
    """The demo model wrote "Call us at +49 30 1234567 during the week." as "Bei der Nummer 2 2 244444444444 2 2 2"."""
    assert PROTECTED.findall(text) == found


@pytest.mark.parametrize("text, found", [
    ("Your order #A-10293 and ticket JIRA-1234 are about SKU-4471-BL.", ["#A-10293", "JIRA-1234", "SKU-4471-BL"]),
    ("Please pay to IBAN DE89 3704 0044 0532 0130 00 by Friday.", ["DE89 3704 0044 0532 0130 00"]),
    ("The book has the ISBN 978-3-16-148410-0, the old one 3-16-148410-X.", ["978-3-16-148410-0", "3-16-148410-X"]),
    ("Your package 1Z999AA10123456784 arrives tomorrow; the car is WVWZZZ1JZXW000001.", ["1Z999AA10123456784",
                                                                                        "WVWZZZ1JZXW000001"]),
])
def test_an_order_a_ticket_an_iban_or_an_isbn_is_protected_whole(text, found):
    """The demo model wrote them as other numbers ("Der Buch mit der Nummer 5 5 5 5 5"); of "#A-10293" it was given
    "-10293", a hashtag "#A" kept."""
    assert PROTECTED.findall(text) == found


@pytest.mark.parametrize("text, found", [
    ("Your PIN 4711 is valid for one day; enter Code A7 to continue.", ["4711", "A7"]),
    ("Please go to Room B12 at noon, then board at Gate 4B.", ["B12", "4B"]),
    ("Flight LH 454 is delayed; a man sits in seat 14C.", ["LH 454", "14C"]),
    ("Der Zug fährt von Gleis 3 ab, Ihr Zimmer 12 ist frei.", ["3", "12"]),
])
def test_a_short_code_after_its_label_is_protected(text, found):
    """The demo model wrote "PIN 4711" as "4111111" and dropped "Code A7", "Room B12" and "Gate 4B"."""
    assert PROTECTED.findall(text) == found


@pytest.mark.parametrize("text", [
    "A woman pays 20 euros for 3 apples at 14:30 on 12.05.2020, 2:30 PM.",
    "An A4 sheet, MP3 files, a B12 vitamin, 4B pencils and 5 rooms for 2 people.",
    "The room 2.5 m wide, a gate at 12:30, a bedroom 5 and the code of conduct.",
])
def test_a_number_or_a_name_with_a_number_without_a_codes_label_is_no_code(text):
    """A price, a time, a date, a count and "A4" or "MP3" are the model's to translate or to keep."""
    assert PROTECTED.findall(text) == []


@pytest.mark.parametrize("text, found", [
    ("Press Ctrl+Shift+P to open the command palette.", ["Ctrl+Shift+P"]),
    ("Close it with Alt+F4, or Cmd+Q on a Mac.", ["Alt+F4", "Cmd+Q"]),
    ("Write C++ code, watch Disney+ and press Ctrl alone.", []),
])
def test_a_key_combination_is_protected(text, found):
    """The demo model wrote "Press Ctrl+Shift+P to open the command palette." as "Fänzzzzzze Stefefefe ..."."""
    assert PROTECTED.findall(text) == found


@pytest.mark.parametrize("text, found", [
    ("It holds if a < b and c > 2.", ["a < b", "c > 2"]),
    ("Stop when x<=5, 0 < t < 1 or n ≠ 0; set y=3.5 first.", ["x<=5", "0 < t < 1", "n ≠ 0", "y=3.5"]),
    ("Home > Shop > Shoes, I <3 you, x => y, a <b, prices < 5 euros, <b>Hund</b>e, Q&A but p > 0.05.", ["p > 0.05"]),
])
def test_a_comparison_of_numbers_or_one_letter_variables_is_protected_whole(text, found):
    """Read apart, "a < b" gave the model "a b", an article and a letter, and its sign went before the translation of
    all ("< Ein Är"); a word compared, a heart or an arrow is no math."""
    assert PROTECTED.findall(text) == found


@pytest.mark.parametrize("text", [
    "COVID-19 spread, F-16 jets flew, UTF-8 text, an A4 sheet, MP3 files, a T-Shirt, the B-52s and NATO.",
    "CO2-Ausstoß sinkt, the A-Team met in 1999-2000 on pages 123-456.",
    "ISO9001, COVID19, B2B, NASA, ABCDEFGHIJKL and 12345678901 are no codes.",
])
def test_a_name_with_a_number_is_no_code(text):
    """Capitals and a number that name a thing are words to translate, or the model's to keep."""
    assert PROTECTED.findall(text) == []


@pytest.mark.parametrize("text", [
    "We met on 12.05.2020, on 2020-05-12 and on 05/12/2020 at 14:30.",
    "It costs $1,234.56 or 1.234,56 € for 1234567 users, 1 000 000 in 2024.",
    "He scored +5 points, +20% this year, 3-1 in the final, pages 123-456.",
    "Smith (2019) wrote it; 3/4 of us, 10-20 people, from -5 to +10 degrees.",
])
def test_dates_times_prices_scores_and_plain_numbers_are_no_telephone_numbers(text):
    """Numbers with the digits and separators a telephone number has are text to translate."""
    assert PROTECTED.findall(text) == []


@pytest.mark.parametrize("text", [
    "The COVID-19-Pandemie, H2O2 and Donaudampfschifffahrtsgesellschaft are words.",
    "1.000.000 people paid 1.000.000.000 euros on 12.05.2020 for 3.5 km.",
    "C# and F# are languages; my #1 fan said ``Hello'' and `quoted' it.",
    "It costs $5, 50% of it, at 5 pm @ home; hi@john; &#x27;",
    "Steps 1.2.3.4.5 and 256.1 go on.",
])
def test_numbers_words_and_marks_like_them_are_not_protected(text):
    """Numbers with dots (thousands, a date, a decimal), a language's name, a price, a percentage and quotes
    written with backticks are text to translate."""
    assert PROTECTED.findall(text) == []


@pytest.mark.parametrize("text, found", [
    ("Hello [X6X], you have [X19X] new messages.", ["[X6X]", "[X19X]"]),
    ("Hello %s, you have %d new messages.", ["%s", "%d"]),
    ("%1$d files were deleted by %2$s.", ["%1$d", "%2$s"]),
    ("Welcome back, %(name)s! You have %(count)d new messages.", ["%(name)s", "%(count)d"]),
    ("You have {count} new messages in {0} and {{ folder }}.", ["{count}", "{0}", "{{ folder }}"]),
])
def test_a_programs_placeholder_in_plain_text_is_protected_whole_there_only(text, found):
    """Weblate's LibreTranslate machinery sends each placeholder as ``[X<offset>X]`` and looks for it in the
    answer as sent; the demo model wrote "You have {count} new messages." as "Auf dieser Verspühntel.".  On a
    web page or in an office document (PROTECTED) it is the page's own text."""
    assert PLAIN_PROTECTED.findall(text) == found
    assert PROTECTED.findall(text) == []


@pytest.mark.parametrize("text", [
    "I am 100% sure, and 50%-60% of us agree; a 10%ige Steigerung.",
    "A footnote mark [1], a bracket [X] and an X-ray [X-1X].",
    "Use a { or a } in prose, { like this }, or {a, b}.",
])
def test_prose_like_a_placeholder_is_not_protected(text):
    """A percentage, a footnote's mark and braces around words read as before."""
    assert PLAIN_PROTECTED.findall(text) == []


def every_mark_scanned() -> str:
    """The readable reference of protected._combining_marks: every code point of the Basic Multilingual Plane
    read, none passed by, as the character class's ranges."""
    marks = [code for code in range(0x10000) if unicodedata.category(chr(code)).startswith("M")
             and not 0x20D0 <= code <= 0x20FF and not 0xFE00 <= code <= 0xFE0F]
    starts = [code for code in marks if code - 1 not in marks]
    ends = [code for code in marks if code + 1 not in marks]
    return "".join(chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in zip(starts, ends, strict=True))


def test_the_marks_scanned_past_the_ideographs_are_every_mark():
    """The scan passes the CJK ideographs, Hangul syllables, surrogates and private use by (issue 44: it ran at
    every start-up): the same class, and so the same patterns, as a scan of every code point; the accents and
    Indic vowel signs of a name's address are in it ("jose\\u0301@example.com")."""
    assert protected._MARKS == protected._combining_marks() == every_mark_scanned()
    assert {"\u0301", "\u093e", "\u0488"} <= {c for c in "".join(map(chr, range(0x10000))) if re.fullmatch(
        f"[{protected._MARKS}]", c)}
    assert [m.group() for m in PROTECTED.finditer("Mail jose\u0301@example.com now")] == ["jose\u0301@example.com"]


@pytest.mark.parametrize("text, found", [
    ("Open the file my_var_name now.", ["my_var_name"]),
    ("Set MAX_RETRIES to 5, then NODE_ENV to production.", ["MAX_RETRIES", "NODE_ENV"]),
    ("Override the __init__ method and read _private_cache.", ["__init__", "_private_cache"]),
    ("The handler onClick calls parseHttpResponse.", ["onClick", "parseHttpResponse"]),
    ("Read self.max_retries and config.timeoutSeconds.", ["self.max_retries", "config.timeoutSeconds"]),
    ("Call reset_all() after the update; pass --dry_run.", ["reset_all()", "--dry_run"]),
])
def test_a_programs_name_for_a_variable_or_a_function_is_protected_whole(text, found):
    """Read as words, "Open the file my_var_name now." came back "Ein Hähner, der sich an der Küstent."."""
    assert PROTECTED.findall(text) == found


@pytest.mark.parametrize("text, found", [
    ("A woman reads an e-mail on her iPhone and sets user_id on eBay.", ["user_id"]),
    ("The kids co-operate at McDonald's; a HttpClient, WordPress or JavaScript is a name, isEmpty not.", ["isEmpty"]),
    ("Die LehrerInnen und MitarbeiterInnen lesen max_wert im Lehrerzimmer.", ["max_wert"]),
    ("The _emphasis_ is on the second word, the well-known __main__ module.", ["__main__"]),
    ("A 5 kW heater, a 3 mAh cell, pH 7 water and the maxPower setting.", ["maxPower"]),
])
def test_words_with_a_capital_or_a_mark_inside_are_no_programs_names(text, found):
    """A brand, a name, a gendered German noun or a word a hyphen joins reaches the model, which reads it."""
    assert PROTECTED.findall(text) == found


@pytest.mark.parametrize("text, found", [
    ("Mail foo_bar@example.com or see https://x.org/my_page, then set retry_count.",
     ["foo_bar@example.com", "https://x.org/my_page", "retry_count"]),
    ("Set $MY_VAR, follow @john_doe and call loadData.", ["$MY_VAR", "@john_doe", "loadData"]),
    ("You have {user_count} new messages in inbox_main.", ["{user_count}", "inbox_main"]),
])
def test_a_programs_name_inside_an_address_a_variable_or_a_placeholder_stays_in_it(text, found):
    """The address, the variable or the placeholder is kept whole, not its name apart."""
    assert PLAIN_PROTECTED.findall(text) == found


@pytest.mark.parametrize("text", [
    "Sales fell.Net income rose.", "Sales fell.Info was scarce.", "It rose.App sales grew.",
    "Prices fell.Com rose again.", "Die Zahl stieg.Info folgt.", "Le prix a baissé.De plus, il pleut.",
])
def test_a_word_in_small_letters_glued_to_a_titled_domain_and_a_small_word_is_no_host(text):
    """"Sales fell.Net income rose." was the host "fell.Net": two sentences, a typist's space left out after the
    stop, whose next sentence starts with a word that is also a top-level domain (Net, Info, App, Com, De)."""
    assert HOST.findall(text) == []


@pytest.mark.parametrize("text, found", [
    ("Build it with asp.net today.", "asp.net"), ("Build it with ASP.NET today.", "ASP.NET"),
    ("Build it with Asp.Net today.", "Asp.Net"), ("Visit example.net today.", "example.net"),
    ("Open my.app now.", "my.app"), ("Visit Bike.Com today.", "Bike.Com"), ("See www.shop.info now.", "www.shop.info"),
    ("Open read.me first.", "read.me"), ("See www.example.Net for more.", "www.example.Net"),
    ("Profits at fell.Net.", "fell.Net"), ("Go to my.App Store now.", "my.App"),
])
def test_a_host_in_small_letters_title_case_or_capitals_stays_one(text, found):
    """Kept a host where a reader sees one: all its letters small, its labels in title case or in capitals, two labels
    or more before the domain, or no word in small letters after it."""
    assert HOST.findall(text) == [found]
