"""The one check of the entities an XML input's DOCTYPE declares (attnmt.text.xml_entities)."""

import pytest

from attnmt.errors import DataError
from attnmt.text.xml_entities import check_entities, doctype_dtd


@pytest.mark.parametrize("declaration", ['<!ENTITY ext SYSTEM "file:///etc/passwd">',
                                         '<!ENTITY ext PUBLIC "-//A//B" "file:///etc/passwd">',
                                         '<!ENTITY % ext SYSTEM "file:///etc/passwd">'])
def test_an_external_entity_is_refused_even_where_internal_ones_are_kept(declaration):
    with pytest.raises(DataError, match=r'^a\.xml, line 2: its DOCTYPE declares the external entity ext '
                                        r'\(SYSTEM "file:///etc/passwd"\), which is never read'):
        check_entities(doctype_dtd(f"<!DOCTYPE x [{declaration}]>"), "a.xml, line 2", keeps_internal=True)


def test_an_internal_entity_is_kept_where_the_input_keeps_its_references_and_refused_elsewhere():
    dtd = doctype_dtd('<!DOCTYPE x [<!ENTITY app "Foo Viewer">]>')
    check_entities(dtd, "a.xml", keeps_internal=True)
    with pytest.raises(DataError, match=r"^a\.tbx: its DOCTYPE declares the entity app, and declared entities"):
        check_entities(dtd, "a.tbx", keeps_internal=False)


@pytest.mark.parametrize("doctype", ["<!DOCTYPE TS>", '<!DOCTYPE html SYSTEM "about:legacy-compat">', ""])
def test_a_doctype_declaring_no_entity_has_nothing_to_check(doctype):
    assert doctype_dtd(doctype) is None
