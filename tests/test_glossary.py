"""Glossaries: the TSV file, its errors, and which target terms a sentence needs."""

import copy
import dataclasses
import pickle
import re
import unicodedata

import numpy as np
import pytest
import sentencepiece
from support import lines_run

from attnmt.decoding import glossary as glossary_module
from attnmt.decoding import glossary_pairs, term_forms
from attnmt.decoding.glossary import Glossary, read_glossaries, read_glossary
from attnmt.decoding.glossary_pairs import add_term
from attnmt.decoding.term_forms import compatible
from attnmt.errors import ConfigError, DataError
from attnmt.text.invisible import SPACING


def write(tmp_path, text: str):
    path = tmp_path / "terms.tsv"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_file_of_tab_separated_terms_with_comments_and_blank_lines(tmp_path):
    glossary = read_glossary(write(tmp_path, "# people first\npeople\tPersonen\n\nNew York\tNew York\n"))
    assert glossary.terms == (("people", "Personen"), ("New York", "New York"))


@pytest.mark.parametrize(("name", "text"), [
    ("terms.tsv", ""), ("terms.tsv", "# people first\n\n"), ("terms.tsv", "source\ttarget\n"),
    ("terms.csv", "source,target\n"), ("terms.csv", ",\n,\n\n"), ("terms.csv", ",\n;\n\n"), ("terms.txt", "\ufeff\n"),
    ("terms.tbx", '<?xml version="1.0"?><martif type="TBX"><text><body/></text></martif>\n'),
])
def test_a_glossary_file_without_terms_is_refused_naming_it(tmp_path, name, text):
    """A file of no terms (empty, comments, a header alone: the wrong file given) was read as a
    glossary of none, so no term was required, silently; one of several files too."""
    good = write(tmp_path, "dog\tHund\n").rename(tmp_path / "good.tsv")
    (tmp_path / name).write_text(text, encoding="utf-8")
    with pytest.raises(DataError, match=rf"^{re.escape(str(tmp_path / name))}: no glossary terms in the file"):
        read_glossaries([good, tmp_path / name], "en", "de")


@pytest.mark.parametrize(("text", "message"), [
    ("people\tPersonen\nno tab here\n", "terms.tsv:2: expected 'source term<TAB>target term', got 0 TABs"),
    ("a\tb\tc\n", "terms.tsv:1: expected 'source term<TAB>target term', got 2 TABs"),
    ("\tPersonen\n", "terms.tsv:1: empty source term"),
    ("people\t \n", "terms.tsv:1: empty target term"),
    ("people\tPersonen\npeople \tLeute\n", "terms.tsv:2: source term 'people ' has two target terms"),
    ("Apple\tApple\napple\tApfel\nApple\tApfel\n", "terms.tsv:3: source term 'Apple' has two target terms, 'Apple'"),
    ("US\tUSA\nus\tuns\nUS\tUS\n", "terms.tsv:3: source term 'US' has two target terms, 'USA'"),
])
def test_a_malformed_line_is_named_by_file_and_line(tmp_path, text, message):
    with pytest.raises(DataError, match=message):
        read_glossary(write(tmp_path, text))


def test_several_files_are_one_glossary_of_their_lines_in_order(tmp_path):
    """``translate --glossary a.tsv --glossary b.tsv``: the second file replaced the first, silently."""
    (tmp_path / "a.tsv").write_text("park\tGarten\ndog\tHund\n", encoding="utf-8")
    (tmp_path / "b.tsv").write_text("Dog\tHund\ncat\tKatze\n", encoding="utf-8")
    glossary = read_glossaries([tmp_path / "a.tsv", tmp_path / "b.tsv"])
    assert glossary.terms == (("park", "Garten"), ("dog", "Hund"), ("cat", "Katze"))  # dog: once, as in one file
    assert glossary.matches("A dog and a cat in the park.") == ["Hund", "Katze", "Garten"]
    assert glossary.place("cat") == f"{tmp_path / 'b.tsv'}:2"


def test_a_target_term_given_again_in_another_unicode_form_is_the_same_term(tmp_path):
    """"Café" with a combining accent is "Café" (and is written so): a term given it in one file and "Café"
    in another was refused, "source term 'coffee shop' has two target terms, 'Café' (…) and 'Café'"."""
    composed, decomposed = "Café", unicodedata.normalize("NFD", "Café")
    (tmp_path / "a.tsv").write_text(f"coffee shop\t{composed}\n", encoding="utf-8")
    (tmp_path / "b.tsv").write_text(f"Coffee Shop\t{decomposed}\n", encoding="utf-8")
    glossary = read_glossaries([tmp_path / "a.tsv", tmp_path / "b.tsv"])
    assert len(glossary) == 1 and unicodedata.normalize("NFC", glossary.matches("A coffee shop.")[0]) == composed
    assert len(Glossary.of([("coffee shop", composed), ("coffee shop", decomposed)])) == 1


def test_a_term_two_files_give_two_targets_is_refused_naming_both_places(tmp_path):
    """As two lines of one file: neither file's target silently wins."""
    (tmp_path / "a.tsv").write_text("# terms\ndog\tHund\n", encoding="utf-8")
    (tmp_path / "b.tsv").write_text("dog\tKöter\n", encoding="utf-8")
    with pytest.raises(DataError) as refused:
        read_glossaries([tmp_path / "a.tsv", tmp_path / "b.tsv"])
    assert str(refused.value) == (f"{tmp_path / 'b.tsv'}:1: source term 'dog' has two target terms, 'Hund' "
                                  f"({tmp_path / 'a.tsv'}:2) and 'Köter'")


def test_a_term_repeated_with_the_same_target_is_kept_once(tmp_path):
    assert read_glossary(write(tmp_path, "dog\tHund\ndog\tHund\n")).terms == (("dog", "Hund"),)


def test_a_byte_order_mark_inside_a_glossary_is_no_part_of_its_terms(tmp_path):
    """Two glossaries joined with cat: the second's BOM, at a line's start, made that line's term
    "\ufeffdog", which matched nothing, silently; on a comment line, it was a malformed line."""
    path = write(tmp_path, "people\tPersonen\n\ufeff# the second file\n\ufeffdog\tHund\n")
    glossary = read_glossary(path)
    assert glossary.terms == (("people", "Personen"), ("dog", "Hund"))
    assert glossary.matches("The dog and the people.") == ["Hund", "Personen"]
    assert glossary.place("dog") == f"{path}:3"
    assert Glossary.of({"\ufeffdog": "Hund\ufeff"}).terms == (("dog", "Hund"),)


@pytest.mark.parametrize("spacing", ["\u200b", "\u200c", "\u200e", "\u200f", "\u061c"])
def test_an_invisible_character_the_model_reads_as_a_space_at_a_terms_ends_is_no_part_of_it(tmp_path, spacing):
    """A target copied from a web page or Word with a zero-width space or a direction mark after it ("Hund\u200b")
    stopped the translation: "the model's target vocabulary writes it as 'Hund'"; the source term was read past it
    already.  Inside a term it is the writer's (a zero-width non-joiner inside a Persian word), and stays."""
    path = write(tmp_path, f"dog{spacing}\t{spacing}Hund{spacing} \ncat\tKat{spacing}ze\n")
    assert read_glossary(path).terms == (("dog", "Hund"), ("cat", f"Kat{spacing}ze"))
    assert Glossary.of({f"{spacing}dog": f"Hund{spacing}"}).terms == (("dog", "Hund"),)


def test_terms_match_whole_words_ignoring_case():
    glossary = Glossary.of({"dog": "Hund"})
    assert glossary.matches("The Dog runs.") == ["Hund"]
    assert glossary.matches("Dogsled runs; a hotdog.") == []


@pytest.mark.parametrize(("term", "inside", "alone"), [
    (".net", "I use asp.net daily", "I use .NET daily"),
    ("c++", "c++x is new", "I write C++."),
    ("-based", "web-based tools", "a -based tool"),
    ("'s", "the dog's bone", "the dog 's bone"),
    ("(tm)", "acme(tm) rocks", "acme (tm) rocks"),
    ("u.s.", "the u.s.a.", "the u.s. army"),
])
def test_a_term_with_punctuation_at_an_edge_still_needs_no_word_character_beside_it(term, inside, alone):
    """Whole words whatever the term's first and last characters: ".net" matched inside "asp.net"
    and "c++" inside "c++x" once a punctuation character on either side of an edge made it one."""
    glossary = Glossary.of({term: "T"})
    assert glossary.matches(inside) == glossary.found_in(inside) == []
    assert glossary.matches(alone) == ["T"]


