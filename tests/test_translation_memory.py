"""A TMX translation memory read as sentence pairs: the two languages asked for (or its header's and the other
one), inline codes left out, a unit missing a language counted with its line, and XML read safely."""

import gzip
import re

import pytest
from support import PAIRS, tmx_text

from attnmt.errors import DataError
from attnmt.text.parallel_text import ReadReport
from attnmt.text.translation_memory import stream_tmx

# A CAT tool's export: regions in its codes, a tag of the document as paired codes, a placeholder, a term marked.
CAT_UNITS = [
    {"en-US": 'Click <bpt i="1" x="1">&lt;b&gt;</bpt>Save<ept i="1">&lt;/b&gt;</ept> to keep <hi>your</hi> changes.',
     "de-DE": 'Klicken Sie auf <bpt i="1">&lt;b&gt;</bpt>Speichern<ept i="1">&lt;/b&gt;</ept>, um Ihre Änderungen '
              "zu behalten."},
    {"en-US": 'You have <ph x="1">{0}</ph> new\n      messages.',
     "de-DE": 'Sie haben <ph x="1">{0}</ph> neue Nachrichten.'},
]


def read(path, languages=(None, None)) -> tuple[list[tuple[str, str]], ReadReport]:
    report = ReadReport(0, 0)
    return list(stream_tmx(path, languages, report)), report


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-16-le"])
def test_a_cat_tools_units_are_read_in_the_languages_asked_their_inline_codes_left_out(tmp_path, encoding):
    """en reads en-US; a paired code's tag and a placeholder's field are code, not words, on both sides alike."""
    path = tmp_path / "memory.tmx"
    path.write_bytes(tmx_text(CAT_UNITS, srclang="en-US").replace('"UTF-8"', f'"{encoding.upper()}"').encode(encoding))
    assert read(path, ("en", "de")) == ([
        ("Click Save to keep your changes.", "Klicken Sie auf Speichern, um Ihre Änderungen zu behalten."),
        ("You have new messages.", "Sie haben neue Nachrichten.")], ReadReport(0, 0, languages="en -> de"))


@pytest.mark.parametrize("name", ["en-de.tmx", "en-de.tmx.gz"])
def test_without_languages_the_headers_source_and_the_other_language_are_read(tmp_path, name):
    """As OPUS offers a corpus: en-de.tmx.gz, its header's srclang en, its units of en and de (de first here)."""
    text = tmx_text([{"de": t, "en": s} for s, t in PAIRS[:3]]).encode()
    (tmp_path / name).write_bytes(gzip.compress(text) if name.endswith(".gz") else text)
    assert read(tmp_path / name) == (PAIRS[:3], ReadReport(0, 0, languages="en -> de"))
    assert read(tmp_path / name, ("de", "en"))[0] == [(t, s) for s, t in PAIRS[:3]]


def test_a_unit_missing_a_language_is_counted_with_its_line_not_read(tmp_path):
    units = [{"en": "A dog runs.", "de": "Ein Hund rennt."}, {"en": "A cat sleeps.", "fr": "Un chat dort."},
             {"en": "A bird sings.", "de": ""}, {"en": "A child plays.", "de": "Ein Kind spielt."}]
    path = tmp_path / "memory.tmx"
    path.write_text(tmx_text(units), encoding="utf-8")
    pairs, report = read(path, ("en", "de"))
    assert pairs == [("A dog runs.", "Ein Hund rennt."), ("A child plays.", "Ein Kind spielt.")]
    assert (report.unpaired, report.first_unpaired) == (2, 6)  # line 6: the second <tu>


def test_a_memory_without_a_unit_of_both_languages_is_refused_naming_what_it_holds(tmp_path):
    path = tmp_path / "memory.tmx"
    path.write_text(tmx_text(CAT_UNITS), encoding="utf-8")
    with pytest.raises(DataError, match=rf"^{re.escape(str(path))}:5: no translation unit holds both en and fr "
                                        r"\(this one holds en-US, de-DE\): give the two languages to read as "
                                        "source_lang and target_lang"):
        read(path, ("en", "fr"))


def test_a_memory_of_three_languages_without_a_target_is_refused_in_one_line(tmp_path):
    path = tmp_path / "memory.tmx"
    path.write_text(tmx_text([{"en": "A dog.", "de": "Ein Hund.", "fr": "Un chien."}]), encoding="utf-8")
    with pytest.raises(DataError, match=r"memory.tmx:5: the memory holds en, de, fr, and more than one besides en: "):
        read(path)


def test_an_external_entity_is_refused_never_read(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("the secret", encoding="utf-8")
    doctype = f'<!DOCTYPE tmx [<!ENTITY x SYSTEM "file://{secret}">]>\n'
    path = tmp_path / "memory.tmx"
    path.write_text(tmx_text([{"en": "A &x; dog.", "de": "Ein Hund."}], before_root=doctype), encoding="utf-8")
    with pytest.raises(DataError, match=r"memory.tmx: its DOCTYPE declares the external entity x \(SYSTEM "):
        read(path, ("en", "de"))


def test_a_memory_that_is_no_well_formed_xml_is_named_with_its_line(tmp_path):
    path = tmp_path / "memory.tmx"
    path.write_text(tmx_text([{"en": "A dog.", "de": "Ein Hund."}] * 3).replace("</seg>", "", 2),
                    encoding="utf-8")
    with pytest.raises(DataError, match=r"memory.tmx:5: not well-formed XML: Opening and ending tag mismatch"):
        read(path, ("en", "de"))


def test_an_html_entity_is_named_at_its_line_not_as_an_empty_document(tmp_path):
    """&nbsp; in a segment was "memory.tmx:1: not well-formed XML: Start tag expected, '<' not found"."""
    path = tmp_path / "memory.tmx"
    path.write_text(tmx_text([{"en": "A dog.", "de": "Ein Hund."}, {"en": "A&nbsp;cat.", "de": "Eine Katze."}]),
                    encoding="utf-8")
    with pytest.raises(DataError, match=r"memory.tmx:6: not well-formed XML: Entity 'nbsp' not defined: a memory "
                                        r"knows XML's five entities alone .*: write the character$"):
        read(path, ("en", "de"))


def test_a_memory_in_windows_1252_under_a_utf8_declaration_is_told_to_be_saved_as_utf8(tmp_path):
    path = tmp_path / "memory.tmx"
    path.write_bytes(tmx_text([{"en": "A street.", "de": "Eine Straße."}]).encode("cp1252"))
    with pytest.raises(DataError, match=r"memory.tmx:5: not well-formed XML: .*encoding.*: the file is not in the "
                                        r"encoding its XML declaration names .*: save it as UTF-8$"):
        read(path, ("en", "de"))
