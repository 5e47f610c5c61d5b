"""Glossary files by their extension: CSV as DeepL and spreadsheets write it, its header rule (TSV's
too), its errors (TSV: test_glossary.py; TBX: test_termbase.py)."""

import gzip
import re
import warnings
import zipfile

import pytest

from attnmt.decoding.glossary import read_glossaries, read_glossary
from attnmt.errors import AttnmtWarning, ConfigError, DataError


def write(tmp_path, data: bytes, name: str = "terms.csv"):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_a_csv_file_with_a_bom_crlf_a_header_quotes_and_commas(tmp_path):
    """As Excel saves "CSV UTF-8": a byte order mark, CRLF line ends, RFC 4180 quotes."""
    path = write(tmp_path, '\ufeffSource,Target\r\n"New York, NY",New York\r\n"say ""hi""",sag „hallo“\r\n'
                           "\r\ndog,Hund\r\n#hashtag,#Hashtag\r\n".encode())
    glossary = read_glossary(path, "en", "de")
    assert glossary.terms == (("New York, NY", "New York"), ('say "hi"', "sag „hallo“"), ("dog", "Hund"),
                              ("#hashtag", "#Hashtag"))
    assert glossary.place("dog") == f"{path}:5"


@pytest.mark.parametrize("header", ["en,de", "EN-US,de-DE", "source term,target term", "src,tgt"])
def test_a_first_row_naming_the_columns_or_the_languages_is_a_header(tmp_path, header):
    path = write(tmp_path, f"{header}\ndog,Hund\n".encode())
    assert read_glossary(path, "en", "de").terms == (("dog", "Hund"),)
    assert read_glossary(path).terms == (("dog", "Hund"),)  # languages unknown: en,de names two


@pytest.mark.parametrize("header", ["source_term,target_term", "Source-Text,Target-Text", "SOURCE_TERM;TARGET_TERM",
                                    "source_term,target_term,notes", "notes,source_term,target_term"])
def test_a_first_row_naming_the_columns_in_a_programs_words_is_a_header(tmp_path, header):
    """A sheet a program or pandas wrote (``df.to_csv``) heads its columns "source_term", "target_term": the header
    was a term, and "target_term" was put into the translation of every sentence holding "source_term"."""
    rows = "dog,Hund\n" if header.count(",") == 1 else "dog;Hund\n" if ";" in header else (
        "dog,Hund,animal\n" if header.startswith("source") else "animal,dog,Hund\n")
    path = write(tmp_path, f"{header}\n{rows}".encode())
    assert read_glossary(path, "en", "de").terms == (("dog", "Hund"),)
    assert read_glossary(path).terms == (("dog", "Hund"),)


@pytest.mark.parametrize("header", ["English,German", "english , GERMAN", "Source Text,Target Text",
                                    "Source language,Target language"])
def test_a_first_row_naming_the_languages_by_name_is_a_header(tmp_path, header):
    """A sheet's headings as people write them: "English,German" was a term, and "German" was put into
    every translation of a sentence holding "English"."""
    path = write(tmp_path, f"{header}\ndog,Hund\n".encode())
    assert read_glossary(path, "en-US", "de").terms == (("dog", "Hund"),)
    assert read_glossary(path).terms == (("dog", "Hund"),)


@pytest.mark.parametrize(("header", "languages"), [
    ("Englisch;Deutsch", ("en", "de")),  # as a German user heads the columns
    ("Deutsch;Englisch", ("de", "en")),
    ("Anglais;Allemand", ("en", "de")),
    ("inglés;alemán", ("en", "de")),
    ("Ingles;Aleman", ("en", "de")),  # typed without the accents
    ("English (United States);German (Germany)", ("en-US", "de-DE")),
    ("Quelle;Ziel", ("de", "en")),
    ("Ausgangssprache;Zielsprache", ("de", "en")),
    ("Terme source;Terme cible", ("fr", "en")),
    ("Origen;Destino", ("es", "en")),
    ("Bron;Doel", ("nl", "en")),
])
def test_a_header_row_in_another_language_is_a_header(tmp_path, header, languages):
    """A sheet headed in its user's language: the header was read as a term, and with "Deutsch;Englisch"
    every German sentence holding "Deutsch" ("Ich spreche Deutsch") had "Englisch" forced into its
    translation, "Quelle" (a spring, a source) "Ziel"."""
    path = write(tmp_path, f"\ufeff{header}\r\ncat;Katze\r\n".encode())
    assert read_glossary(path, *languages).terms == (("cat", "Katze"),)


@pytest.mark.parametrize(("header", "named"), [("German,English", "German -> English"),
                                               ("Deutsch,Englisch", "Deutsch -> Englisch")])
def test_a_header_naming_the_languages_swapped_by_name_is_refused(tmp_path, header, named):
    """As "de,en" is: the columns named the other way round were a term, and the terms' targets were sources."""
    path = write(tmp_path, f"{header}\ndog,Hund\n".encode())
    with pytest.raises(DataError, match=rf"terms.csv:1: the header names the columns {named}, and the terms are "
                                        "wanted en -> de: swap the columns"):
        read_glossary(path, "en", "de")


@pytest.mark.parametrize(("first", "languages"), [("English,Englisch", ("en", "de")), ("German,Deutsch", ("en", "de")),
                                                  ("English,French", ("en", "de")), ("English,English", (None, None)),
                                                  ("English,Deutsch", (None, None))])
def test_a_first_row_of_language_names_not_those_translated_is_a_term(tmp_path, first, languages):
    path = write(tmp_path, f"{first}\ncat,Katze\n".encode())
    assert read_glossary(path, *languages).terms[0] == tuple(first.split(","))


@pytest.mark.parametrize(("first", "languages"), [("UK,GB", ("en", "de")), ("es,es", (None, None)),
                                                  ("eng,fra", ("en", "de")), ("dog,Hund", (None, None))])
def test_a_first_row_that_is_not_clearly_a_header_is_a_term(tmp_path, first, languages):
    """Two codes of one language, or others than two ISO 639-1 lists, are a term pair."""
    path = write(tmp_path, f"{first}\ncat,Katze\n".encode())
    assert read_glossary(path, *languages).terms[0] == tuple(first.split(","))


@pytest.mark.parametrize("first", ["dog,wau", "uk,gb", "WHO,OMS", "car\tPKW"])
def test_two_short_words_are_a_term_where_the_languages_are_not_known(tmp_path, first):
    """They have a language code's form, but a header names two languages ISO 639-1 lists ("uk" is
    Ukrainian's code, "gb" no language's): the first row was dropped, silently."""
    delimiter = "\t" if "\t" in first else ","
    path = write(tmp_path, f"{first}\ncat{delimiter}Katze\n".encode())
    assert read_glossary(path).terms == (tuple(first.split(delimiter)), ("cat", "Katze"))
    assert read_glossary(path, "en").terms[0] == tuple(first.split(delimiter))  # the CLI without --target-lang


def test_deepls_four_fields_give_the_languages_of_every_row(tmp_path):
    path = write(tmp_path, b"dog,Hund,en,de\ncat,Katze,EN,DE\n")
    assert read_glossary(path, "en-US", "de").terms == (("dog", "Hund"), ("cat", "Katze"))
    assert len(read_glossary(path)) == 2


def test_deepls_export_of_several_language_pairs_gives_the_rows_of_the_pair_translated(tmp_path):
    """DeepL's web app exports a multilingual glossary as one CSV file of its dictionaries' rows, several language
    pairs (``"Datenleck","data breach","DE","EN"`` among ``"latency","Latenz","EN","DE"``): it stopped, "the terms
    are DE -> EN, and the file's first are EN -> DE".  Translating en -> de, the EN -> DE rows are the glossary, the
    others skipped and counted in one warning; where the languages are not known, one pair a file still."""
    path = write(tmp_path, b'"latency","Latenz","EN","DE"\r\n"Datenleck","data breach","DE","EN"\r\n'
                           b'"stranden","Strand","DA","DE"\r\n"data breach","Datenleck","EN","DE"\r\n')
    with pytest.warns(AttnmtWarning) as heard:
        assert read_glossary(path, "en-US", "de").terms == (("latency", "Latenz"), ("data breach", "Datenleck"))
    assert [str(warning.message) for warning in heard] == [
        f"{path}: 2 of 4 rows skipped, their terms of another language pair than en-US -> de (the first: {path}:2, "
        "DE -> EN)"]
    with pytest.raises(DataError, match=r"terms.csv:2: the terms are DE -> EN, and the file's first are en -> de"):
        read_glossary(path)