@pytest.mark.parametrize(("term", "inside", "alone"), [
    ("mail", "Send an e-mail today.", "Check the mail today."),
    ("art", "a state-of-the-art tool", "a work of art"),
    ("shirt", "a red T-shirt", "a red shirt"),
    ("state", "a state-of-the-art tool", "a state of mind"),
    ("dog", "a dog\u2011friendly hotel", "a dog - friendly"),
])
def test_a_hyphen_between_two_words_joins_them_into_one(term, inside, alone):
    """"mail" matched in "e-mail", and "Post" was forced into its translation; "art" in "state-of-the-art"."""
    glossary = Glossary.of({term: "T"})
    assert glossary.matches(inside) == glossary.found_in(inside) == []
    assert glossary.matches(alone) == ["T"]


def test_a_term_that_holds_its_hyphen_is_found_whole():
    glossary = Glossary.of({"e-mail": "E-Mail", "Wi-Fi": "WLAN", "mail": "Post"})
    assert glossary.matches("Send an e-mail over Wi\u2011Fi, not mail.") == ["E-Mail", "WLAN", "Post"]


@pytest.mark.parametrize("text", [
    "Visit bike.com now.", "Visit shop.bike.de now.", "Mail bike@shop.de today.", "Mail info@bike.com today.",
    "See /home/bike/notes.txt now.", "Open bike.txt now.", "Read my-bike.pdf today.",
    "Go to https://shop.com/bike now.",
    "Go to www.bike.de today.", "Go to shop.com/bike today.", "Visit BIKE.COM now.", "Visit SHOP.BIKE.DE now.",
])
def test_a_term_is_no_term_inside_an_address_a_path_or_a_file_name(text):
    """"bike" was found in "bike.com" and "bike@shop.de", and "Velo" forced into the translation: the demo model wrote
    "Visit bike.com now." as "Ein Velo.", the address lost; and a host in capitals ("BIKE.COM") was read as words."""
    glossary = Glossary.of({"bike": "Velo"})
    assert glossary.matches(text) == glossary.found_in(text) == []


def test_a_term_beside_an_address_is_found_on_the_plain_word_alone():
    """"bike" occurred twice in "Visit bike.com for a new bike.", and a translation that wrote "Velo" once was warned
    of as one that lost a term."""
    glossary = Glossary.of({"bike": "Velo", "new": "neu"})
    text = "Visit bike.com for a new bike, or mail bike@shop.de."
    assert [text[start:end] for start, end, _ in glossary.found_in(text)] == ["new", "bike"]
    assert glossary.matches(text) == ["neu", "Velo"]


@pytest.mark.parametrize(("text", "found"), [
    ("Order at the bike shop.com today.", ["bike"]), ("Order at the BIKE SHOP.COM today.", ["BIKE"]),
    ("Ask the bike shop.com or the bike shop.", ["bike", "bike shop"]),
])
def test_a_term_that_reaches_into_an_address_gives_way_to_a_shorter_term_outside_it(text, found):
    """"bike shop" in "the bike shop.com" ends inside the host "shop.com", and was dropped with the "bike" before the
    address, which was then not tried on its own: the translation was required no term."""
    glossary = Glossary.of({"bike shop": "Fahrradladen", "bike": "Velo", "shop": "Laden"})
    assert [text[start:end] for start, end, _ in glossary.found_in(text)] == found
    assert glossary.matches(text) == [{"bike": "Velo", "bike shop": "Fahrradladen"}[term.lower()] for term in found]


@pytest.mark.parametrize("text", [
    "Visit Bike.Com today.", "Visit Shop.Bike.De now.", "Visit BIKE.COM today.", "Email Sales@Bike.Com now.",
    "Email SALES@BIKE.COM now.", "Visit Bike.It.", "The Sales.Bike.It team", "Visit bike.it today.",
])
def test_a_host_in_title_case_or_capitals_holds_no_term_as_one_in_small_letters(text):
    """"Bike" and "Com" of "Visit Bike.Com today." were terms, the host's top-level domain in title case read as none:
    "Velo" and "Kom" were forced into its translation, as "bike" in "bike.com" had been."""
    glossary = Glossary.of({"bike": "Velo", "sales": "Vertrieb", "com": "Kom", "it": "es", "shop": "Laden"})
    assert glossary.found_in(text) == [] and glossary.matches(text) == []


@pytest.mark.parametrize(("text", "found"), [
    ("the dog.It ran", ["dog", "It"]), ("I love the Dog.It is big.", ["Dog", "It"]),
    ("The Dog.It's big.", ["Dog", "It"]), ("We saw the U.S.It was big.", ["It"]),
    ("Der Hund.Es lief.", ["Hund"]),
])
def test_two_sentences_glued_in_title_case_are_no_host(text, found):
    """With hosts in title case read as hosts, "the Dog.It is" would have been one, its terms dropped: a top-level
    domain that is a word a sentence starts with, a word after it, is a sentence."""
    glossary = Glossary.of({"dog": "Hund", "it": "es", "Hund": "dog"})
    assert [text[start:end] for start, end, _ in glossary.found_in(text)] == found


@pytest.mark.parametrize(("text", "found"), [
    ("THE DOG.IT RAN AWAY.", ["DOG", "AWAY"]), ("THE DOG.NO BIKE RAN AWAY.", ["DOG", "BIKE", "AWAY"]),
    ("THE DOG.IT'S AWAY.", ["DOG", "AWAY"]), ("THE U.S.IT WAS AWAY.", ["AWAY"]),
    ("MAIL SALES.EXAMPLE.COM NOW.", []), ("VISIT WWW.BIKE.IT NOW.", []), ("MAIL SALES.EXAMPLE.IT NOW.", []),
    ("VISIT BIKE.IT now.", []), ("VISIT BIKE.IT.", []), ("SEE BIKE.COM RULES.", []),
])
def test_two_sentences_glued_in_capitals_are_no_host_and_a_real_host_stays_one(text, found):
    """"THE DOG.IT RAN AWAY." was the host DOG.IT, and "dog" no term in it: a top-level domain that is a word a
    sentence starts with, after one dot and before a word in capitals, is the next sentence's first word; a host a
    reader sees (two labels or more, another domain, small letters or nothing after it) holds no term."""
    glossary = Glossary.of({"dog": "Hund", "away": "weg", "bike": "Velo", "sales": "Vertrieb", "example": "Beispiel"})
    assert [text[start:end] for start, end, _ in glossary.found_in(text)] == found


@pytest.mark.parametrize(("text", "found"), [
    ("Install Node.js first.", "Node.js"), ("Visit example.com today.", "example.com"),
    ("the dog.It ran", "dog"), ("the dog.IT team", "dog"), ("Mail me at bike.", "bike"),
])
def test_a_term_that_is_a_whole_address_is_found_and_a_full_stop_without_its_space_ends_a_word(text, found):
    glossary = Glossary.of({"Node.js": "Node.js", "example.com": "example.com", "dog": "Hund", "bike": "Velo"})
    assert [text[start:end] for start, end, _ in glossary.found_in(text)] == [found]


@pytest.mark.parametrize(("text", "found"), [
    ("Buy a Wi-Fi-enabled printer.", "Wi-Fi"), ("Enter your e-mail-address.", "e-mail"),
    ("an anti-Wi\u2011Fi group", "Wi\u2011Fi"), ("C++-based tools", "C++"),
])
def test_a_term_that_holds_a_hyphen_is_found_in_a_longer_compound(text, found):
    """"Wi-Fi" was not found in "Wi-Fi-enabled" (the hyphen after it joins it to "enabled"), while "C++" was found
    in "C++-based": a term written with a hyphen of its own is joined to other words by hyphens, as an acronym is
    ("NATO-led"), and a German translation writes it so ("WLAN-fähig", "E-Mail-Adresse"); "mail" stays no term of
    "e-mail"."""
    glossary = Glossary.of({"Wi-Fi": "WLAN", "e-mail": "E-Mail", "C++": "C++", "mail": "Post", "enabled": "fähig"})
    assert [text[start:end] for start, end, _ in glossary.found_in(text)] == [found]
    assert glossary.matches(text) == [glossary.found_in(text)[0][2]]


