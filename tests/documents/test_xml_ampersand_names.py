"""A name joined by "&" (attnmt.decoding.protected.AMPERSAND_NAME: ``Tom & Jerry``, ``AT&T``) passes through a plain
XML file's text, an Android strings file's, a .resx's, an XLIFF source's and a Qt Linguist source's as written, its
"&" written back ``&amp;``, as it passes through a web page's (test_markup_ampersand_names), with AmpersandDropping of
conftest.py, which drops the words holding "&" as the demo model did.  Read whole,
``<p>We watched Tom &amp; Jerry at AT&amp;T.</p>`` came back ``<p>WE WATCHED TOM JERRY AT</p>``."""

import warnings

import pytest

XLIFF_1 = ('<?xml version="1.0" encoding="utf-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
           '<file source-language="en" target-language="de" datatype="plaintext" original="x"><body>'
           '<trans-unit id="1"><source>{}</source></trans-unit></body></file></xliff>')
XLIFF_2 = ('<?xml version="1.0" encoding="utf-8"?>\n<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0"'
           ' srcLang="en" trgLang="de"><file id="f"><unit id="1"><segment><source>{}</source></segment></unit></file>'
           '</xliff>')
ANDROID = '<?xml version="1.0" encoding="utf-8"?>\n<resources><string name="a">{}</string></resources>'
RESX = ('<?xml version="1.0" encoding="utf-8"?>\n<root><resheader name="resmimetype"><value>text/microsoft-resx</value>'
        '</resheader><data name="a" xml:space="preserve"><value>{}</value></data></root>')
QT = ('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n<TS version="2.1" language="de"><context>'
      '<name>Main</name><message><source>{}</source><translation type="unfinished"></translation></message>'
      '</context></TS>')


@pytest.mark.parametrize("text, given, expected", [
    ("<doc><p>We watched Tom &amp; Jerry at AT&amp;T.</p></doc>", ["We watched at."],
     "<doc><p>WE WATCHED Tom &amp; Jerry AT AT&amp;T.</p></doc>"),
    ("<doc><p>A man works at <b>H&amp;M</b> for Procter &#38; Gamble.</p></doc>", ["A man works at for."],
     "<doc><p>A MAN WORKS AT <b>H&amp;M</b> FOR Procter &amp; Gamble.</p></doc>"),
    ("<doc><p><![CDATA[We watched Tom & Jerry.]]></p></doc>", ["We watched."],
     "<doc><p><![CDATA[WE WATCHED Tom & Jerry.]]></p></doc>"),
])
def test_a_name_joined_by_an_ampersand_passes_through_an_xml_files_text_as_written(ampersand_dropping, translated, text,
                                                                                   given, expected):
    assert translated(ampersand_dropping, "in.xml", text) == expected
    assert ampersand_dropping.given == given


def test_a_name_joined_by_an_ampersand_passes_through_an_xml_files_translated_attribute(ampersand_dropping, translated):
    text = '<doc><p title="A man works at H&amp;M.">A dog runs.</p></doc>'
    assert translated(ampersand_dropping, "in.xml", text) == \
        '<doc><p title="A MAN WORKS AT H&amp;M.">A DOG RUNS.</p></doc>'
    assert ampersand_dropping.given == ["A man works at.", "A dog runs."]


def test_an_ampersand_between_words_in_lower_case_in_xml_is_the_models_to_translate(ampersand_dropping, translated):
    assert translated(ampersand_dropping, "in.xml", "<doc><p>Salt &amp; pepper go in.</p></doc>") == \
        "<doc><p>SALT PEPPER GO IN.</p></doc>"
    assert ampersand_dropping.given == ["Salt & pepper go in."]


@pytest.mark.parametrize("page, name, source, given, expected", [
    (ANDROID, "strings.xml", "We watched Tom &amp; Jerry at AT&amp;T.", ["We watched at."],
     "WE WATCHED Tom &amp; Jerry AT AT&amp;T."),
    (RESX, "in.resx", "A man works at H&amp;M for {0}.", ["A man works at for."], "A MAN WORKS AT H&amp;M FOR {0}."),
])
def test_a_name_joined_by_an_ampersand_passes_through_a_software_string_as_written(ampersand_dropping, translated, page,
                                                                                   name, source, given, expected):
    assert translated(ampersand_dropping, name, page.format(source)) == page.format(expected)
    assert ampersand_dropping.given == given