def test_a_quoted_term_across_lines_is_named_by_its_first_line(tmp_path):
    path = write(tmp_path, b'dog,Hund\n"New\nYork",New York\ncat,Katze\n')
    glossary = read_glossary(path)
    assert glossary.place("New York") == f"{path}:2" and glossary.place("cat") == f"{path}:4"


@pytest.mark.parametrize(("data", "line"), [
    (b'dog,"Hund\r\nBello"\r\n"New\r\nYork",Neu York\r\n', 3),  # as Excel (Alt+Enter), LibreOffice, Python write
    (b'dog,"Hund\nBello"\n"New\nYork",Neu York\n', 3),
    (b'dog,"Hund \n\n Bello"\n"New\n York",Neu York\n', 4),  # the spaces around a break, a blank line: one space
])
def test_a_line_break_in_a_quoted_field_is_a_space(tmp_path, data, line):
    """A term is one line: "Hund<break>Bello" was read as "HundBello", silently."""
    path = write(tmp_path, data)
    glossary = read_glossary(path, "en", "de")
    assert glossary.terms == (("dog", "Hund Bello"), ("New York", "Neu York"))
    assert glossary.place("new york") == f"{path}:{line}"  # the file's own line


@pytest.mark.parametrize("data", [
    b"people;Personen\r\n;\r\ndog;Hund\r\n",  # as LibreOffice and Excel save a sheet's empty row
    b"people,Personen\n,\ndog,Hund\n",
    b"people,Personen\n , \ndog,Hund\n",
    b"people,Personen,en,de\n,,,\ndog,Hund,en,de\n",
    b"people\tPersonen\n\t\ndog\tHund\n",
    b"people,Personen\n;\ndog,Hund\n",  # a semicolon sheet's empty row, in a comma file
    b"people,Personen\n ;;; \ndog,Hund\n",
    b"people;Personen\n,,\ndog;Hund\n",
])
def test_a_row_of_blank_fields_is_skipped(tmp_path, data):
    """A blank row stopped the whole glossary: "terms.csv:2: empty source term (beside '')"; one of
    another delimiter than the file's, "terms.csv:2: expected 2 fields … got 1 in ';'"."""
    glossary = read_glossary(write(tmp_path, data), "en", "de")
    assert glossary.terms == (("people", "Personen"), ("dog", "Hund"))
    assert glossary.place("dog").endswith("terms.csv:3")


@pytest.mark.parametrize("name", ["terms.tsv", "terms.txt"])
@pytest.mark.parametrize("header", ["source\ttarget", "Source Term\tTarget Term", "en\tde", "EN-US\tde-DE",
                                    "source_term\ttarget_term"])
def test_a_tsv_files_header_is_skipped_as_a_csv_files(tmp_path, name, header):
    """As Google Sheets and Excel's "Unicode Text" save a sheet: "source" was a term, translated "target"."""
    path = write(tmp_path, f"# terms\r\n{header}\r\ndog\tHund\r\n".encode(), name)
    assert read_glossary(path, "en", "de").terms == (("dog", "Hund"),)
    assert read_glossary(path).terms == (("dog", "Hund"),)
    assert read_glossary(path).place("dog") == f"{path}:3"


@pytest.mark.parametrize(("first", "languages"), [("UK\tGB", ("en", "de")), ("eng\tfra", ("en", "de")),
                                                  ("dog\twau", (None, None))])
def test_a_tsv_files_first_line_that_is_not_clearly_a_header_is_a_term(tmp_path, first, languages):
    path = write(tmp_path, f"{first}\ncat\tKatze\n".encode(), "terms.tsv")
    assert read_glossary(path, *languages).terms[0] == tuple(first.split("\t"))


def test_a_tsv_header_naming_the_languages_swapped_names_its_line(tmp_path):
    path = write(tmp_path, b"de\ten\ndog\tHund\n", "terms.tsv")
    with pytest.raises(DataError, match=r"terms.tsv:1: the header names the columns de -> en, and the terms are "
                                        r"wanted en -> de: swap the columns"):
        read_glossary(path, "en", "de")


@pytest.mark.parametrize(("data", "terms"), [
    (b'source;target\r\n"Hund; der";dog\r\nKatze;cat, kitty\r\n', [("Hund; der", "dog"), ("Katze", "cat, kitty")]),
    (b"Hund;dog, hound\nKatze;cat\n", [("Hund", "dog, hound"), ("Katze", "cat")]),  # row 2 says: semicolons
    (b"Hund;dog;de;en\n", [("Hund", "dog")]),
    (b"Hund\tdog\nNew York, NY\tNew York\n", [("Hund", "dog"), ("New York, NY", "New York")]),
    (b'a;b,c\n"x;y",z\n', [("a;b", "c"), ("x;y", "z")]),  # a comma file's terms may hold semicolons
])
def test_a_csv_files_delimiter_comma_semicolon_or_tab_is_read_from_its_rows(tmp_path, data, terms):
    """As Excel saves CSV in German, French or Dutch settings: semicolons."""
    assert list(read_glossary(write(tmp_path, data)).terms) == terms


@pytest.mark.parametrize(("data", "terms"), [
    (b'"dog", "Hund"\n"cat", "Katze"\n', [("dog", "Hund"), ("cat", "Katze")]),
    (b'"big dog", "Hund, gro\xc3\x9f"\n', [("big dog", "Hund, gro\u00df")]),
    (b'source; target\n"Hund; der"; "dog"\n', [("Hund; der", "dog")]),
    (b'"New York, NY",  "New York"\n', [("New York, NY", "New York")]),
])
def test_a_quoted_field_after_a_space_is_read_without_its_quotes(tmp_path, data, terms):
    """A CSV file written by hand, or by a program, with a space after each comma: the quotes of ` "Hund"` were
    read as the term's, and '"Hund"', quotes and all, was forced into the translation (a TSV file's fields,
    ``unquoted``, were read without them); ``"Hund, groß"`` was two fields, and the row refused."""
    assert list(read_glossary(write(tmp_path, data)).terms) == terms


@pytest.mark.parametrize(("data", "terms"), [
    (b"\xef\xbb\xbfsep=;\r\nsource;target\r\nHund;dog, hound\r\n", [("Hund", "dog, hound")]),
    (b"SEP=,\nHund;der,dog\n", [("Hund;der", "dog")]),
    (b"sep=\t\nHund\tdog\n", [("Hund", "dog")]),
])
def test_a_csv_files_first_line_stating_its_delimiter_as_excel_reads_one_is_followed(tmp_path, data, terms):
    """A file written for Excel may state its delimiter in a first line, sep=;, that Excel reads and never
    shows: it was read as a term, and the glossary stopped with "terms.csv:1: empty target term (beside
    'sep=')"."""
    glossary = read_glossary(write(tmp_path, data), "en", "de")
    assert list(glossary.terms) == terms
    assert glossary.place(terms[0][0]) == f"{tmp_path / 'terms.csv'}:{2 if b'source' not in data else 3}"


def test_a_delimiter_stated_that_a_glossary_cannot_have_is_named(tmp_path):
    with pytest.raises(DataError, match=r"terms.csv:1: the file states its delimiter is '\|' \(sep=\|\), and a "
                                        r"glossary's is a comma, a semicolon or a tab"):
        read_glossary(write(tmp_path, b"sep=|\nHund|dog\n"))


@pytest.mark.parametrize(("name", "encoding", "data"), [
    ("terms.txt", "utf-16", "Hund\tdog\r\nKatze\tcat\r\n"),  # Excel's "Unicode Text": little-endian
    ("terms.tsv", "utf-16-be", "\ufeffHund\tdog\nKatze\tcat"),
    ("terms.csv", "utf-16", "Quelle\tZiel\r\nHund\tdog\r\nKatze\tcat\r\n"),  # a German header, skipped
])
def test_a_utf16_glossary_with_a_byte_order_mark_is_read(tmp_path, name, encoding, data):
    path = write(tmp_path, data.encode(encoding), name)
    assert read_glossary(path).terms == (("Hund", "dog"), ("Katze", "cat"))
    assert read_glossary(path).place("Katze") == f"{path}:{len(data.strip().splitlines())}"