@pytest.mark.parametrize(("text", "found"), [
    ("a Node.js-based server", "Node.js"), ("an ASP.NET-based site", "ASP.NET"), ("a .NET-based app", ".NET"),
    ("eine Node.js-Anwendung", "Node.js"), ("C#-based tools", "C#"),
])
def test_a_term_that_holds_a_dot_is_found_in_a_longer_compound(text, found):
    """"C#" was found in "C#-based", and "Node.js" not in "Node.js-based" nor ".NET" in ".NET-based": a name with a
    dot is no word a compound makes another of, as a code is not ("4G-capable")."""
    glossary = Glossary.of({"Node.js": "Node.js", "ASP.NET": "ASP.NET", ".NET": ".NET", "C#": "C#", "js": "JS"})
    assert [text[start:end] for start, end, _ in glossary.found_in(text)] == [found]


@pytest.mark.parametrize(("text", "found"), [
    ("Buy 4G-capable phones.", "4G"), ("an MP3-player", "MP3"), ("pre-4G networks", "4G")])
def test_a_term_of_a_code_is_found_in_a_longer_compound_and_a_number_alone_is_not(text, found):
    """"4G" was not found in "4G-capable" (a German translation writes "4G-fähig"), as "art" is not in
    "state-of-the-art"; a number alone stays no term of a date."""
    glossary = Glossary.of({"4G": "4G", "MP3": "MP3", "2012": "zweitausendzwölf"})
    assert [text[start:end] for start, end, _ in glossary.found_in(text)] == [found]
    assert glossary.matches("On 2012-05-01 we met.") == []


def test_a_term_with_punctuation_at_an_edge_matches_beside_unspaced_letters():
    glossary = Glossary.of({".net": ".NET", "c++": "C++"})
    assert glossary.matches("我用.net工作") == [".NET"]
    assert glossary.found_in("用c++写") == [(1, 4, "C++")]
    assert glossary.matches("我用asp.net工作") == []  # a Latin letter before it, as in "asp.net"


def test_multi_word_terms_match_across_any_spaces_and_the_longest_wins():
    glossary = Glossary.of({"York": "York", "New York": "New York", "New York City": "NYC"})
    assert glossary.matches("He flew to New  York City today") == ["NYC"]
    assert glossary.matches("New York and York") == ["New York", "York"]


def test_overlapping_terms_match_from_the_left_and_never_twice():
    glossary = Glossary.of({"New York": "New York", "York City": "York-Stadt"})
    assert glossary.matches("New York City") == ["New York"]


def test_a_target_term_is_needed_in_the_glossarys_case_whatever_the_texts():
    """The case decided (docs/translating.md, Target terms): the search requires a term as the glossary writes it,
    never lowered, for German nouns ("Hund" for "a dog", whatever the entry's source case), nor raised for a
    sentence's first word or a text's capitals (a text in capitals is written so whole: attnmt.decoding.capitals)."""
    glossary = Glossary.of({"Dog": "Hund", "cat": "chat"})
    assert [glossary.matches(text) for text in ("I saw a dog.", "THE DOG", "Cat food", "a CAT")] == [
        ["Hund"], ["Hund"], ["chat"], ["chat"]]


@pytest.mark.parametrize(("text", "needed"), [
    ("I ate an apple.", ["Apfel"]), ("Buy an Apple Watch.", ["Apple"]), ("Apple and apple", ["Apple", "Apfel"]),
    ("Apple pie is good.", ["Apple"]),  # read as written: a sentence's capital is the brand's
    ("APPLE PIE", ["Apple"]),  # neither's case: the first given
    ("\uff21pple", ["Apple"]),  # full-width, NFKC's "Apple"
])
def test_terms_that_differ_only_in_case_each_match_their_own_case(text, needed):
    """A brand and a word ("Apple": Apple, "apple": Apfel) stopped the glossary, "source term 'apple' has two target
    terms"; each is now found where the text has its case, the first given where the text has neither's."""
    glossary = Glossary.of([("Apple", "Apple"), ("apple", "Apfel")], "terms.tsv:1")
    assert glossary.matches(text) == [target for _, _, target in glossary.found_in(text)] == needed
    assert glossary.terms == (("Apple", "Apple"), ("apple", "Apfel"))


def test_terms_that_differ_only_in_case_are_read_from_a_file_and_named_by_their_lines(tmp_path):
    glossary = read_glossary(write(tmp_path, "Apple\tApple\napple\tApfel\nApple Watch\tApple Watch\n"))
    assert glossary.matches("An apple, an Apple Watch and an Apple TV.") == ["Apfel", "Apple Watch", "Apple"]
    assert (glossary.place("apple"), glossary.place("Apple")) == (f"{tmp_path / 'terms.tsv'}:2",
                                                                 f"{tmp_path / 'terms.tsv'}:1")


def test_a_merged_term_replaces_every_case_of_it():
    """A JSONL line's "apple" replaces --glossary's "Apple" and "apple" alike, as its target wins for a term in both."""
    merged = Glossary.of({"Apple": "Apple", "apple": "Apfel", "dog": "Hund"}).merged({"apple": "Obst"})
    assert merged.matches("Apple, apple and a dog") == ["Obst", "Hund"]


def test_a_term_that_occurs_twice_is_needed_once():
    assert Glossary.of({"dog": "Hund"}).matches("a dog sees a dog") == ["Hund"]


def test_a_merged_glossary_takes_the_other_target_for_a_shared_term():
    merged = Glossary.of({"dog": "Hund", "cat": "Katze"}).merged(Glossary.of({"Dog": "Köter"}))
    assert merged.matches("dog and cat") == ["Köter", "Katze"]


def test_terms_given_to_the_dataclass_itself_are_indexed_as_of_indexes_them():
    glossary = Glossary((("dogs ", "Katzen"),))
    assert glossary == Glossary.of({"dogs": "Katzen"}) and glossary.terms == (("dogs", "Katzen"),)
    assert glossary.matches("Two Dogs play.") == ["Katzen"]
    assert glossary.merged(Glossary.of({"cat": "Hund"})).matches("dogs and a cat") == ["Katzen", "Hund"]


def test_each_term_is_checked_once_as_a_glossary_is_made_or_loaded(tmp_path, monkeypatch):
    """Glossary.of and read_glossary checked each term with add_term, and the dataclass's __post_init__ checked it
    again: twice for every term of a file of 100,000."""
    checked = []

    def counted(kept, source, target, where, places=None):
        checked.append(source)
        return add_term(kept, source, target, where, places)

    monkeypatch.setattr(glossary_pairs, "add_term", counted)  # checked_terms': Glossary.of, the dataclass
    monkeypatch.setattr(glossary_module, "add_term", counted)  # read_glossaries'
    made = Glossary.of({"dog": "Hund", "cat": "Katze"})
    assert checked == ["dog", "cat"]
    read = read_glossary(write(tmp_path, "dog\tHund\ncat\tKatze\n"))
    assert checked == ["dog", "cat"] * 2 and read == made
    assert made.merged(read).merged({"bird": "Vogel"}).of_targets.terms == (("Hund", "Hund"), ("Katze", "Katze"),
                                                                             ("Vogel", "Vogel"))
    assert checked == ["dog", "cat"] * 2 + ["bird"]
    assert Glossary((("dog ", "Hund"),)).terms == (("dog", "Hund"),) and checked[-1] == "dog "  # still checked
    with pytest.raises(DataError, match="empty target term"):
        dataclasses.replace(made, terms=(("dog", " "),))


