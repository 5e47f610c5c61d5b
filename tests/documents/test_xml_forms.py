"""XML written in the forms its input wrote where nothing changed it (attnmt.documents.xml_forms):
a diff of a translated file shows its translations alone."""

import pytest

from attnmt.documents import pages
from attnmt.documents.files import translate_file_bytes
from attnmt.documents.markup import translate_markup
from attnmt.documents.pipeline import DocumentOptions


def one(text, translator):
    return translate_markup([text], translator, xml=True)[0]


@pytest.mark.parametrize("text, translated", [
    ('<resources>\n    <string name="a">a dog</string>\n    <string name="b"></string>\n</resources>\n',
     "a dog"),
    ('<doc>\n  <p>a dog</p>\n  <note></note>\n  <empty a="1"/>\n  <hr />\n</doc>\n', "a dog"),
])
def test_an_empty_element_keeps_the_form_it_was_written_in(mirror, text, translated):
    """lxml wrote every empty element short: ``<string name="b"></string>`` came back ``<string name="b"/>``,
    in a file where nothing but the translation was to change."""
    assert one(text, mirror) == text.replace(translated, "DOG A")


def test_an_empty_qt_source_keeps_its_end_tag(mirror):
    text = ('<?xml version="1.0" encoding="utf-8"?>\n<TS version="2.1" language="de">\n<context>\n'
            '    <name>Main</name>\n    <message>\n        <source></source>\n'
            '        <translation type="unfinished"></translation>\n    </message>\n</context>\n</TS>\n')
    assert translate_file_bytes(text.encode(), "app_de.ts", mirror, DocumentOptions(target_lang="de")) == text.encode()


def test_a_start_tag_nothing_changed_keeps_its_quotes_spacing_and_references(mirror):
    """Its element translated or kept, a start tag whose attributes are as they were read is written as
    it was: lxml gave ``&#233;`` as "é", single quotes as double, and dropped the spaces."""
    text = ("<resources xmlns:tools='http://schemas.android.com/tools'>\n"
            "    <string name='a'  tools:ignore=\"Typo&#233;\" >a dog</string>\n"
            "    <color name = 'accent' >#FFAACC</color>\n</resources>\n")
    assert one(text, mirror) == text.replace("a dog", "DOG A")


def test_an_xliff_root_declaring_its_namespace_after_its_version_is_written_as_it_came(mirror):
    """lxml writes a namespace's declaration before the attributes: ``<xliff version="1.2" xmlns=...>``,
    as CAT tools write it, came back the other way round."""
    text = ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n'
            '  <file source-language="en" target-language="de" datatype="plaintext" original="a.txt">\n    <body>\n'
            '      <trans-unit id="1">\n        <source>a dog</source>\n      </trans-unit>\n    </body>\n  </file>\n'
            "</xliff>\n")
    written = translate_file_bytes(text.encode(), "a.xlf", mirror, DocumentOptions(target_lang="de")).decode()
    assert written.startswith(text[:text.index("<file")])


def test_an_element_written_short_and_filled_gets_its_end_tag(upper):
    """``<translation type="unfinished"/>`` that gets a translation is no longer written short."""
    text = ('<TS version="2.1" language="de">\n<context>\n    <name>Main</name>\n    <message>\n'
            '        <source>a dog</source>\n        <translation type="unfinished"/>\n    </message>\n</context>\n'
            "</TS>\n")
    written = translate_file_bytes(text.encode(), "app_de.ts", upper, DocumentOptions(target_lang="de")).decode()
    assert written == text.replace('<translation type="unfinished"/>',
                                   '<translation type="unfinished">A DOG</translation>')


@pytest.mark.parametrize("kept", ["<color name=\"accent\">&#x2014;</color>", "<dimen name=\"a\">16&#160;dp</dimen>",
                                  "<string name=\"q\">&quot;</string>"])
def test_a_kept_text_keeps_its_character_references(mirror, kept):
    """lxml wrote ``&#x2014;`` as "—", ``&#160;`` as a no-break space and ``&quot;`` as ``"`` in text that
    was never translated."""
    text = f'<resources>\n    <string name="a">a dog</string>\n    {kept}\n</resources>\n'
    assert one(text, mirror) == text.replace("a dog", "DOG A")


def test_inline_code_in_a_translated_paragraph_keeps_its_references(mirror):
    """The code is kept as a copy in the paragraph's translation: its ``&gt;`` and ``&#x2014;`` stay."""
    text = "<doc>\n  <p>Type <code>a &#x2014;&gt; &quot;b&quot;</code> now</p>\n</doc>\n"
    assert one(text, mirror) == text.replace("Type <code>a &#x2014;&gt; &quot;b&quot;</code> now",
                                             "<code>a &#x2014;&gt; &quot;b&quot;</code> NOW TYPE")


def test_a_translated_text_and_a_text_written_two_ways_are_written_as_lxml_writes_them(mirror):
    """Only a text that means what was read is written as it came: the translation's "É" is the
    writer's, and a value the input wrote both ways keeps each where it is."""
    text = "<doc>\n  <p>a &#233; dog</p>\n  <code>&#233;</code>\n  <code>é</code>\n</doc>\n"
    assert one(text, mirror) == text.replace("a &#233; dog", "DOG É A")


def test_an_element_renamed_or_given_other_attributes_is_written_as_lxml_writes_it():
    """A start tag is written as it came only where its element has the name and attributes it was read
    with: written before a renamed element's end tag, the old tag made the XML no XML."""
    page = pages.parse("<doc><a  x='1'>t</a> <c  y='2'>u</c></doc>", True, "input")
    renamed, changed = page.root[0]
    renamed.tag = "b"
    changed.set("y", "3")
    assert page.serialise(None) == '<doc><b x="1">t</b> <c y="3">u</c></doc>'


def test_an_end_tag_written_with_spaces_keeps_them(mirror):
    """lxml wrote every end tag ``</name>``: ``</entry  >``, one over two lines and the root's came back so, in
    elements translated, kept and empty alike."""
    text = ('<entries >\n  <entry key="a">a dog</entry  >\n  <entry key="b"></entry >\n'
            '  <size>16</size\n>\n</entries >\n')
    assert one(text, mirror) == text.replace("a dog", "DOG A")


def test_an_xliff_end_tag_with_spaces_keeps_them_beside_a_target_written(mirror):
    text = ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">'
            '<file source-language="en" target-language="de" datatype="plaintext" original="a.txt"><body>\n'
            '<trans-unit id="1"><source>a dog</source ><note>n</note ></trans-unit >\n</body></file></xliff >\n')
    written = translate_file_bytes(text.encode(), "a.xlf", mirror, DocumentOptions(target_lang="de")).decode()
    assert written == text.replace("</source >", '</source ><target state="needs-review-translation" '
                                   'state-qualifier="mt-suggestion">DOG A</target>')