@pytest.mark.parametrize("name", ["terms.txt", "terms.tsv"])
def test_a_tsv_files_fields_quoted_as_a_spreadsheet_quotes_them_are_read_without_the_quotes(tmp_path, name):
    """Excel's "Unicode Text" saves a cell holding a quote in quotes, the quote doubled: the term was read
    quotes and all, which no sentence holds, and its target was written so into the translation."""
    data = 'say "hi"\tsag hallo\n"say ""bye"""\t"sag ""tschüss"""\r\n5" screen\tBildschirm\r\n'
    glossary = read_glossary(write(tmp_path, data.encode("utf-16"), name))
    assert glossary.terms == (('say "hi"', "sag hallo"), ('say "bye"', 'sag "tschüss"'), ('5" screen', "Bildschirm"))
    assert glossary.matches('He did say "bye".') == ['sag "tschüss"']


@pytest.mark.parametrize(("data", "terms", "place"), [
    ('"New\nYork"\tNew York\r\ncat\tKatze\r\n', [("New York", "New York"), ("cat", "Katze")], 3),
    ('dog\t"Hund\n\nder"\r\ncat\tKatze\r\n', [("dog", "Hund der"), ("cat", "Katze")], 4),
    ('dog\t"Hund\r\ncat\t"Katze\r\n', [("dog", "Hund"), ("cat", "Katze")], 2),  # no field closes: two rows
])
def test_a_tsv_files_quoted_cell_with_line_breaks_is_one_term(tmp_path, data, terms, place):
    """Excel's "Unicode Text" writes a cell's Alt+Enter as a line break inside the quoted cell: the
    file stopped with "terms.txt:1: expected 'source term<TAB>target term', got 0 TABs in '"New'".
    The break is a space, as in a CSV file's quoted field."""
    with warnings.catch_warnings(record=True) as heard:  # a quote no line closes is a stray one, dropped
        warnings.simplefilter("always")
        glossary = read_glossary(write(tmp_path, data.encode("utf-16"), "terms.txt"))
    assert list(glossary.terms) == terms
    assert glossary.place("cat") == f"{tmp_path / 'terms.txt'}:{place}"
    assert [str(warning.message).split(": ")[0] for warning in heard] == (
        [f"{tmp_path / 'terms.txt'}:1"] if place == 2 else [])


@pytest.mark.parametrize(("data", "shown", "named"), [
    (b"e-mail;E-Mail;x\r\nWi-Fi;WLAN;y\r\n", "e-mail;E-Mail;x", "a semicolon"),  # a third column of notes
    (b"\xef\xbb\xbfWord;Wort;Domain\r\ndog;Hund;animal\r\n", "Word;Wort;Domain", "a semicolon"),
    (b"dog\tHund\tnoun\n", r"dog\\tHund\\tnoun", "a tab"),
])
def test_a_sheet_of_three_columns_is_named_with_the_delimiter_it_has(tmp_path, data, shown, named):
    """No delimiter gives any row 2 or 4 fields: the comma was assumed, and "got 1 in 'e-mail;E-Mail;' (read with
    a comma as the delimiter)" sent the user looking for commas in a file of semicolons.  The one that parts the
    first row into the most fields is named."""
    with pytest.raises(DataError, match=rf"terms.csv:1: expected 2 fields .* got 3 in '{shown}' \(read with {named} "
                                        r"as the delimiter\)$"):
        read_glossary(write(tmp_path, data), "en", "de")


@pytest.mark.parametrize(("data", "name", "languages"), [
    (b"\xef\xbb\xbfSource;Target;Comment\r\naccess point;Zugangspunkt;networking; not \"Access Point\"\r\n"
     b"router;Router;\r\n", "terms.csv", (None, None)),
    (b"English,German,Note,Definition\naccess point,Zugangspunkt,,a device\nrouter,Router,keep,\n", "terms.csv",
     (None, None)),
    (b"source\ttarget\tdefinition\naccess point\tZugangspunkt\ta device\nrouter\tRouter\t\n", "terms.tsv",
     ("en", "de")),
])
def test_a_sheet_whose_header_names_a_comment_column_after_the_terms_is_read_from_the_terms(tmp_path, data, name,
                                                                                            languages):
    """A glossary made by hand heads a third column of notes (``source;target;comment``): the file was refused,
    "expected 2 fields … got 3".  Its first two columns are the terms, a note's delimiter part of the note."""
    path = write(tmp_path, data, name)
    glossary = read_glossary(path, *languages)
    assert glossary.terms == (("access point", "Zugangspunkt"), ("router", "Router"))
    assert glossary.place("router") == f"{path}:3"


@pytest.mark.parametrize(("data", "languages"), [
    (b"source,target,comment,domain\naccess point,Zugangspunkt,WLAN hardware,networking\nrouter,Router,,networking\n",
     (None, None)),
    (b"Comment;Source;Target\nhardware;access point;Zugangspunkt\n;router;Router\n", ("en", "de")),
    (b"source,domain,target\naccess point,networking,Zugangspunkt\nrouter,,Router\n", (None, None)),
    (b"source,target,part of speech,gender\r\naccess point,Zugangspunkt,noun,masc\r\nrouter,Router,noun,masc\r\n",
     ("en", "de")),
])
def test_a_sheet_whose_header_names_the_source_and_target_columns_is_read_from_those(tmp_path, data, languages):
    """``source,target,comment,domain`` was read as DeepL's four fields: "field 3 is 'WLAN hardware', not a language
    code"; ``comment,source,target`` as a row of three fields."""
    path = write(tmp_path, data)
    glossary = read_glossary(path, *languages)
    assert glossary.terms == (("access point", "Zugangspunkt"), ("router", "Router"))
    assert glossary.place("router") == f"{path}:3"


def test_a_row_of_more_fields_than_the_header_names_is_refused_naming_it(tmp_path):
    """A comma in an unquoted cell would move the terms or cut one ("New York, NY"): the row stops, not read as
    other terms."""
    path = write(tmp_path, b"comment,source,target\ncity, east coast,New York,New York\n")
    with pytest.raises(DataError, match=r"^\S*terms.csv:2: 4 fields, and the header \(\S*terms.csv:1\) names 3 columns "
                                        r"\(comment, source, target\): give the row one cell a column"):
        read_glossary(path)
    path = write(tmp_path, b"source,target,comment,domain\nNew York, NY,New York,city,geo\n")
    with pytest.raises(DataError, match=r"terms.csv:2: 5 fields, and the header \(\S*terms.csv:1\) names 4 columns "
                                        r"\(source, target, comment, domain\)"):
        read_glossary(path)


@pytest.mark.parametrize(("data", "name", "message"), [
    (b"Hund;dog\nKatze\n", "terms.csv", r"terms.csv:2: expected 2 fields \(source;target\) or 4 \(source;target;"
                                       r"source language;target language\), got 1 in 'Katze' \(read with a "
                                       r"semicolon as the delimiter\); a term to keep as it is \(do not "
                                       r"translate\) is its own target: Katze;Katze$"),
    (b"Hund\tdog\nKatze\tcat\tde\n", "terms.csv", r"terms.csv:2: expected 2 fields \(source<TAB>target\) .* got 3 "
                                                 r"in 'Katze\\tcat\\tde' \(read with a tab as the delimiter\)$"),
    (b'Hund;dog\n"Katze"x;cat\n', "terms.csv", r"terms.csv:2: not valid CSV: .* \(read with a semicolon as the "
                                              r"delimiter\)$"),
    ("a\tb\nc\td".encode("utf-16-le").join([b"\xff\xfe", b"\x00\xd8"]), "terms.txt",
     r"terms.txt:2: invalid UTF-16 \(unexpected end of data\)"),
    ("a\tb\n".encode("utf-32"), "terms.txt", r"terms.txt: the text is UTF-32, not UTF-8"),
    (gzip.compress(b"a\tb\n", mtime=0), "terms.tsv",
     r"terms.tsv: the file is gzip-compressed but its name does not end in \.gz: rename it terms.tsv.gz"),
])
def test_a_csv_or_tsv_file_that_does_not_read_names_the_delimiter_or_encoding(tmp_path, data, name, message):
    with pytest.raises(DataError, match=message):
        read_glossary(write(tmp_path, data, name))