@pytest.mark.parametrize("terms, error, message", [
    ("dogs", ConfigError, r'^glossary: expected a dict \{"source term": "target term"\} or \(source, target\) '
                          r"pairs, got str$"),
    (None, ConfigError, r"^glossary: expected a dict .* got NoneType$"),
    (["ab"], DataError, r"^glossary\[0\]: expected a \(source term, target term\) pair, got 'ab'$"),
    ([("dogs", "Hunde", "Katzen")], DataError, r"^glossary\[0\]: expected a \(source term, target term\) pair, got \("),
    # a set, in no order
    ([{"dogs", "Hunde"}], DataError, r"^glossary\[0\]: expected a \(source term, target term\) pair, got \{"),
])
def test_terms_that_are_not_pairs_of_texts_are_refused_in_one_line(terms, error, message):
    with pytest.raises(error, match=message):
        Glossary.of(terms)
    with pytest.raises(error, match=message):
        Glossary(terms)


@pytest.mark.parametrize("terms", [
    np.array([["dogs", "Hunde"], ["cat", "Katze"]]),  # what df[["en", "de"]].values gives
    list(np.array([["dogs", "Hunde"], ["cat", "Katze"]])),
])
def test_the_rows_of_a_numpy_array_are_pairs_of_plain_texts(terms):
    glossary = Glossary.of(terms)
    assert glossary == Glossary.of({"dogs": "Hunde", "cat": "Katze"})
    assert [type(term) for pair in glossary.terms for term in pair] == [str] * 4
    assert glossary.matches("a cat and two dogs") == ["Katze", "Hunde"]


def test_an_empty_term_is_refused_in_one_line():
    with pytest.raises(DataError, match="glossary: empty target term"):
        Glossary.of({"dog": ""})
    with pytest.raises(DataError, match="glossary: empty source term"):
        Glossary.of({" ": "Hund"})


def test_a_sentence_is_matched_in_the_same_steps_against_20_000_terms_as_against_20_of_their_length():
    sentence = "term00007 and term00019 meet term00003 at home"
    few, many = (Glossary.of({f"term{i:05d}": f"T{i}" for i in range(n)}) for n in (20, 20_000))
    assert many.matches(sentence) == few.matches(sentence) == ["T7", "T19", "T3"]
    assert lines_run(lambda: many.matches(sentence)) == lines_run(lambda: few.matches(sentence))


def test_case_is_folded_fully_and_a_term_needs_word_ends_on_both_sides():
    glossary = Glossary.of({"straße": "street", "C++": "C++"})
    assert glossary.matches("STRASSE and c++, not xc++ or c++x") == ["street", "C++"]


def test_an_acronym_matches_only_in_capitals_as_translation_tools_match_it():
    """"US" and "IT" matched "Join us" and "It works": matching ignores case.  A source term of two
    capitals or more matches only where the text has it in capitals (memoQ's and Trados' "smart
    case"), full-width ones too; "Us" at a sentence's start is the word."""
    glossary = Glossary.of({"US": "USA", "IT": "IT", "NATO": "NATO"})
    assert glossary.matches("Join us. It works. Us too, and Nato.") == []
    text = "The US and ＩＴ team; JOIN US, NATO-led."
    assert glossary.matches(text) == ["USA", "IT"] + ["NATO"]
    assert [text[start:end] for start, end, _ in glossary.found_in(text)] == ["US", "ＩＴ", "US", "NATO"]


def test_a_term_of_several_words_matches_only_with_its_acronyms_in_capitals():
    """"US Army", "EU AI Act" and "IT department" matched "let us army ants", "eu ai act" and "it
    department" with their case folded.  Each word of a term that is an acronym matches only in
    capitals, as an acronym alone does; its other words ignore case."""
    glossary = Glossary.of({"US Army": "US-Armee", "EU AI Act": "KI-Verordnung", "IT department": "IT-Abteilung"})
    assert glossary.matches("Let us army ants in; the eu ai act; it department; Us Army.") == []
    text = "The US ARMY and the US army; the EU AI act; our IT Department."
    assert glossary.matches(text) == ["US-Armee", "KI-Verordnung", "IT-Abteilung"]
    assert [text[start:end] for start, end, _ in glossary.found_in(text)] == [
        "US ARMY", "US army", "EU AI act", "IT Department"]


def test_a_name_written_with_capitals_inside_matches_only_with_them():
    """"Red Cross" matched the red cross on a shirt, and "Der rote Rotes Kreuz" came out.  A term with a capital on
    a word after its first is a name: it matches where the text has those capitals (memoQ's "smart case"), in any of
    its other letters' case; a case of it given its own target, or a spelling in small letters, in any case."""
    glossary = Glossary.of({"Red Cross": "Rotes Kreuz", "Statue of Liberty": "Freiheitsstatue"})
    assert glossary.matches("A shirt with the red cross; a Red cross; a statue of liberty.") == []
    text = "The Red Cross, RED CROSS aid, the red-Cross tent and the Statue Of Liberty."
    assert glossary.matches(text) == ["Rotes Kreuz", "Freiheitsstatue"]
    assert [text[start:end] for start, end, _ in glossary.found_in(text)] == [
        "Red Cross", "RED CROSS", "red-Cross", "Statue Of Liberty"]
    assert Glossary.of([("coffee shop", "Café"), ("Coffee Shop", "Café")]).matches("A coffee shop.") == ["Café"]
    both = Glossary.of([("Red Cross", "Rotes Kreuz"), ("red cross", "rotes Kreuz")])
    assert both.matches("the red cross") == ["rotes Kreuz"] and both.matches("the Red Cross") == ["Rotes Kreuz"]


def test_a_term_of_several_words_and_its_acronyms_in_small_letters_are_two_terms():
    """With its acronym in small letters ("us army") a term is another, and the one in capitals wins where the
    text has them."""
    glossary = Glossary.of({"us army": "uns Armee", "US Army": "US-Armee"})
    assert glossary.matches("Let us army ants in, the US Army.") == ["uns Armee", "US-Armee"]


def test_spellings_of_a_term_with_an_acronym_given_two_targets_each_match_their_own_case():
    """"US Army" (the name) and "US army" (any army of the US) given two targets stopped the glossary, "source term
    'US army' has two target terms", where "Apple" and "apple" are each matched in their own case: so are these,
    each where the text has its case, the first given where it has neither's, and the acronym in capitals still."""
    glossary = Glossary.of([("US Army", "US Army"), ("US army", "US-Armee")], "terms.tsv:1")
    assert glossary.terms == (("US Army", "US Army"), ("US army", "US-Armee"))
    text = "The US Army is not the US army, nor the US ARMY; let us army ants in."
    assert [target for _, _, target in glossary.found_in(text)] == ["US Army", "US-Armee", "US Army"]
    assert glossary.matches(text) == ["US Army", "US-Armee"]
    with pytest.raises(DataError, match=r"terms.tsv\[2\]: source term 'US army' has two target terms, 'US-Armee'"):
        Glossary.of([("US Army", "US Army"), ("US army", "US-Armee"), ("US army", "Heer")], "terms.tsv")


@pytest.mark.parametrize("terms", [{"US Army": "US Army", "US ARMY": "US-ARMEE"}, {"US ARMY": "US-ARMEE",
                                                                                      "US Army": "US Army"}])
def test_a_term_with_an_acronym_and_the_term_in_capitals_are_each_found(terms):
    """"US Army" beside "US ARMY" (a heading's term, each word in capitals: two acronyms) shared one place in the
    index, the later given winning: "the US Army" held no term, or "the US ARMY" the wrong one.  Each is found where
    the text has its capitals, the term of more of them first."""
    glossary = Glossary.of(terms)
    assert [glossary.matches(text) for text in ("the US Army", "the US ARMY", "the US army", "the us army")] == [
        ["US Army"], ["US-ARMEE"], ["US Army"], []]


def test_an_acronym_is_found_in_capitals_where_nfkc_composes_the_cases_apart():
    """Folded, "T" and a combining diaeresis compose into "ẗ", in capitals they stay two: the places
    of the two forms differ, and matches finds the acronyms where found_in finds them."""
    glossary = Glossary.of({"US": "USA", "dog": "Hund"})
    assert glossary.matches("T\u0308 us and a DOG") == ["Hund"]
    assert glossary.matches("T\u0308 us, the US") == ["USA"]