@pytest.mark.parametrize("source, given, target", [
    ("We watched Tom &amp; Jerry at AT&amp;T.", ["We watched at."], "WE WATCHED Tom &amp; Jerry AT AT&amp;T."),
    ("<![CDATA[We met Procter & Gamble.]]>", ["We met."], "<![CDATA[WE MET Procter & Gamble.]]>"),
    ("&lt;p&gt;We watched &lt;b&gt;Tom &amp;amp; Jerry&lt;/b&gt;.&lt;/p&gt;", ["We watched."],
     "&lt;p&gt;WE WATCHED &lt;b&gt;Tom &amp;amp; Jerry&lt;/b&gt;.&lt;/p&gt;"),
])
def test_a_name_joined_by_an_ampersand_passes_through_an_xliff_1_source_into_its_target(ampersand_dropping, translated,
                                                                                        source, given, target):
    out = translated(ampersand_dropping, "in.xlf", XLIFF_1.format(source))
    assert f'<target state="needs-review-translation" state-qualifier="mt-suggestion">{target}</target>' in out
    assert ampersand_dropping.given == given


def test_a_name_joined_by_an_ampersand_passes_through_an_xliff_2_source_and_its_codes(ampersand_dropping, translated):
    out = translated(ampersand_dropping, "in.xliff", XLIFF_2.format(
        'A man works at <pc id="1">H&amp;M</pc> for Procter &amp; Gamble.'))
    assert '<target>A MAN WORKS AT <pc id="1">H&amp;M</pc> FOR Procter &amp; Gamble.</target>' in out
    assert ampersand_dropping.given == ["A man works at for."]


def test_an_ampersand_between_words_in_lower_case_in_xliff_is_the_models_to_translate(ampersand_dropping, translated):
    out = translated(ampersand_dropping, "in.xlf", XLIFF_1.format("Salt &amp; pepper go in."))
    assert ">SALT PEPPER GO IN.</target>" in out
    assert ampersand_dropping.given == ["Salt & pepper go in."]


def test_a_name_joined_by_an_ampersand_passes_through_a_qt_linguist_source(ampersand_dropping, translated):
    """A Qt source's "& " marks no keyboard accelerator: the name is read as an XLIFF source's is."""
    out = translated(ampersand_dropping, "in.ts", QT.format("We met Procter &amp; Gamble."))
    assert '<translation type="unfinished">WE MET Procter &amp; Gamble.</translation>' in out
    assert ampersand_dropping.given == ["We met."]


def test_a_name_an_element_parts_passes_through_an_xml_files_text_with_its_marks_where_they_were(ampersand_dropping,
                                                                                                translated):
    assert translated(ampersand_dropping, "in.xml", "<doc><p>We watched <b>Tom</b> &amp; Jerry today.</p></doc>") == \
        "<doc><p>WE WATCHED <b>Tom</b> &amp; Jerry TODAY.</p></doc>"
    assert ampersand_dropping.given == ["We watched today."]


@pytest.mark.parametrize("source, given, target", [
    ("We watched Tom &amp;&amp; Jerry.", ["We watched."], "WE WATCHED Tom &amp;&amp; Jerry."),
    ("A man works at AT&amp;&amp;T today.", ["A man works at today."], "A MAN WORKS AT AT&amp;&amp;T TODAY."),
])
def test_a_name_joined_by_qts_literal_ampersand_passes_through_a_qt_linguist_source_as_written(ampersand_dropping,
                                                                                               translated, source,
                                                                                               given, target):
    """Qt shows "&&" as "&": ``Tom &&amp; Jerry`` is "Tom & Jerry", which the model dropped ("WE WATCHED TOM
    JERRY.")."""
    out = translated(ampersand_dropping, "in.ts", QT.format(source))
    assert f'<translation type="unfinished">{target}</translation>' in out
    assert ampersand_dropping.given == given


def test_a_qt_accelerator_beside_a_name_joined_by_qts_literal_ampersand_goes_before_the_first_letter(
        ampersand_dropping, translated):
    out = translated(ampersand_dropping, "in.ts", QT.format("&amp;Watch Tom &amp;&amp; Jerry now"))
    assert '<translation type="unfinished">&amp;WATCH Tom &amp;&amp; Jerry NOW</translation>' in out
    assert ampersand_dropping.given == ["Watch now"]


@pytest.mark.parametrize("source", ["Tom &amp;&amp; Jerry", "AT&amp;&amp;T", "https://example.org/help"])
def test_a_qt_message_that_is_only_what_passes_through_comes_back_as_written_without_a_warning(ampersand_dropping,
                                                                                               translated, source):
    """The model reads nothing of it: counted as a translation whose every sentence kept its source, it came back
    empty, with a warning that it was left so."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = translated(ampersand_dropping, "in.ts", QT.format(source))
    assert f'<translation type="unfinished">{source}</translation>' in out
    assert ampersand_dropping.given == []