@pytest.mark.parametrize(("data", "message"), [
    (b"dog,Hund\ncat\n", r"terms.csv:2: expected 2 fields \(source,target\) or 4 \(source,target,source language,"
                         r"target language\), got 1 in 'cat'"),
    (b"dog,Hund,en\n", r"terms.csv:1: expected 2 fields .* got 3"),
    (b'dog,"Hund"x\n', r"terms.csv:1: not valid CSV: ',' expected after '\"'"),
    (b'dog,Hund\ncat,"Katze\n', r"terms.csv:2: not valid CSV: unexpected end of data"),
    (b"dog,Hund,de,en\n", r"terms.csv:1: the terms are de -> en, and the translation is en -> de"),
    (b"dog,Hund,fr,de\ncat,Katze,de,en\n", r"terms.csv:1: the terms are fr -> de, and the translation is en -> de"),
    (b"de,en\ndog,Hund\n", r"terms.csv:1: the header names the columns de -> en, and the terms are wanted en -> de: "
                           r"swap the columns"),
    (b",Hund\n", r"terms.csv:1: empty source term"),
    ("dog,Hund\ndog,Köter\n".encode(),
     r"terms.csv:2: source term 'dog' has two target terms, 'Hund' \(.*terms.csv:1\) and"),
    (b"dog,Hund\n\xff,x\n", r"terms.csv:2"),
])
def test_a_malformed_csv_file_is_one_line_naming_file_and_line(tmp_path, data, message):
    with pytest.raises(DataError, match=message):
        read_glossary(write(tmp_path, data), "en", "de")


def test_a_term_in_a_csv_and_a_tsv_file_given_two_targets_names_both_places(tmp_path):
    tsv = write(tmp_path, b"dog\tHund\n", "terms.tsv")
    csv = write(tmp_path, b"cat,Katze\ndog,K\xc3\xb6ter\n")
    with pytest.raises(DataError) as refused:
        read_glossaries([tsv, csv])
    assert str(refused.value) == f"{csv}:2: source term 'dog' has two target terms, 'Hund' ({tsv}:1) and 'Köter'"


def test_a_gzipped_csv_file_is_csv(tmp_path):
    path = write(tmp_path, gzip.compress(b'"a, b",c\n'), "terms.CSV.gz")
    assert read_glossary(path).terms == (("a, b", "c"),)


@pytest.mark.parametrize(("data", "name", "languages"), [
    (b"en,fr\r\ndog,chien\r\npeople,personnes\r\n", "terms.csv", "en -> fr"),
    (b"fr,de\ndog,chien\n", "terms.csv", "fr -> de"),
    (b"EN-GB,fr-FR\ndog,chien\n", "terms.csv", "EN-GB -> fr-FR"),
    (b"# terms\nen\tfr\ndog\tchien\n", "terms.tsv", "en -> fr"),
])
def test_a_header_naming_other_languages_than_those_translated_is_refused(tmp_path, data, name, languages):
    """As DeepL's four fields are: "en,fr" was a term, and "chien" was put into a German translation."""
    line = 2 if name == "terms.tsv" else 1
    with pytest.raises(DataError, match=rf"{name}:{line}: the header names the terms {languages}, and the "
                                        r"translation is en -> de: give a glossary of en -> de terms \(where this "
                                        r"row is a term, put a header such as source,target above it\)"):
        read_glossary(write(tmp_path, data, name), "en", "de")


@pytest.mark.parametrize("name", ["terms.csv", "terms.tsv"])
@pytest.mark.parametrize("first", [("it", "es"), ("to", "zu"), ("fr", "it")])
def test_a_first_row_of_two_codes_neither_the_language_translated_is_a_term(tmp_path, name, first):
    """English "it" is German "es", and "to" "zu": two codes of which neither is the language translated at
    its place name no other pair of languages; they were refused as a header of other languages."""
    between = "," if name == "terms.csv" else "\t"
    path = write(tmp_path, f"{between.join(first)}\ndog{between}Hund\n".encode(), name)
    assert read_glossary(path, "en", "de").terms == (first, ("dog", "Hund"))


@pytest.mark.parametrize(("data", "message"), [
    (b"dog,Hund,,x\r\n", r"terms.csv:1: field 3 is empty: expected 2 fields \(source,target\) or DeepL's 4 "
                         r"\(source,target,source language,target language\)$"),
    (b"Word,Wort,part of speech,gender\r\ndog,Hund,noun,masc\r\n",
     r"terms.csv:1: field 3 is 'part of speech', not a language code: expected 2 fields \(source,target\) or "),
    (b"dog,Hund,en,de\ncat,Katze,en,\n", r"terms.csv:2: field 4 is empty: expected 2 fields"),
    (b"dog;Hund;en;m\n", r"terms.csv:1: field 4 is 'm', not a language code: expected 2 fields \(source;target\) "
                         r"or DeepL's 4 \(source;target;source language;target language\)$"),
])
@pytest.mark.parametrize("languages", [("en", "de"), (None, None)])
def test_a_four_column_sheet_that_is_not_deepls_names_the_field_that_is_no_language(tmp_path, data, message,
                                                                                      languages):
    """Its third and fourth columns were read as languages: "the terms are noun -> masc", " -> "."""
    with pytest.raises(DataError, match=message):
        read_glossary(write(tmp_path, data), *languages)


DOG_CAT = (("dog", "Hund"), ("cat", "Katze"))


@pytest.mark.parametrize(("data", "name", "terms"), [
    (b"dog,Hund,,\r\ncat,Katze,\r\n", "terms.csv", DOG_CAT),
    (b"e-mail;E-Mail;\r\nWi-Fi;WLAN;\r\n", "terms.csv", (("e-mail", "E-Mail"), ("Wi-Fi", "WLAN"))),  # Excel's
    (b"dog;Hund;;\ncat;Katze;\n", "terms.csv", DOG_CAT),
    (b"dog\tHund\t\ncat\tKatze\t\t \n", "terms.tsv", DOG_CAT)])
def test_empty_fields_after_the_second_are_a_sheets_empty_columns(tmp_path, data, name, terms):
    """A sheet saved with empty columns after its two (Excel keeps a column once used) was refused: "got 2 TABs in
    'dog\\tHund\\t'", "field 3 is empty"; they hold nothing, and are skipped."""
    assert read_glossary(write(tmp_path, data, name), "en", "de").terms == terms


def test_a_row_of_one_term_and_empty_fields_still_names_its_empty_target(tmp_path):
    with pytest.raises(DataError, match=r"terms\.tsv:1: .*empty"):
        read_glossary(write(tmp_path, b"dog\t\t\n", "terms.tsv"), "en", "de")


def zip_file(tmp_path, name):
    path = tmp_path / name
    with zipfile.ZipFile(path, "w") as archive:  # what an .xlsx, .ods or .docx file is
        archive.writestr("[Content_Types].xml", "<Types/>")
    return path


@pytest.mark.parametrize("name", ["terms.xlsx", "terms.ods", "terms.csv", "terms.tsv"])
def test_a_spreadsheet_is_refused_asking_for_csv(tmp_path, name):
    """An .xlsx file was read as TSV: "invalid UTF-8 (byte 0xfb); convert ... iconv"."""
    path = zip_file(tmp_path, name)
    with pytest.raises(DataError, match=rf"^{path}: a zip archive \(as an .xlsx, .ods or .docx file is\), not a "
                                        r"text glossary: save the sheet as CSV \(UTF-8\)"):
        read_glossary(path, "en", "de")


def test_an_excel_97_file_is_refused_asking_for_csv(tmp_path):
    path = write(tmp_path, b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504), "terms.xls")
    with pytest.raises(DataError, match=r"terms.xls: an Office 97-2003 file \(.xls, .doc\), not a text glossary"):
        read_glossary(path, "en", "de")