def test_a_term_not_all_capitals_keeps_ignoring_case():
    glossary = Glossary.of({"dog": "Hund", "Paris": "Paris", "iPhone": "iPhone", "A": "A", "C++": "C++"})
    text = "DOG, paris, IPHONE, a and c++"
    assert glossary.matches(text) == ["Hund", "Paris", "iPhone", "A", "C++"]
    assert len(glossary.found_in(text)) == 5


def test_an_acronym_and_the_word_of_its_letters_are_two_terms(tmp_path):
    """Under smart case "US" (the country) and "us" (the word) match apart, so one glossary holds both:
    it was refused, "source term 'us' has two target terms", the terms told apart with their case folded.
    The acronym wins where the text has it in capitals, the word elsewhere, whichever came first."""
    path = write(tmp_path, "US\tUSA\nus\tuns\n")
    glossary = read_glossary(path)
    assert glossary.terms == (("US", "USA"), ("us", "uns"))
    assert glossary.matches("The US need us.") == ["USA", "uns"]
    assert glossary.matches("Us too, join us.") == ["uns"] and glossary.matches("JOIN US") == ["USA"]
    assert Glossary.of({"us": "uns", "US": "USA"}).matches("Us and the US") == ["uns", "USA"]
    assert [glossary.place("US"), glossary.place("us")] == [f"{path}:1", f"{path}:2"]


def test_an_acronym_and_a_word_are_merged_as_two_terms_and_their_targets_kept_apart():
    """A JSONL line's "us" added to --glossary's "US" replaced it; two target terms of one letters (``of_targets``,
    which keeps a translation's terms whole) kept the first alone."""
    merged = Glossary.of({"US": "USA"}).merged({"us": "uns"})
    assert merged.terms == (("US", "USA"), ("us", "uns"))
    assert merged.merged({"US": "Vereinigte Staaten"}).matches("the US and us") == ["Vereinigte Staaten", "uns"]
    targets = Glossary.of({"information technology": "IT", "that": "it"}).of_targets
    assert targets.terms == (("IT", "IT"), ("it", "it"))


def test_a_capital_dotted_i_matches_a_small_i_at_its_place():
    """Case-folding makes Turkish "İ" an "i" and a combining dot, which NFKC keeps apart: "istanbul"
    was not found in "İstanbul", nor "İzmir" in "izmir"; the places found stay the text's own."""
    glossary = Glossary.of({"istanbul": "Istanbul", "İzmir": "Izmir", "Ankara": "Ankara"})
    text = "İSTANBUL, İstanbul, izmir ve Ankara"
    assert glossary.matches(text) == ["Istanbul", "Izmir", "Ankara"]
    assert [text[start:end] for start, end, _ in glossary.found_in(text)] == [
        "İSTANBUL", "İstanbul", "izmir", "Ankara"]


def test_each_term_remembers_where_it_was_given_through_a_merge(tmp_path):
    read = read_glossary(write(tmp_path, "# terms\ndog\tHund\n\nNew  York\tNew York\ncat\tKatze\n"))
    line = Glossary.of({"Cat": "Mieze", "bird": "Vogel"}, "in.jsonl:3")
    merged = read.merged(line).merged(Glossary.of({"dog": "Köter"}))
    assert read.place("new york") == f"{tmp_path / 'terms.tsv'}:4"
    assert [merged.place(term) for term in ("dog", "cat", "bird")] == [None, "in.jsonl:3", "in.jsonl:3"]


def test_a_term_with_an_unpaired_surrogate_is_refused_in_one_line():
    with pytest.raises(DataError, match=r"glossary source term 'd\\udfffog' is not valid Unicode"):
        Glossary.of({"d\udfffog": "Hund"})


def test_terms_match_across_unicode_forms_nfc_nfd_and_full_width():
    glossary = Glossary.of({"café": "Kaffeehaus", "Dog": "Hund"})  # "café" as one letter é (NFC)
    assert glossary.matches("A cafe\u0301 and a ｄｏｇ.") == ["Kaffeehaus", "Hund"]  # e + U+0301 (NFD), full-width
    assert Glossary.of({"cafe\u0301": "Kaffeehaus"}).matches("Ein Café.") == ["Kaffeehaus"]


def test_a_combining_mark_is_part_of_the_word_before_it():
    glossary = Glossary.of({"q": "Q", "cafe": "Kaffee"})
    assert glossary.matches("the q sign") == ["Q"]
    assert glossary.matches("the q\u0301 sign, a cafe\u0301") == []  # q with an accent no letter composes with


def test_the_repr_of_a_large_glossary_shows_a_few_terms_and_the_count():
    """The dataclass repr of 100,000 terms was 3 MB, in a REPL, a log or a traceback's locals (1,000 show it: the
    repr is the same few terms beyond three)."""
    glossary = Glossary.of({f"term{i}": f"Begriff{i}" for i in range(1_000)})
    assert repr(glossary) == "Glossary({'term0': 'Begriff0', 'term1': 'Begriff1', 'term2': 'Begriff2', … 1000 terms})"
    assert repr(Glossary.of({"dog": "Hund"})) == "Glossary({'dog': 'Hund'})"


@pytest.mark.parametrize("text", ["Acme™ sells dogs.", "Acme℠ sells dogs.", "Acme® sells dogs.",
                                  "ＡＣＭＥ sells dogs."])
def test_a_term_before_a_symbol_nfkc_would_spell_out_still_matches(text):
    """NFKC makes "™" "TM": "Acme™" read as the one word "acmetm", and the term matched no more."""
    assert Glossary.of({"Acme": "ACME"}).matches(text) == ["ACME"]


def test_a_glossary_replaced_with_other_terms_matches_only_those():
    """``dataclasses.replace`` copied the old index, and the new glossary enforced the old terms."""
    replaced = dataclasses.replace(Glossary.of({"dog": "Köter"}, "terms.tsv:1"), terms=(("cat", "Mieze"),))
    assert replaced.matches("A cat and a dog.") == ["Mieze"]
    assert replaced.place("dog") is None and replaced == Glossary.of({"cat": "Mieze"})


def test_a_glossary_survives_pickle_and_deepcopy_with_its_index_and_places(tmp_path):
    glossary = read_glossary(write(tmp_path, "dog\tHund\nNew York\tNew York\n"))
    for copied in (pickle.loads(pickle.dumps(glossary)), copy.deepcopy(glossary)):
        assert copied == glossary and copied.matches("A dog in New York.") == ["Hund", "New York"]
        assert copied.place("dog") == f"{tmp_path / 'terms.tsv'}:1"


def test_a_glossary_merges_a_dict_of_terms_as_as_glossary_takes_it():
    merged = Glossary.of({"dog": "Hund"}).merged({"cat": "Katze", "Dog": "Köter"})
    assert merged.matches("a dog and a cat") == ["Köter", "Katze"]
    with pytest.raises(ConfigError, match="^glossary: expected a Glossary .* got str 'cat'$"):
        Glossary.of({"dog": "Hund"}).merged("cat")


@pytest.mark.parametrize("path", [None, "", 3])
def test_read_glossary_of_no_path_is_one_config_error(path):
    """None was pathlib's TypeError; "" read the current directory."""
    with pytest.raises(ConfigError, match=rf"^read_glossary: expected the path of a glossary file, got {path!r}$"):
        read_glossary(path)


@pytest.mark.parametrize("text", ["the children\u2019s park", "the children\u2018s park", "the children\u02bcs park",
                                  "the children's park"])
def test_a_term_typed_with_a_straight_apostrophe_matches_a_typographic_one(text):
    """Word writes "’" for "'": "children's park" matched "the children's park" only, silently."""
    assert Glossary.of({"children's park": "Kinderspielplatz"}).matches(text) == ["Kinderspielplatz"]
    assert Glossary.of({"children\u2019s park": "Kinderspielplatz"}).matches(text) == ["Kinderspielplatz"]


