"""attnmt.text.xml_start: a document's root, read as it starts, whatever fault comes after it."""

from __future__ import annotations

import io

from lxml import etree

from attnmt.text.xml_start import PIECE, first_element


def test_the_root_is_found_where_markup_nests_past_libxml2s_depth_after_it():
    head = b'<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><body>'
    root = first_element(head + b"<div>" * 3000 + b"</div>" * 3000 + b"</body></html>")
    assert root is not None
    assert etree.QName(root).localname == "html"
    assert etree.QName(root).namespace == "http://www.w3.org/1999/xhtml"


def test_the_root_is_found_before_a_tag_that_does_not_match():
    root = first_element(b"<martif type='TBX'><text><body></martif>")
    assert root is not None and root.tag == "martif"


def test_a_file_is_read_from_where_it_is():
    file = io.BytesIO(b"junk<tbx/>")
    file.seek(4)
    root = first_element(file)
    assert root is not None and root.tag == "tbx"


def test_a_root_past_the_first_piece_is_still_found():
    comment = b"<!--" + b"x" * (PIECE * 2) + b"-->"
    root = first_element(io.BytesIO(comment + b"<w:document xmlns:w='urn:w'/>"))
    assert root is not None and root.tag == "{urn:w}document"


def test_nothing_that_starts_an_element_gives_none():
    assert first_element(b"") is None
    assert first_element(b"source\ttarget\nHaus\thouse\n") is None
    assert first_element(b"<?xml version='1.0'?>\n<!-- only a comment -->") is None
    assert first_element(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR") is None


def test_the_doctype_is_read_and_its_entities_left_unresolved():
    data = (b'<?xml version="1.0"?>\n<!DOCTYPE html [<!ENTITY who "the world">'
            b'<!ENTITY outside SYSTEM "file:///etc/passwd">]>\n<html><p>&who; &outside;</p></html>')
    root = first_element(data)
    assert root is not None and root.tag == "html"
    dtd = root.getroottree().docinfo.internalDTD
    assert dtd is not None
    assert sorted(entity.name for entity in dtd.entities()) == ["outside", "who"]


def test_a_page_without_a_doctype_has_none():
    root = first_element(b"<html><body><p>Hi</p></body></html>")
    assert root is not None and root.getroottree().docinfo.internalDTD is None