@pytest.mark.parametrize(("data", "kind"), [(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n", "a PDF document"),
                                          (b"{\\rtf1\\ansi\\deff0 {\\fonttbl}dog\\tab Hund\\par}", "an RTF document")])
def test_a_document_is_refused_asking_for_its_terms_as_text(tmp_path, data, kind):
    """A glossary sent as a PDF or saved from Word as RTF was read as TSV: "got 0 TABs in '%PDF-1.7'"."""
    path = write(tmp_path, data, "glossary.pdf" if b"PDF" in data else "glossary.rtf")
    with pytest.raises(DataError, match=rf"^{path}: {kind}, not a text glossary: copy the terms into a CSV or TSV "
                                        r"file \(source term<TAB>target term a line\)$"):
        read_glossary(path, "en", "de")


@pytest.mark.parametrize("database", [b"Standard Jet DB", b"Standard ACE DB"])
def test_a_multiterm_termbase_file_is_refused_asking_for_tbx(tmp_path, database):
    """MultiTerm's own .sdltb, an Access database, was read as TSV: "invalid UTF-8 (byte 0x80) … iconv"."""
    path = write(tmp_path, b"\x00\x01\x00\x00" + database + b"\x00" + bytes(range(256)), "terms.sdltb")
    with pytest.raises(DataError, match=rf"^{path}: a MultiTerm termbase \(.sdltb\) or another Access database, not "
                                        r"a text glossary: export the termbase as TBX, or the terms as CSV$"):
        read_glossary(path, "en", "de")


@pytest.mark.parametrize(("data", "name"), [
    (b"dog\tHund\rpeople\tPersonen\r", "terms.tsv"),
    (b"dog,Hund\rpeople,Personen\r", "terms.csv"),  # as Excel's "CSV (Macintosh)" saves a sheet
    (b"dog;Hund\r\rpeople;Personen", "terms.csv"),
    ("\ufeffdog\tHund\rpeople\tPersonen\r".encode("utf-16-le"), "terms.txt"),
])
def test_lines_ending_in_cr_alone_are_lines(tmp_path, data, name):
    """They were one line: "got 2 TABs in 'dog\\tHund\\rpeople\\tPersonen'", and for CSV Python's
    "do you need to open the file in universal-newline mode?"."""
    path = write(tmp_path, data, name)
    glossary = read_glossary(path, "en", "de")
    assert glossary.terms == (("dog", "Hund"), ("people", "Personen"))
    assert glossary.place("people") == f"{path}:{3 if b';' in data else 2}"


@pytest.mark.parametrize(("data", "term"), [
    (b'source,target\r"red\nwine",Rotwein\rdog,Hund\r', "red wine"),  # "CSV (Macintosh)": Alt+Enter is an LF
    (b'source,target\r"red\r\nwine",Rotwein\rdog,Hund\r', "red wine"),
    (b'source,target\r"red\n""vin""\nwine",Rotwein\rdog,Hund', 'red "vin" wine'),  # doubled quotes, two breaks
])
def test_a_line_break_in_a_quoted_field_of_a_cr_ended_file_is_a_space(tmp_path, data, term):
    """The LF made the file two lines, and its CRs were then "a line break (CR) inside an unquoted
    field": an LF in a quoted field is a cell's line break, and the CRs still end the rows."""
    path = write(tmp_path, data)
    glossary = read_glossary(path, "en", "de")
    assert glossary.terms == ((term, "Rotwein"), ("dog", "Hund"))
    assert glossary.place(term) == f"{path}:2" and glossary.place("dog") == f"{path}:3"


@pytest.mark.parametrize("delimiter", [b",", b";"])
def test_an_inch_mark_in_an_unquoted_field_of_a_cr_ended_file_opens_no_quoted_field(tmp_path, delimiter):
    """The inch mark was counted as a quote, so the LF in "Katze<LF>Kater" seemed outside one, and the
    file was "terms.csv:1: ... a line break (CR) inside an unquoted field" (its CRLF copy loaded)."""
    data = b'source,target\rscreen 5",Bildschirm\rcat,"Katze\nKater"\rdog,Hund\r'.replace(b",", delimiter)
    path = write(tmp_path, data)
    glossary = read_glossary(path, "en", "de")
    assert glossary.terms == (('screen 5"', "Bildschirm"), ("cat", "Katze Kater"), ("dog", "Hund"))
    assert glossary.place("dog") == f"{path}:4"


def test_a_cr_in_a_file_whose_rows_end_in_lf_outside_quotes_is_named(tmp_path):
    path = write(tmp_path, b'dog,"Hund\nBello"\npeople,Personen\rcat,Katze\n')
    with pytest.raises(DataError, match=r"terms.csv:3: not valid CSV: a line break \(CR\) inside an unquoted field"):
        read_glossary(path, "en", "de")


@pytest.mark.parametrize("delimiter", [b",", b";"])
def test_a_cr_at_the_end_of_a_quoted_cell_of_a_file_whose_rows_end_in_lf_stays_in_the_cell(tmp_path, delimiter):
    """Read with the other delimiter, the quote after the CR seemed to open a field, so every LF seemed
    quoted and the file was split at its CR: "a line break (CR) inside an unquoted field"."""
    path = write(tmp_path, b'dog,"Hund\r"\ncat,Katze\n'.replace(b",", delimiter))
    assert read_glossary(path, "en", "de").terms == (("dog", "Hund"), ("cat", "Katze"))


def test_a_cr_inside_a_csv_files_line_is_named(tmp_path):
    path = write(tmp_path, b"dog,Hund\r\npeople,Personen\rcat,Katze\r\n")
    with pytest.raises(DataError, match=r"terms.csv:2: not valid CSV: a line break \(CR\) inside an unquoted field: "
                                        r"save the file with LF or CRLF line ends \(read with a comma"):
        read_glossary(path, "en", "de")


@pytest.mark.parametrize("languages, message", [
    ((3, "de"), r"^source_lang: expected a language code such as 'en', 'de' or 'pt-BR' \(or None: not known\), got 3$"),
    (("en", "German"), r"^target_lang: expected a language code .* got 'German'$")])
def test_a_language_that_is_no_code_is_named_before_any_file_is_read(tmp_path, languages, message):
    """3 was an AttributeError ('int' object has no attribute 'strip') in a termbase's sections, and
    "German" was read as a code that no entry's language matched."""
    with pytest.raises(ConfigError, match=message):
        read_glossary(tmp_path / "missing.tbx", *languages)


def test_one_path_given_for_several_is_named():
    """A str was read a character a file: "cannot read /: is a directory"."""
    with pytest.raises(ConfigError, match=r"^read_glossaries: expected a list of glossary files, got '/t/a\.tsv'; "
                                          r"pass \[path\] for one$"):
        read_glossaries("/t/a.tsv")


def test_a_tsv_glossary_of_one_long_line_without_tabs_is_named_in_one_short_line(tmp_path):
    """A JSON glossary saved as terms.tsv, one line of 60,000 characters: its error line was as long."""
    path = tmp_path / "terms.tsv"
    path.write_text("{" + ", ".join(f'"word{i}": "Wort{i}"' for i in range(3000)) + "}\n", encoding="utf-8")
    with pytest.raises(DataError) as refused:
        read_glossary(path)
    message = str(refused.value)
    assert message.startswith(f"{path}:1: expected 'source term<TAB>target term', got 0 TABs in '{{\"word0\": ")
    assert message.endswith(" characters); it reads as JSON: name the file .json, or give the terms as TSV (source "
                            "term<TAB>target term a line)") and len(message) < len(str(path)) + 300


@pytest.mark.parametrize(("header", "languages"), [
    ("Term [en],Term [de]", ("en", "de")),  # Crowdin's export
    ("Term [en-US],Term [de-DE]", ("en", "de")),
    ("Term [en],Term [de]", (None, None)),
    ("English_United_States;German", ("en", "de")),  # memoQ's export, its language and region
    ("English_United_Kingdom;German_Germany", (None, None)),
    ("Englisch_Vereinigte_Staaten;Deutsch_Deutschland", ("en", "de-DE")),
])
def test_a_header_naming_the_languages_as_a_tools_export_does_is_a_header(tmp_path, header, languages):
    """Crowdin heads a term's column "Term [en]", memoQ "English_United_States": the header was read as a term, and
    one naming the columns the wrong way round let every term's target be a source."""
    path = write(tmp_path, f"\ufeff{header}\r\ncat;Katze\r\n".replace(";", "," if "," in header else ";").encode())
    assert read_glossary(path, *languages).terms == (("cat", "Katze"),)


@pytest.mark.parametrize(("header", "named"), [("Term [de],Term [en]", "Term \\[de\\] -> Term \\[en\\]"),
                                               ("German_Germany,English_United_States",
                                                "German_Germany -> English_United_States")])
def test_a_tools_header_naming_the_languages_swapped_is_refused(tmp_path, header, named):
    path = write(tmp_path, f"{header}\nHund,dog\n".encode())
    with pytest.raises(DataError, match=rf"terms.csv:1: the header names the columns {named}, and the terms are "
                                        "wanted en -> de: swap the columns"):
        read_glossary(path, "en", "de")


@pytest.mark.parametrize(("header", "languages"), [
    ("en-US,en-GB", ("en-US", "en-GB")), ("en_us,EN-gb", ("en-US", "en-GB")), ("pt-PT;pt-BR", ("pt-PT", "pt-BR")),
    ("pt-PT;pt-BR", (None, None)), ("sr-Cyrl;sr-Latn", ("sr-Cyrl", "sr-Latn")), ("pt-PT;pt-BR", ("pt", "pt-BR")),
])
def test_a_header_naming_two_varieties_of_one_language_is_a_header(tmp_path, header, languages):
    """A glossary between two varieties of one language (American to British spelling, European to Brazilian
    Portuguese): its header, naming both, was read as a term ("en-US" -> "en-GB"), as two codes of one language
    are where they are the same ("es,es")."""
    path = write(tmp_path, f"{header}\ncolor,colour\n".replace(",", ";" if ";" in header else ",").encode())
    assert read_glossary(path, *languages).terms == (("color", "colour"),)


def test_a_header_naming_two_varieties_swapped_is_refused(tmp_path):
    path = write(tmp_path, b"en-GB,en-US\ncolour,color\n")
    with pytest.raises(DataError, match=r"terms.csv:1: the header names the columns en-GB -> en-US, and the terms "
                                        "are wanted en-US -> en-GB: swap the columns"):
        read_glossary(path, "en-US", "en-GB")


@pytest.mark.parametrize(("data", "terms"), [
    (b"Hund, der;dog\r\nKatze, die;cat\r\n", [("Hund, der", "dog"), ("Katze, die", "cat")]),
    (b"dog;Hund, der\ncat, kitty;Katze\n", [("dog", "Hund, der"), ("cat, kitty", "Katze")]),
    (b"New York, NY\tNew York\nParis, TX\tParis\n", [("New York, NY", "New York"), ("Paris, TX", "Paris")]),
    (b"a;b,c\nx;y,z\n", [("a;b", "c"), ("x;y", "z")]),  # two that read as far, neither spaced: the comma
])
def test_a_semicolon_file_whose_every_row_holds_a_comma_in_a_term_is_read_with_semicolons(tmp_path, data, terms):
    """A German sheet of nouns with their articles ("Hund, der"), saved by Excel with semicolons: every row read as
    far with commas, and the comma won, so "Hund" was given the target " der;dog".  Of two delimiters that read
    as far, one a row has a space after (a comma between words, which no spreadsheet writes after its delimiter)
    is the other's term."""
    assert list(read_glossary(write(tmp_path, data)).terms) == terms


MEMOQ = ("Entry_ID;Entry_Subject;English_United_States;English_United_States_Def;German;German_Def\r\n"
         "1;Pets;dog;A pet, barks;Hund;Ein Haustier\r\n"
         "2;Pets;cat;;;\r\n"  # not translated yet
         "3;;e-mail;;E-Mail;\r\n")
# As memoQ orders the columns: a language's fields (its definition, "_Def") before its term's ("Term_Info")
MEMOQ_DEFINED_FIRST = ("Entry_ID;Entry_Subject;English_United_States_Def;English_United_States;Term_Info;Term_Example;"
                       "German_Def;German;Term_Info;Term_Example\r\n"
                       "1;Pets;A pet, barks;dog;;;Ein Haustier;Hund;;\r\n"
                       "2;Pets;;cat;;;;;;\r\n"
                       "3;;;e-mail;;;;E-Mail;;\r\n")


@pytest.mark.parametrize(("data", "name", "columns"), [
    (MEMOQ.encode(), "terms.csv", "English_United_States and the German"),  # memoQ's CSV export
    (MEMOQ.replace(";", "\t").encode("utf-16"), "terms.txt",  # its tab-delimited one, as Excel's "Unicode Text"
     "English_United_States and the German"),
    (MEMOQ_DEFINED_FIRST.encode(), "terms.csv", "English_United_States and the German"),
    (b"Term [en],Description [en],Term [de],Description [de]\n"  # Crowdin's
     b'dog,"A pet, barks",Hund,Ein Haustier\ncat,A pet,,\ne-mail,,E-Mail,\n', "terms.csv",
     "Term [en] and the Term [de]"),
])
def test_a_termbase_exported_as_a_sheet_is_read_from_its_language_columns(tmp_path, data, name, columns):
    """A termbase exported as a sheet heads each term's column with its language among the other fields' columns:
    it was refused, "expected 2 fields … got 6".  Its source and target columns are read, and a row without a term
    in both (an entry not translated yet) is skipped, counted in one warning naming the first."""
    path = write(tmp_path, data, name)
    with pytest.warns(AttnmtWarning) as heard:
        glossary = read_glossary(path, "en", "de")
    assert glossary.terms == (("dog", "Hund"), ("e-mail", "E-Mail"))
    assert glossary.place("e-mail") == f"{path}:4"
    assert [str(warning.message) for warning in heard] == [
        f"{path}: 1 of 3 rows skipped, without a term in both the {columns} column (the first: {path}:3)"]


def test_a_term_base_exported_with_a_term_column_beside_its_language_columns_is_read_from_these(tmp_path):
    """Phrase's term base CSV heads its columns "term" (the entry's name), "description", "case sensitive",
    "translatable" and a locale code each: "term" named a source column, so no language columns were looked for,
    and the file was refused, "expected 2 fields … got 6".  A column named a target (``source;target;notes``) still
    says the file has two."""
    path = write(tmp_path, b"term,description,case sensitive,translatable,en,de\r\n"
                           b"browser,a program,false,true,browser,Browser\r\ncat,a pet,false,true,cat,\r\n")
    with pytest.warns(AttnmtWarning, match=r"1 of 2 rows skipped, without a term in both the en and the de column"):
        assert read_glossary(path, "en", "de").terms == (("browser", "Browser"),)
    with pytest.raises(DataError, match=r"terms.csv:1: expected 2 fields"):
        read_glossary(write(tmp_path, b"source,target,en\r\ndog,Hund,dog\r\n"), "en", "de")


def test_a_term_base_sheets_row_marked_forbidden_is_skipped_not_forced(tmp_path):
    """A term base exported with a column marking its forbidden terms (Lokalise's ``forbidden``, 1 or 0): read from
    its language columns, the forbidden term was forced into the translation it must not be in."""
    path = write(tmp_path, b"term;description;casesensitive;translatable;forbidden;tags;en;de\n"
                           b"browser;;0;1;0;;browser;Browser\nwebsite;;0;1;1;;website;Webseite\n")
    with pytest.warns(AttnmtWarning) as heard:
        assert read_glossary(path, "en", "de").terms == (("browser", "Browser"),)
    assert [str(warning.message) for warning in heard] == [
        f"{path}: 1 of 2 rows skipped, their terms marked forbidden in the forbidden column (the first: {path}:3)"]


@pytest.mark.parametrize(("data", "column"), [
    (b"en;en_definition;de;de_definition;de_forbidden\nswitch;;Weiche;;TRUE\nswitch;;Switch;;\n"  # a language's flag
     b"router;a device;Router;ein Ger\xc3\xa4t;FALSE\n", "de_forbidden"),
    (b"Term [en],Status [en],Term [de],Status [de]\nswitch,obsolete,Weiche,not recommended\n"  # Crowdin's status
     b"switch,preferred,Switch,preferred\nrouter,,Router,\n", "Status [de]"),
    (b"English_United_States;German;German_Forbidden\nswitch;Weiche;1\nswitch;Switch;0\nrouter;Router;\n",
     "German_Forbidden"),
], ids=["code_field", "field [code]", "Name_Field"])
def test_a_term_base_sheets_target_term_its_languages_column_marks_not_to_use_is_skipped(tmp_path, data, column):
    """A column of the target language's field marking its term not to use ("de_forbidden" TRUE, Crowdin's "Status
    [de]" "not recommended") was read as no column: the forbidden "Weiche" was forced into translations, or stopped
    the file as a second target of "switch".  A source term's own mark says nothing: it is recognised all the same."""
    path = write(tmp_path, data)
    with pytest.warns(AttnmtWarning) as heard:
        assert read_glossary(path, "en", "de").terms == (("switch", "Switch"), ("router", "Router"))
    assert [str(warning.message) for warning in heard] == [
        f"{path}: 1 of 3 rows skipped, their terms marked forbidden in the {column} column (the first: {path}:2)"]


def test_a_term_base_sheets_second_source_term_of_an_entry_is_a_source_term_of_its_target_too(tmp_path):
    """memoQ repeats a language's term columns for an entry's second term ("e-mail", "email"): the first column
    alone was read, and a text writing "email" was given no "E-Mail"."""
    path = write(tmp_path, b"Entry_ID;English;Term_Info;English;Term_Info;German;Term_Info;German;Term_Info\r\n"
                           b"1;e-mail;;email;;E-Mail;;Mail;\r\n2;router;;;;Router;;;\r\n")
    assert read_glossary(path, "en", "de").terms == (("e-mail", "E-Mail"), ("email", "E-Mail"), ("router", "Router"))


def test_a_term_base_sheets_terms_marked_case_sensitive_are_read_and_counted_in_one_warning(tmp_path):
    """Phrase's "case sensitive" column (true for "Word", the program) said nothing: "word" in a text was given
    "Word" silently.  A glossary matches a term in any case, so such rows are counted in one warning saying how to
    give a term's other case its own target."""
    path = write(tmp_path, b"term,case sensitive,translatable,en,de\r\nWord,true,false,Word,Word\r\n"
                           b"browser,false,true,browser,Browser\r\n")
    with pytest.warns(AttnmtWarning) as heard:
        assert read_glossary(path, "en", "de").terms == (("Word", "Word"), ("browser", "Browser"))
    assert [str(warning.message) for warning in heard] == [
        f"{path}: 1 of 2 rows mark their terms case sensitive in the case sensitive column (the first: {path}:2), "
        "and a term is matched in any case (an acronym in capitals alone): give its other cases targets of their "
        "own (word,Wort beside Word,Word)"]


def test_a_term_base_sheets_term_marked_not_translatable_is_its_own_target(tmp_path):
    """Phrase's and Lokalise's "translatable" column false: the term stays as it is ("PNG", "Acme"), and its target
    cell is left empty, so the row was skipped as one not translated yet, and the model translated the term."""
    path = write(tmp_path, b"term,description,translatable,en,de\r\nPNG,,false,PNG,\r\n"
                           b"browser,,true,browser,Browser\r\nAcme,a name,0,Acme,\r\ncat,,true,cat,\r\n")
    with pytest.warns(AttnmtWarning, match=r"1 of 4 rows skipped, without a term in both the en and the de column "
                                           r"\(the first: .*terms.csv:5\)"):
        assert read_glossary(path, "en", "de").terms == (("PNG", "PNG"), ("browser", "Browser"), ("Acme", "Acme"))


@pytest.mark.parametrize(("data", "languages"), [
    (MEMOQ.encode(), (None, None)),  # which columns are the terms nothing says
    (MEMOQ.encode(), ("en", "fr")),  # no column of the target language
])
def test_a_sheet_of_language_columns_without_those_translated_is_refused_as_before(tmp_path, data, languages):
    with pytest.raises(DataError, match=r"terms.csv:1: expected 2 fields"):
        read_glossary(write(tmp_path, data), *languages)


def test_a_sheet_of_two_varieties_columns_is_read_from_each_ones_own(tmp_path):
    """Both columns name English: the first was taken as the source, whichever variety it was."""
    path = write(tmp_path, b"en-GB;en-US;Note\ncolour;color;spelling\n")
    assert read_glossary(path, "en-US", "en-GB").terms == (("color", "colour"),)


def test_a_column_naming_a_language_by_its_name_comes_before_a_code_of_its_form(tmp_path):
    """"ID" numbers the rows, and is Indonesian's code too: translating Indonesian, the numbers were its terms."""
    path = write(tmp_path, b"ID;English;Indonesian\n1;dog;anjing\n")
    assert read_glossary(path, "id", "en").terms == (("anjing", "dog"),)


@pytest.mark.parametrize("name", ["terms.csv", "terms.tsv"])
def test_a_windows_1252_sheet_is_refused_saying_how_to_save_it_from_excel(tmp_path, name):
    """Excel's "CSV (Comma delimited)" writes Windows-1252: "München" was refused with "invalid UTF-8
    (byte 0xfc); convert the file to UTF-8, e.g. with iconv", which says nothing to a user of Excel."""
    path = write(tmp_path, "dog,Hund\nMünchen,Munich\n".replace(",", "," if name.endswith("csv") else "\t")
                 .encode("cp1252"), name)
    with pytest.raises(DataError, match=rf"{name}:2: invalid UTF-8 \(byte 0xfc\).*iconv.*Excel.*\"CSV UTF-8"):
        read_glossary(path, "en", "de")


@pytest.mark.parametrize(("name", "data"), [
    ("terms.csv", "dog,Hund\ncat,\nbird,Vogel\nmouse, \n"), ("terms.tsv", "dog\tHund\ncat\t\nbird\tVogel\nmouse\t \n"),
    ("terms.csv", "dog,Hund,en,de\ncat,,en,de\nbird,Vogel,en,de\nmouse,,en,de\n"),
])
def test_a_row_without_a_target_term_is_skipped_with_one_warning(tmp_path, name, data):
    """A sheet's row not translated yet (``cat,``) stopped the whole file, "empty target term (beside 'cat')",
    where a TBX entry without a target term is skipped with a warning."""
    path = write(tmp_path, data.encode(), name)
    with pytest.warns(AttnmtWarning) as heard:
        glossary = read_glossary(path, "en", "de")
    assert glossary.terms == (("dog", "Hund"), ("bird", "Vogel"))
    assert [str(w.message) for w in heard] == [f"{path}: 2 of 4 rows skipped, without a target term (the first: "
                                               f"{path}:2)"]


@pytest.mark.parametrize("name", ["terms.csv", "terms.tsv"])
def test_a_row_without_a_source_term_is_skipped_with_one_warning(tmp_path, name):
    """A sheet of terms some of which are in the target language alone (``,Hund``) stopped the whole file, "empty
    source term (beside 'Hund')", where a TBX entry without a source term is skipped with a warning."""
    path = write(tmp_path, ",Hund\ncat,Katze\nbird,\n".replace(",", "," if name.endswith("csv") else "\t").encode(),
                 name)
    with pytest.warns(AttnmtWarning) as heard:
        assert read_glossary(path, "en", "de").terms == (("cat", "Katze"),)
    assert [str(w.message) for w in heard] == [
        f"{path}: 1 of 3 rows skipped, without a target term (the first: {path}:3)",
        f"{path}: 1 of 3 rows skipped, without a source term (the first: {path}:1)"]


@pytest.mark.parametrize("name", ["terms.csv", "terms.tsv"])
def test_a_file_without_any_target_term_is_refused(tmp_path, name):
    """A file of source terms alone (the wrong column exported) is no glossary: it stops naming its first row."""
    path = write(tmp_path, b"dog,\ncat,\n" if name.endswith("csv") else b"dog\t\ncat\t\n", name)
    with pytest.raises(DataError, match=rf"{name}:1: empty target term \(beside 'dog'\), and no row of the file "
                                        "has both terms"):
        read_glossary(path, "en", "de")


@pytest.mark.parametrize(("data", "delimiter"), [(b"dog;Hund\ncat;Katze\n", "';'"), (b"dog,Hund\n", "','")])
def test_a_csv_file_named_as_text_is_refused_saying_to_name_it_csv(tmp_path, data, delimiter):
    """A sheet saved as CSV but named terms.txt was refused with "got 0 TABs in 'dog;Hund'" alone: nothing said
    that a file of commas or semicolons is read as CSV by its name."""
    with pytest.raises(DataError, match=rf"terms.txt:1: expected 'source term<TAB>target term', got 0 TABs in .*; its "
                                        rf"{delimiter} between the terms is a CSV file's: rename it to end in .csv$"):
        read_glossary(write(tmp_path, data, "terms.txt"), "en", "de")


@pytest.mark.parametrize(("data", "name", "kept"), [
    (b"Wi-Fi 6\nBluetooth\nAirDrop\n", "dnt.txt", "Wi-Fi 6<TAB>Wi-Fi 6"),
    (b"Wi-Fi 6\r\nBluetooth\r\n", "dnt.csv", "Wi-Fi 6,Wi-Fi 6"),
])
def test_a_do_not_translate_list_of_one_column_is_refused_saying_how_to_keep_a_term(tmp_path, data, name, kept):
    """A do-not-translate list, a term a line, stopped with "got 0 TABs in 'Wi-Fi 6'" alone: nothing said that a
    term kept as it is is given as its own target.  Such a list is not read as one: a list of source terms whose
    targets were left out would then be kept untranslated, silently."""
    with pytest.raises(DataError, match=rf"{name}:1: expected .*; a term to keep as it is \(do not translate\) is its "
                                        rf"own target: {kept}$"):
        read_glossary(write(tmp_path, data, name), "en", "de")


GOOGLE_TERM_SETS = b"en,de,fr\naccess point,Zugangspunkt,point d'acc\xc3\xa8s\nrouter,Router,routeur\n"


@pytest.mark.parametrize(("languages", "terms"), [
    (("en", "de"), (("access point", "Zugangspunkt"), ("router", "Router"))),
    (("en-US", "fr"), (("access point", "point d'accès"), ("router", "routeur"))),
])
def test_a_file_of_equivalent_term_sets_is_read_from_the_columns_of_the_languages_translated(tmp_path, languages,
                                                                                            terms):
    """Google Cloud Translation's equivalent term sets head a column per language (``en,de,fr``)."""
    assert read_glossary(write(tmp_path, GOOGLE_TERM_SETS), *languages).terms == terms


@pytest.mark.parametrize(("languages", "message"), [
    ((None, None), "the target language is not known: give it (--target-lang; read_glossary(path, target_lang=...))"),
    (("en", None), "the target language is not known: give it"),
    (("en", "es"), "the terms are wanted en -> es: no column is headed es"),
])
def test_a_file_of_equivalent_term_sets_without_the_languages_translated_is_one_line_asking_for_them(
        tmp_path, languages, message):
    """It was "expected 2 fields … got 3 in 'en,de,fr'", as if the file were a sheet of another shape."""
    with pytest.raises(DataError, match=r"terms.csv:1: the header names the columns of .*en, de, fr.*, and " +
                       re.escape(message)):
        read_glossary(write(tmp_path, GOOGLE_TERM_SETS), *languages)


MEMOQ_TERM_INFO = ("Entry_ID;English_United_States;Term_Info;Term_Example;German_Def;German;Term_Info;Term_Example;"
                   "German;Term_Info;Term_Example\r\n"
                   "1;switch;Forbidden;;;Weiche;Forbidden;;Switch;;\r\n"  # its first German term forbidden
                   "2;router;;;ein Gerät;Router;;;;;\r\n"
                   "3;access point;;;;Access Point;forbidden=1;;;;\r\n"
                   "4;e-mail;;;;E-Mail;Preferred|CaseSensitive;;;;\r\n"
                   "5;inbox;;;;Posteingang;Forbidden: false;;;;\r\n").encode()


def test_a_memoq_sheets_target_term_its_term_info_marks_forbidden_is_never_the_target(tmp_path):
    """memoQ writes each term's flags in the Term_Info column after it: it was not read, and the forbidden "Weiche"
    and "Access Point" were forced into translations.  An entry's next German term is its target; an entry of
    forbidden ones alone is skipped, counted in one warning.  A source term's own flag says nothing."""
    path = write(tmp_path, MEMOQ_TERM_INFO)
    with pytest.warns(AttnmtWarning) as heard:
        glossary = read_glossary(path, "en", "de")
    assert glossary.terms == (("switch", "Switch"), ("router", "Router"), ("e-mail", "E-Mail"),
                              ("inbox", "Posteingang"))
    assert [str(warning.message) for warning in heard] == [
        f"{path}: 1 of 5 rows skipped, their terms marked forbidden in the Term_Info column (the first: {path}:4)"]


@pytest.mark.parametrize(("data", "column"), [
    (b"source,target,status\nswitch,Weiche,forbidden\nswitch,Switch,preferred\nrouter,Router,\n", "status"),
    (b"Source;Target;Forbidden;Comment\nswitch;Weiche;TRUE;old\nswitch;Switch;FALSE;\nrouter;Router;;\n", "Forbidden"),
])
def test_a_sheet_of_named_columns_skips_the_rows_a_column_marks_forbidden(tmp_path, data, column):
    """Read by its named columns, ``source,target,status`` took the forbidden "Weiche" for a term."""
    path = write(tmp_path, data)
    with pytest.warns(AttnmtWarning) as heard:
        assert read_glossary(path, "en", "de").terms == (("switch", "Switch"), ("router", "Router"))
    assert [str(warning.message) for warning in heard] == [
        f"{path}: 1 of 3 rows skipped, their terms marked forbidden in the {column} column (the first: {path}:2)"]


@pytest.mark.parametrize(("name", "text"), [
    ("terms.tsv", '"cat\tKatze\ndog\tHund"\nscreen 24"\tBildschirm 24"\nsay "hi\tsag "hallo"\n'),
    ("terms.csv", 'cat",Katze\ndog,"Hund"""\nscreen 24",Bildschirm 24"\nsay "hi,sag "hallo"\n'),
])
def test_an_unpaired_quote_at_a_terms_edge_is_dropped_with_a_warning_naming_its_line(tmp_path, name, text):
    """A line with a stray quote, as a CSV export leaves one ("cat<TAB>Katze), was the term '"cat', which no sentence
    holds, with no word said; a target term 'Hund"' was forced into the translation quote and all.  An inch's mark
    after a digit (24"), a quote inside a term (say "hi) and a pair of quotes are the term's."""
    path = write(tmp_path, text.encode(), name)
    with pytest.warns(AttnmtWarning) as heard:
        glossary = read_glossary(path)
    assert glossary.terms == (("cat", "Katze"), ("dog", "Hund"), ('screen 24"', 'Bildschirm 24"'),
                              ('say "hi', 'sag "hallo"'))
    given = '"cat' if name == "terms.tsv" else 'cat"'
    assert [str(warning.message) for warning in heard] == [
        f"{path}:1: {given!r} read as 'cat': an unpaired quote at a term's edge, as a CSV export leaves one, is "
        f"dropped (1 more term so in {path})"]
    assert glossary.matches("The cat sleeps.") == ["Katze"]


@pytest.mark.parametrize(("name", "text"), [
    ("terms.csv", "target,source\nHund,dog\nKatze,cat\n"),
    ("terms.csv", "Übersetzung;Quellbegriff\nHund;dog\nKatze;cat\n"),
    ("terms.tsv", "Target Term\tSource Term\nHund\tdog\nKatze\tcat\n"),
])
def test_a_header_naming_the_target_column_first_reads_the_terms_by_its_names(tmp_path, name, text):
    """A sheet headed target,source was the term target -> source, and its rows Hund -> dog: the translation was
    required "dog" wherever the text said "Hund", and never "Hund" for "dog"."""
    path = write(tmp_path, text.encode(), name)
    glossary = read_glossary(path, "en", "de")
    assert glossary.terms == (("dog", "Hund"), ("cat", "Katze"))
    assert glossary.place("cat") == f"{path}:3"
    assert read_glossary(path).terms == glossary.terms


@pytest.mark.parametrize(("name", "text"), [
    ("terms.csv", "target,source,note\nHund,dog,animal\nKatze,cat,a pet, not wild\n"),
    ("terms.csv", "target,source,note\nHund,dog,animal\nKatze,cat,de,en\n"),
    ("terms.tsv", "Ziel\tQuelle\tAnmerkung\nHund\tdog\tTier\nKatze\tcat\tHaustier\tzahm\n"),
])
def test_a_header_naming_the_target_first_and_notes_after_reads_a_longer_row_by_its_names(tmp_path, name, text):
    """Under target,source,note a row cut in four at a comma in its note stopped with "expected 2 fields
    (source,target) or DeepL's 4", the order the header had not, and Katze,cat,de,en was DeepL's Katze -> cat;
    under source,target,note the fields past the header are the note's, as they are now here."""
    path = write(tmp_path, text.encode(), name)
    for languages in ((None, None), ("en", "de")):
        glossary = read_glossary(path, *languages)
        assert glossary.terms == (("dog", "Hund"), ("cat", "Katze")) and glossary.place("cat") == f"{path}:3"


@pytest.mark.parametrize(("text", "fields", "columns"), [
    ("target,source\nHund,dog\nKatze,cat,pet\n", 3, "2 columns \\(target, source\\)"),
    ("target,source\nHund,dog\nKatze,cat,de,en\n", 4, "2 columns \\(target, source\\)"),
    ("target,comment,source\nHund,animal,dog\nKatze,a pet, not wild,cat\n", 4,
     "3 columns \\(target, comment, source\\)"),
])
def test_a_longer_row_under_a_header_naming_the_target_first_is_refused_in_the_headers_words(tmp_path, text, fields,
                                                                                            columns):
    """It said "expected 2 fields (source,target) or 4 (source,target,source language,target language)", or read
    Katze,cat,de,en as DeepL's Katze -> cat, against a header that names the target first."""
    path = write(tmp_path, text.encode())
    with pytest.raises(DataError, match=rf"^\S*terms.csv:3: {fields} fields, and the header \(\S*terms.csv:1\) names "
                                        rf"{columns}: give the row one cell a column \(a cell that holds the delimiter "
                                        r"in quotes\)$"):
        read_glossary(path)


@pytest.mark.parametrize(("name", "text"), [("terms.tsv", '"source\ttarget\ndog\tHund\n'),
                                            ("terms.csv", 'source",target"\ndog,Hund\n')])
def test_a_header_with_an_unpaired_quote_at_a_cells_edge_is_a_header(tmp_path, name, text):
    """"source<TAB>target, the header of a CSV export, was no header but the term '"source': with its stray quote
    dropped, it must not become the term "source" -> "target"."""
    assert read_glossary(write(tmp_path, text.encode(), name)).terms == (("dog", "Hund"),)