def test_a_term_typed_with_a_hyphen_minus_matches_a_typographic_or_non_breaking_hyphen():
    """Word's non-breaking hyphen (Ctrl+Shift+-, U+2011) and U+2010 read as "-", either way round:
    "Wi\u2011Fi" held no "Wi-Fi", and the places found stay the text's."""
    text = "Wi\u2011Fi and e\u2010mail"
    glossary = Glossary.of({"Wi-Fi": "WLAN", "e-mail": "E-Mail"})
    assert glossary.matches(text) == ["WLAN", "E-Mail"]
    assert [text[start:end] for start, end, _ in glossary.found_in(text)] == ["Wi\u2011Fi", "e\u2010mail"]
    assert Glossary.of({"Wi\u2011Fi": "WLAN"}).matches("Wi-Fi") == ["WLAN"]


def test_a_typographic_apostrophe_keeps_the_places_found_in_the_text():
    text = "O\u2019Brien’s 2012 Rock \u2018n\u2019 roll"
    glossary = Glossary.of({"O'Brien": "OB", "rock 'n' roll": "Rock’n’Roll"})
    assert glossary.found_in(text) == [(0, 7, "OB"), (15, 28, "Rock’n’Roll")]
    assert text[0:7] == "O\u2019Brien" and text[15:28] == "Rock \u2018n\u2019 roll"


@pytest.mark.parametrize("text", ["Click \u201cSave As\u201d now.", "Click \u201eSave As\u201c now.",
                                  'Click "Save As" now.'])
def test_a_term_typed_with_straight_double_quotes_matches_typographic_ones(text):
    """Word writes "“" and "”" for '"' as it writes "’" for "'": the term '"Save As"' (a menu's name, quoted as
    the style guide asks) was not found in 'Click “Save As” now.', though "children's" is in "children’s"."""
    glossary = Glossary.of({'"Save As"': "„Speichern unter“", '5" screen': "5-Zoll-Bildschirm"})
    assert [text[start:end] for start, end, _ in glossary.found_in(text)] == [text[6:15]]
    assert glossary.matches(text) == ["„Speichern unter“"]
    assert glossary.matches("a 5\u201d screen") == ["5-Zoll-Bildschirm"]


def test_a_term_is_matched_past_a_soft_hyphen_and_keeps_its_places_in_the_text():
    """A soft hyphen marks where a word may break, no part of it: ``co\u00adoperative`` holds
    "cooperative", and ``20\u00ad12`` the term 2012, not 12; a term of soft hyphens alone is empty."""
    glossary = Glossary.of({"cooperative": "Genossenschaft", "2012": "zweitausendzwölf", "12": "zwölf"})
    assert glossary.matches("a co\u00adoperative in 20\u00ad12") == ["Genossenschaft", "zweitausendzwölf"]
    text = "20\u00ad12 co\u00adop\u00aderative"
    assert glossary.found_in(text) == [(0, 5, "zweitausendzwölf"), (6, 19, "Genossenschaft")]
    assert text[0:5] == "20\u00ad12" and text[6:19] == "co\u00adop\u00aderative"
    assert Glossary.of({"co\u00adoperative": "Genossenschaft"}).matches("cooperative") == ["Genossenschaft"]
    with pytest.raises(DataError, match="glossary: empty source term"):
        Glossary.of({"\u00ad": "Hund"})


def test_an_invisible_character_is_no_part_of_a_term_nor_of_the_text(tmp_path):
    """A term copied from a web page or Word with a zero-width space, non-joiner or word joiner in
    it was accepted and matched nothing, silently; in the text, such a character is read past too."""
    read = read_glossary(write(tmp_path, "dog\u200b\tMieze\n\u200bcat\tKatze\nman\u200c\tHerr\nco\u2060op\tKoop\n"))
    assert read.matches("A dog, a cat, a man and a coop.") == ["Mieze", "Katze", "Herr", "Koop"]
    assert Glossary.of({"dog\u200b": "Mieze"}).matches("A dog runs.") == ["Mieze"]
    glossary = Glossary.of({"dog": "Hund"})
    assert glossary.matches("a do\u2060g") == glossary.matches("a \u2060dog\u200b.") == ["Hund"]
    text = "a do\u2060g and a \u200bdog"
    assert glossary.found_in(text) == [(2, 6, "Hund"), (14, 17, "Hund")]
    assert text[2:6] == "do\u2060g" and text[14:17] == "dog"


@pytest.mark.parametrize("spacing", ["\u200b", "\u200c", "\ufeff", "\u200e", "\u200f", "\u061c"])
def test_an_invisible_character_the_model_reads_as_a_space_is_a_word_edge(spacing):
    """SentencePiece reads a zero-width space, a non-joiner, a byte order mark or a direction mark
    between words as a space ("a\u200bdog" is "▁a ▁dog"); dropping it made "adog", which held the
    term "dog" no more.  In a term it is a space too, and none at the term's ends."""
    glossary = Glossary.of({"dog": "Hund", f"ice{spacing}cream": "Eis"})
    assert glossary.matches(f"a{spacing}dog") == ["Hund"]
    assert glossary.found_in(f"a{spacing}dog, ice cream") == [(2, 5, "Hund"), (7, 16, "Eis")]
    assert glossary.matches("an icecream") == glossary.matches(f"an ice{spacing}{spacing}") == []
    assert Glossary.of({f"{spacing}dog{spacing}": "Hund"}).matches("A dog runs.") == ["Hund"]
    assert glossary.matches(f"ice{spacing}cream") == ["Eis"]


def test_the_characters_read_as_a_space_are_those_sentencepiece_reads_so():
    """SPACING is SentencePiece's own table (nmt_nfkc, which attnmt's models are trained with),
    over every control and format character that is no space already."""
    normalizer = sentencepiece.SentencePieceNormalizer(rule_name="nmt_nfkc")
    controls = [chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) in ("Cc", "Cf")]
    read_as_space = {c for c in controls if not c.isspace() and normalizer.normalize(f"a{c}b") == "▁a▁b"}
    assert read_as_space == SPACING


@pytest.mark.parametrize("terms, message", [({"dog": "\u200b"}, "glossary: empty target term (beside 'dog')"),
                                            ({"\u200b\u2060": "Hund"}, "glossary: empty source term (beside 'Hund')")])
def test_a_term_of_invisible_characters_alone_is_empty(terms, message):
    """A target term of a zero-width space alone was refused only by the model's vocabulary,
    which "writes it as ''"."""
    with pytest.raises(DataError, match=re.escape(message)):
        Glossary.of(terms)


@pytest.mark.parametrize("terms, message", [
    (np.array([["dog", "Hund"], ["cat", np.nan]], dtype=object), "glossary[1]: the target term must be text, got nan "
                                                                 "(beside 'cat')"),
    ([("dog", "Hund"), (None, "Katze")], "glossary[1]: the source term must be text, got None (beside 'Katze')"),
    ({"dog": None}, "glossary: the target term must be text, got None (beside 'dog')")])
def test_a_term_that_is_no_text_is_named_with_its_row_and_the_term_beside_it(terms, message):
    """A table's missing cell (NaN) said "the target term must be text, got nan", naming no row of
    the thousands a glossary may have; an empty term names the term beside it.  A dict's key names its item."""
    with pytest.raises(DataError, match=f"^{re.escape(message)}$"):
        Glossary.of(terms)


@pytest.mark.parametrize("terms, message", [
    ([("dog", "Hund"), ("cat", " ")], "glossary[1]: empty target term (beside 'cat')"),
    ([("dog", "Hund"), ("ab",)], "glossary[1]: expected a (source term, target term) pair, got ('ab',)"),
    ([("dog", "Hund"), ("cat", "Katze"), ("cat", "Mieze")],
     "glossary[2]: source term 'cat' has two target terms, 'Katze' (glossary[1]) and 'Mieze'"),
    ([("Apple", "Apple"), ("apple", "Apfel"), ("apple", "Obst")],
     "glossary[2]: source term 'apple' has two target terms, 'Apfel' (glossary[1]) and 'Obst'")])
def test_a_bad_pair_of_a_table_is_named_by_its_row(terms, message):
    """As a file's line is ("terms.tsv:3"): the pair's index, where the first of a term given twice was too;
    ``Glossary(terms)`` names them as ``Glossary.of`` does."""
    with pytest.raises(DataError, match=f"^{re.escape(message)}$"):
        Glossary.of(terms)
    with pytest.raises(DataError, match=f"^{re.escape(message)}$"):
        Glossary(tuple(terms))


