"""XML that is not well-formed (attnmt.documents.well_formed): refused in one line naming the
file, line and column, where libxml2's repair deleted or moved the file's own text; nothing reaches
the model."""

import re

import pytest

from attnmt.documents.files import translate_file_bytes
from attnmt.documents.markup import translate_markup
from attnmt.documents.pipeline import DocumentOptions
from attnmt.errors import DataError

DE = DocumentOptions(target_lang="de")
XLIFF = ('<?xml version="1.0"?>\n<xliff version="1.2"><file source-language="en" target-language="de"><body>\n'
         "{units}</body></file></xliff>\n")


def test_a_bare_ampersand_in_an_xliff_source_is_refused_naming_its_line_and_column(same):
    """It was "repaired" with a warning: the & deleted from the source ("A dog  cat.")."""
    data = XLIFF.format(units='<trans-unit id="1"><source>A dog & cat.</source></trans-unit>').encode()
    with pytest.raises(DataError) as refused:
        translate_file_bytes(data, "bad.xlf", same, DE)
    assert str(refused.value) == ("bad.xlf is not well-formed XML at line 3, column 35: a & that starts no entity "
                                  "reference (write & as &amp;)")
    assert same.given == []


def test_an_element_never_closed_in_an_xliff_unit_is_refused_not_read_around_the_next_unit(same):
    """Unit 2 was nested inside unit 1 in the output: invalid XLIFF."""
    units = ('<trans-unit id="1"><source>A dog <b>runs.</source></trans-unit>\n'
             '<trans-unit id="2"><source>A cat.</source></trans-unit>')
    with pytest.raises(DataError) as refused:
        translate_file_bytes(XLIFF.format(units=units).encode(), "bad.xlf", same, DE)
    assert str(refused.value) == ("bad.xlf is not well-formed XML at line 3, column 51: Opening and ending tag "
                                  "mismatch: b line 3 and source")
    assert same.given == []


def test_a_stray_end_tag_in_an_xml_line_is_refused_naming_the_line(same):
    """The repair dropped " y", the text after it."""
    with pytest.raises(DataError, match=r"^in\.xml, line 2 is not well-formed XML at column 6: the end tag </i> "
                                        r"closes no element$"):
        translate_markup(["<p>A dog.</p>", "x</i> y"], same, xml=True, where="in.xml", unit="line")
    assert same.given == []


UNFINISHED = r"a CDATA section that no \]\]> finishes \(it holds the rest of the text\)$"


@pytest.mark.parametrize(("units", "after", "line", "column"), [
    ('<trans-unit id="1"><source><![CDATA[A dog</source></trans-unit>\n<trans-unit id="2"/>\n', "", 3, 28),
    ('<trans-unit id="1" resname="a > b"><source><!-- <![CDATA[ --><![CDATA[A]]>\n  <![CDATA[dog'
     "</source></trans-unit>\n", "", 4, 3),
    ('<trans-unit id="1"><source>A dog.</source></trans-unit>\n', "<![CDATA[x\n\n", 5, 1)])
def test_a_cdata_section_never_finished_in_or_after_the_root_is_named_where_it_opens(same, units, after, line,
                                                                                     column):
    """libxml2 said "CData section not finished" at the file's end (the section holds the rest of the
    file): line 6 for the first, 7 for the last; a "<![CDATA[" in a comment starts none, and a ">" in an
    attribute's value ends no tag."""
    where = rf"^bad\.xlf is not well-formed XML at line {line}, column {column}: "
    with pytest.raises(DataError, match=where + UNFINISHED):
        translate_file_bytes((XLIFF.format(units=units) + after).encode(), "bad.xlf", same, DE)
    assert same.given == []


def test_a_cdata_section_never_finished_in_an_xml_line_is_named_at_its_column(same):
    with pytest.raises(DataError, match=r"^in\.xml, line 2 is not well-formed XML at column 4: " + UNFINISHED):
        translate_markup(["<p>A dog.</p>", "<p><![CDATA[A cat</p>"], same, xml=True, where="in.xml", unit="line")


def test_an_element_left_open_in_an_xml_document_names_the_line_it_opened_on(same):
    text = '<?xml version="1.0"?>\n<doc>\n<p>A dog runs.</p>\n'
    with pytest.raises(DataError, match=r"^f\.xml is not well-formed XML at line 4, column 1: <doc> \(opened at "
                                        r"line 2\) is never closed$"):
        translate_file_bytes(text.encode(), "f.xml", same, DE)


def test_a_stray_less_than_on_an_xml_declarations_line_counts_its_columns(same):
    with pytest.raises(DataError, match=r"^f\.xml is not well-formed XML at line 1, column 33: a < that starts no "
                                        r"tag \(write < as &lt;\)$"):
        translate_file_bytes(b'<?xml version="1.0"?><doc>If a < b</doc>', "f.xml", same, DE)


def test_an_xhtml_page_that_is_not_well_formed_is_refused_as_an_epubs_page_is(same):
    page = b'<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><body><p>Tom & Jerry</p></body></html>'
    with pytest.raises(DataError, match=r"^page\.xhtml is not well-formed XML at line 2, column 58: a & that "):
        translate_file_bytes(page, "page.xhtml", same, DE)


def test_a_namespace_prefix_nothing_declares_is_kept_with_a_warning(same):
    """No text is lost: the element keeps its name as written."""
    text = '<string>Hello <xliff:g id="n">%s</xliff:g> now.</string>'
    with pytest.warns(UserWarning, match="Namespace prefix xliff on g is not defined"):
        assert translate_markup([text], same, xml=True)[0] == text


def test_html_is_still_repaired_with_a_warning_as_browsers_repair_it(same):
    with pytest.warns(UserWarning, match="markup repaired"):
        assert translate_markup(["A dog & <b>cat"], same)[0] == "A dog &amp; <b>cat</b>"


def test_an_entity_reference_with_no_semicolon_is_refused_in_words_naming_its_line(same):
    """libxml2's own "EntityRef: expecting ';'" came through, where a bare & was said in words."""
    page = b'<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><body>\n<p>Fish &amp chips.</p>'
    with pytest.raises(DataError, match=r"^page\.xhtml is not well-formed XML at line 3, column 13: an entity "
                                        r"reference with no ; to end it \(write & as &amp;, or end it with ;\)$"):
        translate_file_bytes(page + b"</body></html>", "page.xhtml", same, DE)
    assert same.given == []


@pytest.mark.parametrize("name, data", [
    ("page.xhtml", b'<html xmlns="http://www.w3.org/1999/xhtml"><body>\n<p>Fish &nbsp; chips.</p></body></html>'),
    ("f.xml", b"<doc>\n<p>A dog.</p>\n<p>Fish &nbsp; chips.</p></doc>\n"),
])
def test_an_entity_declared_nowhere_in_a_file_with_no_prolog_names_its_line(same, name, data):
    """A file with no XML declaration or DOCTYPE was taken for a text whose lines are not the file's."""
    line = data.decode().count("\n", 0, data.index(b"&nbsp;")) + 1
    with pytest.raises(DataError, match=rf"^{re.escape(name)}, line {line}: the entity &nbsp; is declared"):
        translate_file_bytes(data, name, same, DE)