def test_a_term_of_a_script_written_without_spaces_matches_inside_running_text():
    """Han, kana and Thai text has no spaces between words: "東京" in "我在東京住" matched nothing.
    Beside such letters no whole-word rule holds, but a combining mark stays its letter's."""
    glossary = Glossary.of({"東京": "Tokio", "コーヒー": "Kaffee", "ข้าว": "Reis", "ก": "K", "iPhone": "iPhone"})
    assert glossary.matches("我在東京住") == ["Tokio"]
    assert glossary.matches("東京でコーヒーを飲む") == ["Tokio", "Kaffee"]
    assert glossary.matches("ผมกินข้าวแล้ว") == ["Reis"]
    assert glossary.matches("กิน") == []  # "ก" + the vowel sign U+0E34 is one letter
    assert glossary.matches("我的iPhone很好") == ["iPhone"]
    assert glossary.matches("iPhonesque and myiPhone") == []  # between Latin letters, whole words still
    assert glossary.found_in("我在東京住") == [(2, 4, "Tokio")]


@pytest.mark.parametrize(("text", "span"), [
    ("ﾃｽﾄｶﾞｽです", (3, 6)),  # half-width katakana, "ｶ" + the voicing mark U+FF9E
    ("ﾊﾟｶﾞｽ", (2, 5)),  # and the semi-voicing mark U+FF9F before it
    ("テストガスです", (3, 5)),
])
def test_found_in_finds_a_term_whose_letter_and_mark_compose_as_matches_does(text, span):
    """found_in made "ｶﾞ" normal a character at a time, "カ" and a combining mark, never the "ガ"
    that matches makes of both: the term was matched in the source and reported missing from a
    translation that kept it.  A letter and a combining accent compose alike ("cafe" + U+0301)."""
    glossary = Glossary.of({"ガス": "gas", "café": "Café"})
    assert glossary.matches(text) == ["gas"]
    assert glossary.found_in(text) == [(*span, "gas")]
    assert glossary.found_in("un cafe\u0301 noir") == [(3, 8, "Café")]


def test_found_in_makes_a_run_of_marks_normal_once(monkeypatch):
    """found_in made a letter's piece normal again at each combining mark after it, the whole piece
    so far each time: 2,000 marks ("Zalgo" text) took 4 s, 8,000 over three minutes.  Counted, not timed: the
    characters given to ``compatible`` grow with the text, each character once alone and once in
    its piece."""
    glossary, given = Glossary.of({"dog": "Hund"}), []

    def counted(text, *args):
        given.append(len(text))
        return compatible(text, *args)

    monkeypatch.setattr(term_forms, "compatible", counted)
    text = "The dog a" + "\u0301\u0320\u0335" * 667 + " dog."
    assert glossary.found_in(text) == [(4, 7, "Hund"), (2011, 2014, "Hund")]
    assert sum(given) <= 2 * len(text)


EMOJI = {"🇩🇪": "Deutschland", "👍": "gut", "🐕": "Hund", "👩": "Frau"}


@pytest.mark.parametrize("text", [
    "🇦🇩🇪🇸",  # Andorra and Spain: the flags pair from the start of the run, no 🇩🇪 between them
    "👍🏽",  # a thumb with a skin tone
    "👍\ufe0f",  # with a variation selector
    "🐕\u200d🦺",  # a service dog, a ZWJ sequence
    "👩\u200d👩\u200d👧",  # a family
    "👩🏽\u200d💻",  # a woman with a skin tone at a computer
], ids=["flags", "skin tone", "variation selector", "service dog", "family", "technologist"])
def test_a_term_of_emoji_is_not_found_inside_a_longer_emoji(text):
    """An emoji or flag term matched inside a longer emoji and split it: "🇦🇩🇪🇸" came out
    "🇦Deutschland🇸", "👍🏽" "gut🏽", "🐕\u200d🦺" "Hund\u200d🦺".  A term begins and ends only
    between whole grapheme clusters (UAX #29)."""
    glossary = Glossary.of(EMOJI)
    assert glossary.matches(text) == [] and glossary.found_in(text) == []


def test_a_term_of_emoji_is_found_where_it_is_a_whole_emoji():
    """Whole flags, emoji side by side and ZWJ sequences given as terms are found; a joiner between
    letters is still read past ("do\u200dg" is "dog")."""
    glossary = Glossary.of(EMOJI | {"🇪🇸": "Spanien", "🐕\u200d🦺": "Assistenzhund", "dog": "Hund"})
    assert glossary.found_in("🇦🇩🇪🇸") == [(2, 4, "Spanien")]  # the second flag is Spain
    assert glossary.found_in("🇩🇪🇪🇸") == [(0, 2, "Deutschland"), (2, 4, "Spanien")]
    assert glossary.found_in("👍🐕 und 🐕\u200d🦺") == [(0, 1, "gut"), (1, 2, "Hund"), (7, 10, "Assistenzhund")]
    assert glossary.matches("ein 🐕\u200d🦺") == ["Assistenzhund"]
    assert glossary.matches("a do\u200dg") == ["Hund"]
    assert glossary.found_in("a do\u200dg") == [(2, 6, "Hund")]


@pytest.mark.parametrize("text", ["★\u200ddog", "🐕\u200ddog", "👩🏽\u200ddog"], ids=["star", "emoji", "skin tone"])
def test_a_term_of_letters_after_a_symbol_and_a_joiner_is_found(text):
    """A joiner joins the next character to the symbol before it only where that is a pictographic
    symbol (UAX #29, GB11); a letter after it begins a grapheme cluster of its own, so "dog" here is
    a whole word (a joiner after any symbol had blocked the term: no "dog" in "★\u200ddog")."""
    glossary = Glossary.of({"dog": "Hund"})
    assert glossary.matches(text) == ["Hund"]
    assert glossary.found_in(text) == [(len(text) - 3, len(text), "Hund")]


@pytest.mark.parametrize("text, span", [
    ("חיפשתי ב\u2066Google\u2069 אתמול", (9, 15)),  # a Latin name isolated in Hebrew, glued to its prefix
    ("بحثت في\u2067Google\u2069", (8, 14)),
    ("x\u202aGoogle\u202cy", (2, 8)),  # an embedding and its pop
])
def test_the_controls_that_wrap_text_of_another_direction_are_word_edges(text, span):
    glossary = Glossary.of({"Google": "G"})
    assert glossary.matches(text) == ["G"]
    assert [found[:2] for found in glossary.found_in(text)] == [span]


@pytest.mark.parametrize(("sentence", "target"), [
    ("Two access points were found.", "Zugangspunkt"), ("Dogs bark.", "Hund"), ("three companies", "Firma"),
    ("the boxes", "Kiste"), ("Send two e-mails.", "E-Mail")])
def test_a_source_term_is_found_in_its_english_plural_and_its_target_may_be_inflected(sentence, target):
    """"access points" with the term access point -> Zugangspunkt was no match: the translation went without it."""
    glossary = Glossary.of({"access point": "Zugangspunkt", "dog": "Hund", "company": "Firma", "box": "Kiste",
                            "e-mail": "E-Mail"})
    assert glossary.matches(sentence) == [target]
    assert glossary.inflected(sentence) == {target}


@pytest.mark.parametrize("sentence", ["its tail", "dogsled", "4Gs", "doges", "APIS", "Apis"])
def test_no_plural_is_read_into_another_word_a_short_term_or_an_acronym_not_in_capitals(sentence):
    glossary = Glossary.of({"it": "es", "dog": "Hund", "4G": "4G", "API": "API"})
    assert glossary.matches(sentence) == []


@pytest.mark.parametrize(("sentence", "target"), [
    ("Two APIs and a PC.", "API"), ("three PCs", "Rechner"), ("the IT departments", "IT-Abteilung")])
def test_a_term_with_an_acronym_is_found_in_its_plural_the_acronyms_s_in_small_letters(sentence, target):
    """"APIs" with the term API -> API, "PCs" with PC -> Rechner: no match, as "access points" had none."""
    glossary = Glossary.of({"API": "API", "PC": "Rechner", "IT department": "IT-Abteilung"})
    assert glossary.matches(sentence)[0] == target and target in glossary.inflected(sentence)


def test_a_plural_that_is_a_term_of_its_own_keeps_its_own_target_and_a_singular_is_not_inflected():
    glossary = Glossary.of({"glass": "Glas", "glasses": "Brille", "dog": "Hund"})
    assert glossary.matches("my glasses and a glass") == ["Brille", "Glas"]
    assert glossary.inflected("my glasses, a glass and a dog") == frozenset()


def test_a_word_of_its_own_or_a_verbs_third_person_is_no_plural_of_a_term():
    """"news" was found as the term "new" -> neu, and "walks" as walk -> gehen ("Ein Mann gehen")."""
    glossary = Glossary.of({"new": "neu", "walk": "gehen", "dog": "Hund"})
    assert glossary.matches("The news: a man walks two dogs.") == ["Hund"]


def test_a_term_is_found_in_its_irregular_plural_and_its_target_may_be_inflected():
    glossary = Glossary.of({"child": "Kind", "kitchen knife": "Küchenmesser", "criterion": "Kriterium"})
    sentence = "Two children, three kitchen knives and no criteria."
    assert glossary.matches(sentence) == ["Kind", "Küchenmesser", "Kriterium"]
    assert glossary.inflected(sentence) == {"Kind", "Küchenmesser", "Kriterium"}


def test_a_term_given_in_the_plural_is_found_in_its_singular():
    """"access points" -> Zugangspunkte was no match in "The access point is down."."""
    glossary = Glossary.of({"access points": "Zugangspunkte", "children": "Kinder", "dog": "Hund"})
    assert glossary.matches("The access point and the child.") == ["Zugangspunkte", "Kinder"]
    assert glossary.singular("The access point, two children, a dog.") == {"Zugangspunkte"}
    assert glossary.inflected("The access point, two children, a dog.") == {"Zugangspunkte"}


@pytest.mark.parametrize(("sentence", "target"), [
    ("Send an email.", "E-Mail"), ("Two emails arrived.", "E-Mail"), ("Your email-address", "E-Mail"),
    ("Click Login.", "Anmeldung"), ("three logins", "Anmeldung")])
def test_a_hyphenated_term_is_found_in_its_closed_spelling(sentence, target):
    """"e-mail" -> E-Mail was no match in "Send an email.": the translation went without the term."""
    glossary = Glossary.of({"e-mail": "E-Mail", "log-in": "Anmeldung", "re-sign": "neu signieren"})
    assert glossary.matches(sentence) == [target]
    assert glossary.matches("I resign.") == []


@pytest.mark.parametrize(("sentence", "target"), [
    ("An ice cream vendor smiles.", "Eisverkäufer"), ("Two ice cream vendors.", "Eisverkäufer"),
    ("The fire-truck is red.", "Feuerwehrauto"), ("Fire-trucks are red.", "Feuerwehrauto")])
def test_a_term_of_words_is_found_in_its_open_and_its_hyphenated_spelling(sentence, target):
    """A termbase's "ice-cream vendor" was no match in "An ice cream vendor smiles.", nor its "fire truck" in "The
    fire-truck is red.": the translations went without the terms.  One hyphen-joined into a longer word is none."""
    glossary = Glossary.of({"ice-cream vendor": "Eisverkäufer", "fire truck": "Feuerwehrauto"})
    assert glossary.matches(sentence) == [target]
    assert glossary.matches("A fire-truck-driver.") == []

@pytest.mark.parametrize(("text", "span"), [("Send an email", (8, 13)), ("An access point", (3, 15))])
def test_a_term_found_in_a_longer_spelling_than_its_own_at_a_texts_end_has_its_place(text, span):
    """found_in raised an IndexError: the term's case was looked up past the text's end."""
    glossary = Glossary.of({"e-mail": "E-Mail", "access points": "Zugangspunkte"})
    assert [found[:2] for found in glossary.found_in(text)] == [span]


def test_a_name_given_in_the_plural_is_not_found_in_the_singular_of_its_word():
    """"Open the window." with Windows -> Windows required "Windows": the OS is no plural of a window."""
    glossary = Glossary.of({"Windows": "Windows", "Teams": "Teams", "access points": "Zugangspunkte"})
    assert glossary.matches("Open the window, a team and an access point.") == ["Zugangspunkte"]


def test_a_name_is_not_found_in_the_plural_of_its_word():
    """"Count the words." with Word -> Word (the program) required "Word"."""
    glossary = Glossary.of({"Word": "Word", "Office": "Office", "dog": "Hund"})
    assert glossary.matches("Count the words in two offices, and the dogs.") == ["Hund"]


@pytest.mark.parametrize(("sentence", "found"), [
    ("The Budget Managers met today.", "Budget Managers"), ("BUDGET MANAGERS", "BUDGET MANAGERS"),
    ("The Budget Managers' office", "Budget Managers"), ("Two Red Crosses help.", "Red Crosses"),
    ("The Data Companies signed.", "Data Companies"), ("Two access points and more.", "access points"),
    ("ACCESS POINTS", "ACCESS POINTS")])
def test_a_term_with_capitals_is_found_in_its_plural_where_a_text_has_its_capitals(sentence, found):
    """"The Budget Managers met today." with Budget Manager -> Budget Manager placed no term: the plurals were
    of the terms in small letters alone.  A name's plural keeps its capitals; a term in sentence case ("Access point")
    is found in any case, as its singular is."""
    glossary = Glossary.of({"Budget Manager": "Budget Manager", "Red Cross": "Rotes Kreuz",
                            "Data Company": "Datenfirma", "Access point": "Zugangspunkt"})
    [(start, end, _)] = glossary.found_in(sentence)
    assert sentence[start:end] == found and glossary.inflected(sentence)
    assert glossary.matches("Two budget managers and the red crosses.") == []


@pytest.mark.parametrize(("sentence", "found"), [
    ("The Managers met.", ["Manager"]), ("He said: Managers met.", ["Manager"]), ("two E-Mails", ["E-Mail"]),
    ("The managers met.", []), ("Managers met.", []), ('"Managers met."', []), ("Yes. Managers met.", []),
    ("THE MANAGERS MET.", [])])
def test_a_word_with_a_capital_is_found_in_its_plural_only_where_the_capital_tells_its_name(sentence, found):
    """"Manager" -> Manager was no match in "The Managers met."; "words" stays no plural of the program Word, nor is a
    capital at a sentence's start or in a heading of capitals one of the term's."""
    glossary = Glossary.of({"Manager": "Manager", "E-Mail": "E-Mail", "Word": "Word"})
    assert glossary.matches(sentence) == found
    assert glossary.matches("Count the Words, not the words.") == ["Word"]


def test_a_word_with_a_capital_and_its_small_letters_variant_are_each_found_in_their_plural():
    glossary = Glossary.of({"Apple": "Apple", "apple": "Apfel"})
    assert glossary.matches("Two Apples and three apples.") == ["Apple", "Apfel"]


@pytest.mark.parametrize("terms", [[("bike", "Fahrrad"), ("Bike", "Fahrrad")],
                                   [("Bike", "Fahrrad"), ("bike", "Fahrrad")],
                                   [("coffee shop", "Café"), ("Coffee Shop", "Café")]])
def test_a_term_given_in_small_letters_and_with_capitals_for_one_target_is_found_in_any_case(tmp_path, terms):
    """A glossary of "bike" and "Bike" (for a sentence's start) -> Fahrrad found no term in "Two bikes are parked.":
    the "Bike" given last was kept, whose plural is found only as "Bikes" inside a sentence (a name's, as Word's).  In
    whichever order they come, in one file, two files or a glossary added to a file's (a JSONL line's), the term is
    found wherever the one in small letters is."""
    sentence = "Two bikes are parked by two coffee shops."
    target = terms[0][1]
    for number, term in enumerate(terms):
        (tmp_path / f"{number}.tsv").write_text("\t".join(term) + "\n", encoding="utf-8")
    assert Glossary.of(terms).matches(sentence) == [target]
    assert read_glossaries([tmp_path / "0.tsv", tmp_path / "1.tsv"]).matches(sentence) == [target]
    assert read_glossary(tmp_path / "0.tsv").merged(dict(terms[1:])).matches(sentence) == [target]
