"""XLIFF files (attnmt.documents.xliff): each unit's source translated into its target, the rest of
the file as it came, with the stand-in translators of conftest.py; every output parsed with lxml."""

import pytest
from lxml import etree

from attnmt.documents.files import supported_suffixes, translate_file_bytes
from attnmt.documents.markup import translate_markup
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.xliff import XliffVocabulary, translate_xliff
from attnmt.documents.xliff_codes import LINE_END
from attnmt.documents.xml_code import tag_placeholder
from attnmt.errors import AttnmtWarning, DataError, UserError

DE = DocumentOptions(target_lang="de")
NS1 = {"x": "urn:oasis:names:tc:xliff:document:1.2"}
NS2 = {"x": "urn:oasis:names:tc:xliff:document:2.0"}
STATE = 'state="needs-review-translation" state-qualifier="mt-suggestion"'  # a target written here says


def xliff_1(units: str, file: str = 'source-language="en"') -> str:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">\n'
            f'  <file datatype="plaintext" original="app.properties" {file}>\n    <body>\n{units}    </body>\n'
            "  </file>\n</xliff>\n")


def xliff_2(units: str, languages: str = 'srcLang="en" trgLang="de"') -> str:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" {languages}>\n'
            f'  <file id="f1">\n{units}  </file>\n</xliff>\n')


def parsed(text: str) -> etree._Element:
    return etree.fromstring(text.encode())


def test_an_xlf_file_is_read_as_xliff_its_target_written_after_its_source(mirror):
    """Read as text, each line of XML went to the model; read as XML, <source> became German and
    the <note> was translated: now the target holds the translation, on a line of its own."""
    unit = ('      <trans-unit id="greeting">\n        <source>A red car.</source>\n'
            "        <note>Shown on the home page.</note>\n      </trans-unit>\n")
    out = translate_file_bytes(xliff_1(unit).encode(), "app.xlf", mirror, DE).decode()
    assert out == xliff_1(unit.replace(
        "</source>\n", '</source>\n        <target state="needs-review-translation" '
        'state-qualifier="mt-suggestion">CAR. RED A</target>\n'), 'source-language="en" target-language="de"')
    assert mirror.given == ["A red car."]  # the note is kept, not translated
    assert parsed(out).findtext(".//x:target", namespaces=NS1) == "CAR. RED A"


def test_xlf_and_xliff_are_formats_of_their_own():
    assert {".xlf", ".xliff"} <= set(supported_suffixes())


def test_an_empty_target_is_replaced_and_a_translated_one_kept(mirror):
    """A target with text is a person's translation (or a reviewed one): CAT tools fill only the empty."""
    units = ('      <trans-unit id="a"><source>A dog.</source><target state="new"></target></trans-unit>\n'
             '      <trans-unit id="b"><source>A cat.</source><target state="final">Eine Katze.</target>'
             "</trans-unit>\n")
    with pytest.warns(AttnmtWarning, match=r"^input: 1 unit\(s\) kept the translation their target holds"):
        out = parsed(translate_xliff(xliff_1(units), mirror, DE))
    first, second = out.findall(".//x:target", namespaces=NS1)
    assert (first.text, first.get("state"), first.get("state-qualifier")) == ("DOG. A", "needs-review-translation",
                                                                              "mt-suggestion")
    assert (second.text, second.get("state")) == ("Eine Katze.", "final")
    assert mirror.given == ["A dog."]


def test_units_and_groups_that_say_translate_no_are_left_alone(mirror):
    units = ('      <trans-unit id="a" translate="no"><source>A dog.</source></trans-unit>\n'
             '      <group translate="no"><trans-unit id="b"><source>A cat.</source></trans-unit>\n'
             '        <trans-unit id="c" translate="yes"><source>A red car.</source></trans-unit></group>\n')
    out = translate_xliff(xliff_1(units), mirror, DE)
    assert mirror.given == ["A red car."]
    assert [unit.get("id") for unit in parsed(out).iterfind(".//x:target/..", namespaces=NS1)] == ["c"]


def test_xliff_1_inline_codes_are_carried_into_the_target(same):
    """<g> wraps words; <x/>, <bpt>/<ept> and <ph> are native code, kept whole by their names (a
    <ph> of "%d", letters and all, never reaches the model)."""
    source = ('Two <g id="1">children</g> play.<x id="2"/> Click <bpt id="3">&lt;b&gt;</bpt>here<ept id="3">'
              '&lt;/b&gt;</ept> to see <ph id="4">%d</ph> dogs.')
    out = translate_xliff(xliff_1(f'<trans-unit id="a"><source>{source}</source></trans-unit>\n'), same, DE)
    assert parsed(out).find(".//x:target", namespaces=NS1) is not None
    assert f"<source>{source}</source><target " in out and f'mt-suggestion">{source}</target>' in out
    assert same.given == ["Two children play.", "Click here to see dogs."]


def test_character_references_of_a_source_are_written_so_in_its_target(upper):
    """A unit's ``&#169;`` and ``&#x2014;`` came back in the target as the characters themselves."""
    source = "&#169; 2024 Acme &#x2014; all rights reserved."
    out = translate_xliff(xliff_1(f'<trans-unit id="a"><source>{source}</source></trans-unit>\n'), upper, DE)
    assert f"<source>{source}</source>" in out and "&#169; 2024 ACME &#x2014; ALL RIGHTS RESERVED.</target>" in out


@pytest.mark.parametrize("file, unit, code", [
    (xliff_1, '<trans-unit id="{k}"><source>{text}</source></trans-unit>\n', "g"),
    (xliff_2, '<unit id="{k}"><segment><source>{text}</source></segment></unit>\n', "pc")])
def test_each_targets_references_are_those_of_its_own_source(upper, file, unit, code):
    """Matched over the whole file, a file whose units wrote ``©`` both ways had every target written ``©``:
    a diff of the file, or a CAT tool matching its memory, saw a unit's ``&#169;`` changed."""
    sources = [f'&#169; 2024 <{code} id="1">Acme</{code}> &#x2014; all rights reserved.',
               "© 2024 Beta — all rights reserved."]
    out = translate_xliff(file("".join(unit.format(k=k, text=text) for k, text in enumerate(sources))), upper, DE)
    assert f'>&#169; 2024 <{code} id="1">ACME</{code}> &#x2014; ALL RIGHTS RESERVED.</target>' in out
    assert f"<source>{sources[1]}</source>" in out and ">© 2024 BETA — ALL RIGHTS RESERVED.</target>" in out


def test_a_seg_source_is_translated_segment_by_segment_into_the_target(mirror):
    unit = ('<trans-unit id="a"><source>A dog runs. A cat sleeps.</source><seg-source><mrk mtype="seg" mid="1">'
            'A dog runs.</mrk> <mrk mtype="seg" mid="2">A cat sleeps.</mrk></seg-source></trans-unit>\n')
    out = translate_xliff(xliff_1(unit), mirror, DE)
    assert ('</seg-source><target state="needs-review-translation" state-qualifier="mt-suggestion"><mrk mtype="seg" '
            'mid="1">RUNS. DOG A</mrk> <mrk mtype="seg" mid="2">SLEEPS. CAT A</mrk></target>') in out


def test_a_segment_holding_html_is_translated_as_html_and_written_escaped_as_its_source(mirror):
    """A seg-source segment of escaped HTML never reached the model: its copy was the target, marked a machine's
    suggestion; as an unsegmented source of HTML is, it is now read as HTML."""
    unit = ('<trans-unit id="a"><source>&lt;p&gt;A dog runs.&lt;/p&gt; A cat sleeps.</source><seg-source>'
            '<mrk mtype="seg" mid="1">&lt;p&gt;A dog runs.&lt;/p&gt;</mrk> <mrk mtype="seg" mid="2">A cat sleeps.</mrk>'
            "</seg-source></trans-unit>\n")
    out = translate_xliff(xliff_1(unit), mirror, DE)
    assert (f'</seg-source><target {STATE}><mrk mtype="seg" mid="1">&lt;p&gt;RUNS. DOG A&lt;/p&gt;</mrk> '
            '<mrk mtype="seg" mid="2">SLEEPS. CAT A</mrk></target>') in out
    assert mirror.given == ["A dog runs.", "A cat sleeps."]


def test_an_empty_segment_holding_html_in_a_kept_target_is_filled_as_html(mirror):
    unit = ('<trans-unit id="a"><source>A cat sleeps. &lt;p&gt;A dog runs.&lt;/p&gt;</source><seg-source>'
            '<mrk mtype="seg" mid="1">A cat sleeps.</mrk> <mrk mtype="seg" mid="2">&lt;p&gt;A dog runs.&lt;/p&gt;</mrk>'
            '</seg-source><target><mrk mtype="seg" mid="1">Eine Katze schläft.</mrk> <mrk mtype="seg" mid="2"/>'
            "</target></trans-unit>\n")
    out = translate_xliff(xliff_1(unit), mirror, DE)
    assert (f'</seg-source><target {STATE}><mrk mtype="seg" mid="1">Eine Katze schläft.</mrk> '
            '<mrk mtype="seg" mid="2">&lt;p&gt;RUNS. DOG A&lt;/p&gt;</mrk></target>') in out
    assert mirror.given == ["A dog runs."]


@pytest.mark.parametrize(("version", "namespace", "state"), [
    ("1.0", "", 'state="needs-review-translation"'),
    ("1.1", ' xmlns="urn:oasis:names:tc:xliff:document:1.1"', STATE),
    ("1.2", ' xmlns="urn:oasis:names:tc:xliff:document:1.2"', STATE)])
def test_a_target_says_only_the_attributes_its_files_version_defines(mirror, version, namespace, state):
    """XLIFF 1.0 defines no state-qualifier (1.1's schema added it, with mt-suggestion): a 1.0 file
    got one, which a reader checking it against 1.0's DTD refuses."""
    text = (f'<xliff{namespace} version="{version}"><file original="x" source-language="en" datatype="plaintext">'
            '<body><trans-unit id="1"><source>A dog.</source><target/></trans-unit></body></file></xliff>')
    assert f"<target {state}>DOG. A</target>" in translate_xliff(text, mirror, DE)


def test_xliff_2_segments_get_targets_and_say_they_are_translated(same):
    units = ('    <notes><note id="n1">Strings of the home page.</note></notes>\n'
             '    <unit id="u1">\n      <originalData><data id="d1">&lt;br/&gt;</data></originalData>\n'
             '      <segment state="initial">\n        <source>A <pc id="1">red</pc> car.<ph id="2" dataRef="d1"/>'
             'Two <sc id="3"/>dogs<ec startRef="3"/> play.</source>\n      </segment>\n'
             '      <ignorable><source> </source></ignorable>\n'
             '      <segment>\n        <source>A cat.</source>\n        <target></target>\n      </segment>\n'
             '    </unit>\n    <unit id="u2" translate="no">\n      <segment><source>A dog.</source></segment>\n'
             "    </unit>\n")
    out = translate_xliff(xliff_2(units), same, DE)
    root = parsed(out)
    segments = root.findall(".//x:segment", namespaces=NS2)
    assert [segment.get("state") for segment in segments] == ["translated", "translated", None]
    assert ('</source>\n        <target>A <pc id="1">red</pc> car.<ph id="2" dataRef="d1"/>Two <sc id="3"/>dogs'
            '<ec startRef="3"/> play.</target>\n      </segment>') in out
    assert "<ignorable><source> </source></ignorable>" in out and "<data id=\"d1\">&lt;br/&gt;</data>" in out
    assert root.findtext(".//x:note", namespaces=NS2) == "Strings of the home page."
    assert same.given == ["A red car.", "Two dogs play.", "A cat."]


def test_the_target_language_is_written_where_the_file_names_none(same):
    unit = '<trans-unit id="a"><source>A dog.</source></trans-unit>\n'
    assert parsed(translate_xliff(xliff_1(unit), same, DE)).find(".//x:file", NS1).get("target-language") == "de"
    segment = '<unit id="u"><segment><source>A dog.</source></segment></unit>\n'
    assert parsed(translate_xliff(xliff_2(segment, 'srcLang="en"'), same, DE)).get("trgLang") == "de"


def test_an_xliff_2_file_without_a_target_language_is_refused_in_one_line(same):
    """XLIFF 2 requires trgLang beside targets: written without one, the file is invalid."""
    segment = '<unit id="u"><segment><source>A dog.</source></segment></unit>\n'
    with pytest.raises(DataError, match=r"^app\.xlf: an XLIFF 2 file names its target language in trgLang .*"
                                        r"\(--target-lang\)$"):
        translate_xliff(xliff_2(segment, 'srcLang="en"'), same, DocumentOptions(), "app.xlf")


def test_a_target_language_other_than_the_files_is_refused(same):
    unit = '<trans-unit id="a"><source>A dog.</source></trans-unit>\n'
    text = xliff_1(unit, 'source-language="en" target-language="de-DE"')
    with pytest.raises(UserError, match="^app.xlf: the file's target-language is de-DE, the target language asked "
                                        "for fr: "):
        translate_xliff(text, same, DocumentOptions(target_lang="fr"), "app.xlf")
    assert 'target-language="de-DE"' in translate_xliff(text, same, DE)  # the same language: as written


def test_a_source_language_other_than_the_one_translated_from_is_refused(same):
    """A French file went through an English model as English, with no word, while a file for another
    target language was refused: the source side is checked as the target side is (en-US is en)."""
    unit = '<trans-unit id="a"><source>Un chien.</source></trans-unit>\n'
    with pytest.raises(UserError, match=r"^app\.xlf: the file's source-language is fr, the source language asked "
                                        r"for en: translate it from fr, or take a file in en$"):
        translate_xliff(xliff_1(unit, 'source-language="fr"'), same, DE, "app.xlf")
    segment = '<unit id="u"><segment><source>Un chien.</source></segment></unit>\n'
    with pytest.raises(UserError, match=r"^app\.xlf: the file's srcLang is fr, the model's source language \(from "
                                        r"its train\.yaml\) is en: .*--source-lang fr"):
        translate_xliff(xliff_2(segment, 'srcLang="fr" trgLang="de"'), same,
                        DocumentOptions(target_lang="de", source_lang_option="--source-lang"), "app.xlf")
    assert "<target " in translate_xliff(xliff_1(unit, 'source-language="en-US"'), same, DE)
    assert "<target " in translate_xliff(xliff_1(unit, 'source-language="fr"'), same,
                                         DocumentOptions(source_lang="fr-CA", target_lang="de"))
    unknown = DocumentOptions(target_lang="de", source_lang_known=False)  # the splitter's default alone
    assert "<target " in translate_xliff(xliff_1(unit, 'source-language="fr"'), same, unknown)


@pytest.mark.parametrize(("after", "line", "reason"), [
    ("A dog runs.\n", 9, "content after the root element's end"),
    ("<!-- a -->\n<xliff/>\n", 10, "content after the root element's end"),
])
def test_text_or_a_second_element_after_the_xliff_element_is_not_well_formed(same, after, line, reason):
    """Read inside a wrapper, as a fragment of XML is, text after </xliff> was kept (exit 0, the output
    not XML), and a second <xliff> was "not an XLIFF file: it holds <xliff> where XLIFF has one <xliff>"."""
    text = xliff_1('<trans-unit id="a"><source>A dog.</source></trans-unit>\n') + after
    with pytest.raises(DataError, match=rf"^app\.xlf is not well-formed XML at line {line}, column 1: {reason} "):
        translate_file_bytes(text.encode(), "app.xlf", same, DE)


@pytest.mark.parametrize("after", ["&#160;", "&#32;", "&nbsp;", "<![CDATA[ ]]>", "<![CDATA[]]>", "&#10;<!-- a -->",
                                   "&#32;<?a x><?b?>"])
def test_a_reference_or_a_cdata_section_after_the_xliff_element_is_not_well_formed(same, after):
    """Read as spaces, or as nothing (str.strip takes a no-break space for one; the tree holds
    ``&#32;`` as the space it stands for, an empty CDATA section not at all), each was accepted and
    written back after </xliff>, where xmllint and CAT tools refuse the file."""
    text = xliff_1('<trans-unit id="a"><source>A dog.</source></trans-unit>\n') + after + "\n"
    text = text.replace("<xliff ", '<!DOCTYPE xliff [<!ENTITY nbsp "&#160;">]>\n<xliff ', 1)
    with pytest.raises(DataError, match=r"^app\.xlf is not well-formed XML at line 10, column 1: content after the "
                                        r"root element's end \(an XML document is one element: only comments, "):
        translate_file_bytes(text.encode(), "app.xlf", same, DE)
    assert same.given == []


def test_a_character_reference_before_the_xliff_element_is_not_well_formed(same):
    text = xliff_1('<trans-unit id="a"><source>A dog.</source></trans-unit>\n').replace("<xliff ", "&#32;<xliff ")
    with pytest.raises(DataError, match=r"^app\.xlf is not well-formed XML at line 2, column 1: text before the "
                                        r"root element "):
        translate_file_bytes(text.encode(), "app.xlf", same, DE)


@pytest.mark.parametrize(("before", "column"), [("<![CDATA[A dog.]]>", 1), ("<![CDATA[]]>", 1),
                                               ("<!-- a --> <![CDATA[ ]]>", 12)])
def test_a_cdata_section_before_the_xliff_element_is_text_before_it(same, before, column):
    """libxml2 takes its ``<!`` for a tag's start: the file was refused for "a < that starts no tag
    (write < as &lt;)", at the column after the ``<``, which pointed at no such ``<``."""
    text = xliff_1('<trans-unit id="a"><source>A dog.</source></trans-unit>\n').replace("<xliff ", f"{before}<xliff ")
    with pytest.raises(DataError, match=rf"^app\.xlf is not well-formed XML at line 2, column {column}: text before "
                                        r"the root element \(an XML document is one element: only comments, "):
        translate_file_bytes(text.encode(), "app.xlf", same, DE)


@pytest.mark.parametrize(("text", "line", "column"), [
    ('<?xml version="1.0"?>\n<![CDATA[x<xliff version="1.2"><file/></xliff>\n', 2, 1),
    ('<?xml version="1.0"?>\n<!-- a -->\n  <![CDATA[x\n<xliff version="1.2"><file/></xliff>', 3, 3),
    ('<![CDATA[x<xliff version="1.2"><file/></xliff>\n', 1, 1)])
def test_a_cdata_section_never_finished_before_the_xliff_element_is_named_where_it_opens(same, text, line, column):
    """The document inside it: libxml2 said "CData section not finished" at the file's end (line 3,
    column 1 for the first, line 2 for the last, a file of one line)."""
    with pytest.raises(DataError, match=rf"^app\.xlf is not well-formed XML at line {line}, column {column}: text "
                                        r"before the root element \(an XML document is one element: only comments, "):
        translate_file_bytes(text.encode(), "app.xlf", same, DE)


def test_comments_instructions_and_spaces_around_the_xliff_element_are_kept(same):
    kept = "<!-- end --><!---->\n<?tool done?>\t<?a <?b?>\n"  # an instruction's text may hold "<?"
    text = xliff_1('<trans-unit id="a"><source>A dog.</source></trans-unit>\n') + kept
    out = translate_file_bytes(text.encode(), "app.xlf", same, DE).decode()
    assert "<target " in out and out.endswith(f"</xliff>\n{kept}")


def test_a_file_that_is_no_xliff_is_refused_in_one_line(same):
    with pytest.raises(DataError, match=r"^app\.xlf: not an XLIFF file: it holds <resources> where XLIFF has one "
                                        "<xliff>; a name ending .xml translates it as plain XML$"):
        translate_file_bytes(b'<?xml version="1.0"?>\n<resources><string>A dog.</string></resources>\n', "app.xlf",
                             same, DE)


@pytest.mark.parametrize("source, target", [
    ("<![CDATA[<p>A man walks his <strong>dog</strong>.</p>]]>",
     "<![CDATA[<p><strong>DOG</strong>. HIS WALKS MAN A</p>]]>"),
    ("&lt;p&gt;Two children play.&lt;/p&gt;", "&lt;p&gt;PLAY. CHILDREN TWO&lt;/p&gt;"),
    ("<![CDATA[A dog in the park]]>", "<![CDATA[PARK THE IN DOG A]]>")])
def test_a_source_holding_html_is_translated_as_html_into_a_target_written_as_the_source_is(mirror, source, target):
    """WPML's CDATA and Drupal's escaped HTML: the target was a copy of the English source, marked
    a machine's suggestion, and nothing reached the model; a CDATA section became escaped text."""
    unit = f'<trans-unit id="a"><source>{source}</source><target><![CDATA[]]></target></trans-unit>\n'
    out = translate_xliff(xliff_1(unit), mirror, DE)
    assert f'<source>{source}</source><target {STATE}>{target}</target>' in out
    assert len(mirror.given) == 1


WORDPRESS = ('<!-- wp:paragraph -->\n<p>A woman walks.</p>\n<!-- /wp:paragraph -->\n\n'
             '<!-- wp:image {"id":12,"sizeSlug":"large"} -->\n<figure class="wp-block-image size-large">'
             "<figcaption>A red car.</figcaption></figure>\n<!-- /wp:image -->")
WORDPRESS_DE = WORDPRESS.replace("A woman walks.", "WALKS. WOMAN A").replace("A red car.", "CAR. RED A")


def escaped(html: str) -> str:
    return html.replace("<", "&lt;").replace(">", "&gt;")


@pytest.mark.parametrize("source, target", [
    (f"<![CDATA[{WORDPRESS}]]>", f"<![CDATA[{WORDPRESS_DE}]]>"),
    (escaped(WORDPRESS), escaped(WORDPRESS_DE)),
    ("<![CDATA[<p>A woman walks.</p><!-- note -->]]>", "<![CDATA[<p>WALKS. WOMAN A</p><!-- note -->]]>"),
    ("&lt;!-- a --&gt; &lt;p&gt;A woman walks.&lt;/p&gt;", "&lt;!-- a --&gt; &lt;p&gt;WALKS. WOMAN A&lt;/p&gt;")])
def test_a_source_of_html_with_comments_around_it_is_translated_as_html_its_comments_kept(mirror, source, target):
    """WPML's WordPress posts: each block between ``<!-- wp:... -->`` comments.  A comment first or
    last made the source words: the model read the comments and the tags, and the target came back
    as ``<!Eine Frau> bew...</p>``."""
    unit = f'<trans-unit id="a" datatype="html"><source>{source}</source></trans-unit>\n'
    out = translate_xliff(xliff_1(unit), mirror, DE)
    assert f"<source>{source}</source><target {STATE}>{target}</target>" in out
    assert mirror.given == (["A woman walks.", "A red car."] if "wp:image" in source else ["A woman walks."])


@pytest.mark.parametrize("source", ['<![CDATA[<!-- wp:spacer {"height":"20px"} /-->]]>',
                                    "&lt;!-- wp:separator /--&gt;\n&lt;!-- wp:more --&gt;"])
def test_a_source_of_html_comments_alone_is_kept_whole(mirror, source):
    """Read as words, the comment went to the model and came back translated."""
    unit = f'<trans-unit id="a" datatype="html"><source>{source}</source></trans-unit>\n'
    out = translate_xliff(xliff_1(unit), mirror, DE)
    assert f"<source>{source}</source><target {STATE}>{source}</target>" in out
    assert mirror.given == []


def test_a_conditional_comment_in_a_sources_html_is_read_as_the_html_reader_reads_it(mirror):
    """Outlook's downlevel-hidden ``<!--[if mso]>...<![endif]-->`` is a comment to every other reader:
    kept as written, untranslated, by the HTML reader and so by XLIFF's HTML units alike."""
    html = "<p>A dog runs.</p><!--[if mso]><p>A cat sleeps.</p><![endif]-->"
    unit = f'<trans-unit id="a" datatype="html"><source><![CDATA[{html}]]></source></trans-unit>\n'
    out = translate_xliff(xliff_1(unit), mirror, DE)
    assert f"<target {STATE}><![CDATA[{translate_markup([html], mirror)[0]}]]></target>" in out
    assert mirror.given == ["A dog runs.", "A dog runs."]


def test_a_superscript_number_in_a_sources_html_stays_after_its_word(mirror):
    """The HTML an XLIFF source holds has HTML's rule: "book<sup>1</sup>" was read "book1"."""
    unit = ('<trans-unit id="a"><source><![CDATA[<p>A book<sup>1</sup> is red.</p>]]></source>'
            '<target><![CDATA[]]></target></trans-unit>\n')
    assert "<![CDATA[<p>RED. IS BOOK<sup>1</sup> A</p>]]>" in translate_xliff(xliff_1(unit), mirror, DE)
    assert mirror.given == ["A book is red."]


def test_a_target_of_codes_and_empty_segments_alone_is_filled(mirror):
    """Trados's and Okapi's targets before translation: taken for translations, they were kept,
    and nothing was translated (exit 0)."""
    units = ('<trans-unit id="a"><source><g id="1">A dog runs. A cat sleeps.</g></source><seg-source><g id="1">'
             '<mrk mtype="seg" mid="1">A dog runs.</mrk> <mrk mtype="seg" mid="2">A cat sleeps.</mrk></g></seg-source>'
             '<target><g id="1"><mrk mtype="seg" mid="1"/> <mrk mtype="seg" mid="2"/></g></target></trans-unit>\n'
             '<trans-unit id="b"><source>A red car.</source><target><x id="5"/></target></trans-unit>\n')
    out = translate_xliff(xliff_1(units), mirror, DE)
    assert (f'</seg-source><target {STATE}><g id="1"><mrk mtype="seg" mid="1">RUNS. DOG A</mrk> '
            '<mrk mtype="seg" mid="2">SLEEPS. CAT A</mrk></g></target>') in out
    assert f'<source>A red car.</source><target {STATE}>CAR. RED A</target>' in out
    assert mirror.given == ["A dog runs.", "A cat sleeps.", "A red car."]


@pytest.mark.parametrize("remarks", ['<!-- translator: use "Mieze" -->', "<?review pending?>",
                                     "\n  <!-- a --><?review pending?>\n"])
def test_a_comment_or_instruction_in_an_empty_target_stays_before_its_translation(mirror, remarks):
    """A translator's note or a tool's processing instruction in the empty target was deleted
    when the target was filled."""
    unit = f'<trans-unit id="a"><source>A red car.</source><target>{remarks}</target></trans-unit>\n'
    out = translate_xliff(xliff_1(unit), mirror, DE)
    assert f"<target {STATE}>{remarks.strip()}CAR. RED A</target>" in out
    assert mirror.given == ["A red car."]


def test_a_comment_stays_before_a_translation_written_as_html_in_a_cdata_section(mirror):
    unit = ('<trans-unit id="a"><source><![CDATA[<p>A man walks his <strong>dog</strong>.</p>]]></source>'
            "<target><!-- c --></target></trans-unit>\n")
    out = translate_xliff(xliff_1(unit), mirror, DE)
    assert f"<target {STATE}><!-- c --><![CDATA[<p><strong>DOG</strong>. HIS WALKS MAN A</p>]]></target>" in out


@pytest.mark.parametrize("source, target", [
    ("<![CDATA[<b>A</b> dog]]><!-- c --><![CDATA[ runs.]]>", "<![CDATA[RUNS. DOG <b>A</b>]]>"),
    ("<![CDATA[<p>A dog]]><?pi x?><![CDATA[ runs.</p>]]>", "<![CDATA[<p>RUNS. DOG A</p>]]>"),
    ("<![CDATA[A dog]]><![CDATA[ runs.]]>", "<![CDATA[RUNS. DOG A]]>"),
    ("\n  <![CDATA[ <p>A dog]]>\n  <!-- c -->\n  <![CDATA[ runs.</p>\n]]>\n",
     "\n  <![CDATA[ <p>RUNS. DOG A</p>\n]]>\n")])
def test_a_source_of_cdata_sections_split_by_a_comment_is_written_back_in_one_section(mirror, source, target):
    """As a source of one section is (WPML's); its target was escaped text (``&lt;p&gt;RUNS. DOG
    A&lt;/p&gt;``).  The comment is left out of the target, as one among a source's words is."""
    unit = f'<trans-unit id="a"><source>{source}</source></trans-unit>\n'
    out = translate_xliff(xliff_1(unit), mirror, DE)
    assert f"<source>{source}</source><target {STATE}>{target}</target>" in out
    assert len(mirror.given) == 1


@pytest.mark.parametrize("source", ["", "   ", "&#160;\n ", "<![CDATA[]]>", "<![CDATA[   ]]>", " <![CDATA[ ]]> ",
                                    "<![CDATA[   ]]><!-- only -->", "\n  <!-- only --><![CDATA[ ]]>\n",
                                    "<![CDATA[ ]]><!-- c --><![CDATA[  ]]>", "<!-- c -->", "<?review pending?> "])
def test_a_source_of_spaces_alone_gets_no_target_whatever_comments_are_beside_them(mirror, source):
    """Spaces however written (plain, a reference, a CDATA section) get no target; beside a comment or a
    processing instruction they got one, of spaces (``<![CDATA[   ]]>``) or empty, said to be translated."""
    unit = f'<trans-unit id="a"><source>{source}</source></trans-unit>\n'
    assert "<target" not in translate_xliff(xliff_1(unit), mirror, DE)
    unit = f'<unit id="a"><segment><source>{source}</source></segment></unit>\n'
    out = translate_xliff(xliff_2(unit), mirror, DE)
    assert "<target" not in out and "<segment>" in out
    assert mirror.given == []


def test_a_source_of_a_comment_and_words_or_of_a_code_alone_gets_a_target(mirror):
    units = ('<trans-unit id="a"><source><!-- c -->A dog.</source></trans-unit>\n'
             '<trans-unit id="b"><source><x id="1"/></source></trans-unit>\n')
    out = translate_xliff(xliff_1(units), mirror, DE)
    assert f'<target {STATE}>DOG. A</target>' in out and f'<target {STATE}><x id="1"/></target>' in out


@pytest.mark.parametrize("target", [
    "", '<target><mrk mtype="seg" mid="1">Eine Katze.</mrk><mrk mtype="seg" mid="2"/></target>'])
def test_a_segment_of_cdata_sections_split_by_a_comment_is_written_back_in_one_section(mirror, target):
    """In a target written whole, or a segment filled in a target kept: its copy was escaped text."""
    segments = ('<mrk mtype="seg" mid="1">A cat.</mrk> '
                '<mrk mtype="seg" mid="2"><![CDATA[<p>A dog]]><!-- c --><![CDATA[ runs.</p>]]></mrk>')
    unit = f'<trans-unit id="a"><source>x</source><seg-source>{segments}</seg-source>{target}</trans-unit>\n'
    out = translate_xliff(xliff_1(unit), mirror, DE)
    assert '<mrk mtype="seg" mid="2"><![CDATA[<p>RUNS. DOG A</p>]]></mrk></target>' in out


@pytest.mark.parametrize("remark", ["<!-- x -->", "<?review pending?>"])
def test_a_comment_among_a_sources_words_stays_in_the_source_and_is_left_out_of_the_target(mirror, remark):
    """As Okapi's XLIFF filter leaves it out: it went where the alignment took it (``<!-- x --> RUNS.
    DOG A``), and the spaces on both its sides are one space in the target."""
    units = (f'<trans-unit id="a"><source>A dog {remark} runs.</source></trans-unit>\n'
             f'<trans-unit id="b"><source>A <g id="1">cat {remark} sleeps</g>.</source></trans-unit>\n')
    out = translate_xliff(xliff_1(units), mirror, DE)
    assert f"<source>A dog {remark} runs.</source><target {STATE}>RUNS. DOG A</target>" in out
    assert f'<target {STATE}><g id="1">SLEEPS. CAT</g> A</target>' in out
    assert mirror.given == ["A dog runs.", "A cat sleeps."]


def test_a_comment_among_an_html_sources_words_leaves_the_source_read_as_html(mirror):
    """The comment hid the HTML (an element in the source): its tags went to the model as words
    ("<p>A <b>dog</b> runs."), and came back out of order, broken."""
    unit = ('<trans-unit id="a"><source>&lt;p&gt;A &lt;b&gt;dog&lt;/b&gt; <!-- x --> runs.&lt;/p&gt;</source>'
            "</trans-unit>\n")
    out = translate_xliff(xliff_1(unit), mirror, DE)
    assert mirror.given == ["A dog runs."]
    assert f"<target {STATE}>&lt;p&gt;RUNS. &lt;b&gt;DOG&lt;/b&gt; A&lt;/p&gt;</target>" in out
    parsed(out)


def test_a_comment_inside_a_code_kept_whole_stays_in_it(same):
    unit = '<trans-unit id="a"><source>A <ph id="1">&lt;br&gt;<!-- c --></ph> dog runs.</source></trans-unit>\n'
    out = translate_xliff(xliff_1(unit), same, DE)
    assert f'<target {STATE}>A <ph id="1">&lt;br&gt;<!-- c --></ph> dog runs.</target>' in out


BREAKS_1 = ['<x id="LINE_BREAK" ctype="lb" equiv-text="&lt;br/&gt;"/>', '<x id="1" equiv-text="&lt;br&gt;"/>',
            '<ph id="1" ctype="lb"/>']
BREAKS_2 = ['<ph id="0" equiv="LINE_BREAK" type="fmt" subType="xlf:lb" disp="&lt;br/&gt;"/>',
            '<ph id="0" disp="&lt;br /&gt;"/>', '<ph id="0" dataRef="d1"/>', '<ph id="0" equiv="&#10;"/>',
            '<ph id="0" dataRef="d2"/>', '<cp hex="000B"/>', '<cp hex="1e"/>']
# XLIFF 2 writes a character XML 1.0 cannot hold (a vertical tab) as <cp>, in <data> too
ORIGINAL_DATA = ('<originalData><data id="d1">&lt;br/&gt;</data><data id="d2"><cp hex="000B"/></data>'
                 "</originalData>")


@pytest.mark.parametrize("code", BREAKS_1)
def test_an_xliff_1_line_break_code_between_two_words_parts_them(same, code):
    """Angular's ``men<x id="LINE_BREAK" ctype="lb"/>talk``: the model read "Two mentalk.", and lost a word."""
    unit = f'<trans-unit id="a"><source>Two men{code}talk.</source></trans-unit>\n'
    out = translate_xliff(xliff_1(unit), same, DE)
    assert same.given == ["Two men talk."]
    assert f"<target {STATE}>Two men{code}talk.</target>" in out


@pytest.mark.parametrize("code", BREAKS_2)
def test_an_xliff_2_line_break_code_between_two_words_parts_them(same, code):
    """By its subType, its display text, or the original data its dataRef names (``<br/>``, a vertical
    tab written ``<cp hex="000B"/>``), or as a ``<cp>`` standing for a line's end in the source's text."""
    unit = (f'<unit id="u">{ORIGINAL_DATA}'
            f"<segment><source>Two men{code}talk.</source></segment></unit>\n")
    out = translate_xliff(xliff_2(unit), same, DE)
    assert same.given == ["Two men talk."]
    assert f"<target>Two men{code}talk.</target>" in out


@pytest.mark.parametrize("code", BREAKS_1)
def test_an_xliff_1_line_break_code_ends_its_sentence_before_a_new_line(mirror, code):
    """As a ``<br>`` does (flat.ended_lines): read as a space, ``Dog food<x id="1" ctype="lb"/>Cat toys``
    went to the model as one sentence, and the code moved ("TOYS<x/>CAT FOOD DOG")."""
    unit = f'<trans-unit id="a"><source>Dog food{code}Cat toys</source></trans-unit>\n'
    out = translate_xliff(xliff_1(unit), mirror, DE)
    assert mirror.given == ["Dog food", "Cat toys"]
    assert f"<target {STATE}>FOOD DOG{code}TOYS CAT</target>" in out


@pytest.mark.parametrize("code", BREAKS_2)
def test_an_xliff_2_line_break_code_ends_its_sentence_before_a_new_line(mirror, code):
    unit = (f'<unit id="u">{ORIGINAL_DATA}'
            f"<segment><source>Dog food{code}Cat toys</source></segment></unit>\n")
    out = translate_xliff(xliff_2(unit), mirror, DE)
    assert mirror.given == ["Dog food", "Cat toys"]
    assert f"<target>FOOD DOG{code}TOYS CAT</target>" in out


@pytest.mark.parametrize("code", ['<x id="1" ctype="lb"/>', '<ph id="1" ctype="lb"/>'])
def test_a_line_break_code_before_a_line_in_lower_case_keeps_its_sentence_whole(same, code):
    """A sentence wrapped by hand goes on past the break, and the code is written once."""
    unit = f'<trans-unit id="a"><source>The dog runs{code}and the cat sleeps.</source></trans-unit>\n'
    out = translate_xliff(xliff_1(unit), same, DE)
    assert same.given == ["The dog runs and the cat sleeps."]
    assert f"<target {STATE}>The dog runs{code}and the cat sleeps.</target>" in out


def test_a_code_that_stands_for_a_space_parts_words_and_ends_no_sentence(same):
    unit = '<unit id="u"><segment><source>Dog food<ph id="0" equiv=" "/>Cat toys</source></segment></unit>\n'
    translate_xliff(xliff_2(unit), same, DE)
    assert same.given == ["Dog food Cat toys"]


def test_a_code_stands_for_a_line_end_wherever_str_splitlines_ends_a_line():
    """As flat text reads a line's end (flat.FIELD_END): XLIFF's own list lacked the file, group and
    record separators (0x1C to 0x1E), so a code standing for one was a space (is_space)."""
    characters = [chr(point) for point in range(0x3000)]
    line_ends = [c for c in characters if len(f"a{c}b".splitlines()) == 2]
    assert [c for c in characters if LINE_END.fullmatch(c)] == line_ends


@pytest.mark.parametrize("written", ["ZZ", "0x0B", "110000", "", "D800"])
def test_a_cp_whose_hex_names_no_character_is_refused_naming_its_line(same, written):
    """What it stands for is unknown (a line's end, a letter?): it was kept as an empty code."""
    unit = f'<unit id="u">\n<segment><source>Dog food<cp hex="{written}"/>Cat toys</source></segment></unit>\n'
    with pytest.raises(DataError, match=rf'^app\.xlf: line 5: <cp hex="{written}"> names no character: its hex is '
                                        "a Unicode code point in hexadecimal"):
        translate_xliff(xliff_2(unit), same, DE, "app.xlf")
    assert same.given == []


def test_an_extensions_element_named_cp_is_no_character_and_refuses_nothing(same):
    """Any element named cp was read as XLIFF 2's <cp>: an <e:cp> in a 1.2 file's header refused the file."""
    extension = '<header><e:cp xmlns:e="urn:example">2024 ACME</e:cp></header>'
    document = xliff_1('<trans-unit id="1"><source>A dog runs.</source></trans-unit>\n').replace("<body>",
                                                                                                   extension + "<body>")
    assert extension in document
    assert "<target" in translate_xliff(document, same, DE, "a.xlf")
    assert same.given == ["A dog runs."]


def test_a_code_whose_native_tag_runs_over_lines_ends_no_sentence(same):
    """Okapi copies a tag written over lines (``<a⏎ href>``) into ``<originalData>``: its newline is no break."""
    unit = ('<unit id="u"><originalData><data id="d1">&lt;a\n href="x.html"&gt;</data><data id="d2">&lt;/a&gt;</data>'
            '</originalData><segment><source>A man walks to <sc id="1" dataRef="d1"/>New York'
            '<ec startRef="1" dataRef="d2"/> with his dog.</source></segment></unit>\n')
    translate_xliff(xliff_2(unit), same, DE)
    assert same.given == ["A man walks to New York with his dog."]


def test_an_empty_code_with_nothing_saying_it_is_a_break_stays_inside_its_word(same):
    """``<x id="1"/>`` between two letters may be a tag inside a word (``<b>W</b>ord``)."""
    unit = '<trans-unit id="a"><source>A red c<x id="1"/>ar.</source></trans-unit>\n'
    translate_xliff(xliff_1(unit), same, DE)
    assert same.given == ["A red car."]


@pytest.mark.parametrize("placeholder", ["{0}", "{userName}", "{{count}}", "{{ count }}", "${name}", "%{name}",
                                         "%d", "%1$s", "%.2f", "%(name)s", "%@", "%lld", "%#@dogs@", "%1$#@dogs@"])
def test_a_placeholder_in_a_source_passes_through_untranslated(same, placeholder):
    """Read as words, the model lost it (``A man has %d dogs.``: "Ein Mann hat den Olympischen Hunden.")."""
    unit = f'<trans-unit id="a"><source>A man has {placeholder} dogs.</source></trans-unit>\n'
    out = translate_xliff(xliff_1(unit), same, DE)
    assert same.given == ["A man has dogs."]
    assert parsed(out).findtext(".//x:target", namespaces=NS1) == f"A man has {placeholder} dogs."


def test_a_target_written_keeps_the_spaces_its_source_says_are_kept(same):
    """``<source xml:space="preserve">  Two  spaces. </source>`` got ``<target>  Two  spaces. </target>``, whose
    spaces a reader of the file's default collapses; its target says what its source says."""
    out = translate_xliff(xliff_2('    <unit id="u"><segment><source xml:space="preserve">  Two  spaces. </source>'
                                  "</segment></unit>\n"), same, DE)
    assert '<target xml:space="preserve">  Two  spaces. </target>' in out
    out = translate_xliff(xliff_1('<trans-unit id="a"><source xml:space="preserve">A dog. </source></trans-unit>\n'),
                          same, DE)
    assert parsed(out).find(".//x:target", NS1).get("{http://www.w3.org/XML/1998/namespace}space") == "preserve"


@pytest.mark.parametrize("target", ["<target/>", '<target state="new"></target>', '<target xml:space="default"/>'])
def test_an_empty_target_filled_says_the_spaces_its_source_keeps(same, target):
    """An empty ``<target/>`` beside ``<source xml:space="preserve">`` was filled with "Two  spaces. " and
    said nothing of them, as a target written where there was none already did; one that says its own
    ``xml:space`` keeps it."""
    unit = f'<trans-unit id="a"><source xml:space="preserve">Two  spaces. </source>{target}</trans-unit>\n'
    filled = parsed(translate_xliff(xliff_1(unit), same, DE)).find(".//x:target", NS1)
    assert filled.text == "Two  spaces. "
    said = "default" if "default" in target else "preserve"
    assert filled.get("{http://www.w3.org/XML/1998/namespace}space") == said


@pytest.mark.parametrize("source", ["{0}  items", "https://x.org  is ours", '<x id="1"/>  items', "%s\titems",
                                    '<g id="1">{0}  items</g>', '<g id="1"><x id="2"/>\titems</g>'])
def test_the_spaces_after_a_code_or_placeholder_that_opens_a_source_are_kept(same, source):
    """The first of two spaces after a protected span or a code was dropped (``{0}  items`` came back
    ``{0} items``), and a tab after one came back a space."""
    unit = f'<trans-unit id="a"><source xml:space="preserve">{source}</source></trans-unit>\n'
    out = translate_xliff(xliff_1(unit), same, DE)
    assert f">{source}</target>" in out


@pytest.mark.parametrize("space", ["\u00a0", "\u202f", "\t"])
def test_a_no_break_space_or_a_tab_after_a_placeholder_among_words_is_kept(space, same, fixed):
    """``{0}&#160;MB`` came back ``{0} MB`` even as its own translation: the no-break space that keeps a number
    and its unit on one line (French's narrow one before ``%``, a tab) was rebuilt after the placeholder as a
    plain space; it is the source's character again, wherever the placeholder goes."""
    unit = f'<trans-unit id="a"><source>Size: {{0}}{space}MB free</source></trans-unit>\n'
    out = translate_xliff(xliff_1(unit), same, DE)
    assert same.given == ["Size: MB free"]
    assert parsed(out).findtext(".//x:target", namespaces=NS1) == f"Size: {{0}}{space}MB free"
    out = translate_xliff(xliff_1(unit), fixed("Frei: MB", [(0, 0), (1, 1), (2, 0)]), DE)
    assert parsed(out).findtext(".//x:target", namespaces=NS1) == f"Frei: {{0}}{space}MB"


@pytest.mark.parametrize("placeholder", ["{0:C2}", "{1,-10}", "{0:yyyy-MM-dd}", "{2,8:N0}", "%1", "%L2", "%12", "%n",
                                         "%Ln"])
def test_a_dotnet_or_qt_placeholder_in_a_source_passes_through_untranslated(same, placeholder):
    """.NET's composite format items (Multilingual App Toolkit's XLIFF of a .resx: ``{0:C2}``,
    ``{1,-10}``) and Qt's and Windows' numbered ones (lconvert's XLIFF of a .ts: ``%1``, ``%n``) went
    to the model as words, which it drops or rewrites."""
    unit = f'<trans-unit id="a"><source>A man has {placeholder} dogs.</source></trans-unit>\n'
    out = translate_xliff(xliff_1(unit), same, DE)
    assert same.given == ["A man has dogs."]
    assert parsed(out).findtext(".//x:target", namespaces=NS1) == f"A man has {placeholder} dogs."


@pytest.mark.parametrize("source", ["<![CDATA[<p>A man has %d dogs and {0} cats.</p>]]>",
                                    "&lt;p&gt;A man has %d dogs and {0} cats.&lt;/p&gt;"])
def test_a_placeholder_in_a_source_holding_html_passes_through_untranslated(same, source):
    """WPML's CDATA and Drupal's escaped HTML were read with HTML's vocabulary alone: the model got
    "%d" and "{0}" as words."""
    unit = f'<trans-unit id="a"><source>{source}</source><target><![CDATA[]]></target></trans-unit>\n'
    out = translate_xliff(xliff_1(unit), same, DE)
    assert same.given == ["A man has dogs and cats."]
    assert f'<target {STATE}>{source}</target>' in out


def test_a_placeholder_in_an_html_page_is_words(same):
    """Only an XLIFF source's HTML protects them: on a web page "{0}" is the page's own text."""
    assert translate_markup(["<p>A man has {0} dogs.</p>"], same) == ["<p>A man has {0} dogs.</p>"]
    assert same.given == ["A man has {0} dogs."]


@pytest.mark.parametrize("source", ["The man is 100% sure.", "A 50%-off sale.", "Set {a, b} of dogs."])
def test_a_percent_sign_or_braces_in_prose_are_words(same, source):
    translate_xliff(xliff_1(f'<trans-unit id="a"><source>{source}</source></trans-unit>\n'), same, DE)
    assert same.given == [source]


def test_an_xliff_1_bx_and_ex_and_an_xliff_2_sm_and_em_keep_their_order(mirror):
    """The words turned around, the end code came before its start (``APPLE. <ex id="6" rid="3"/>THE
    <bx id="5" rid="3"/>EAT``), as an <ept> before its <bpt> no longer did: now the two go around "EAT",
    the translation of the words between them (attnmt.documents.spans.range_points)."""
    unit = '<trans-unit id="a"><source>A woman wants to <bx id="5" rid="3"/>eat <ex id="6" rid="3"/>the apple.</source>'
    out = translate_xliff(xliff_1(f"{unit}</trans-unit>\n"), mirror, DE)
    assert f'<target {STATE}>APPLE. THE <bx id="5" rid="3"/>EAT <ex id="6" rid="3"/>TO WANTS WOMAN A</target>' in out
    segment = '<segment><source>A woman wants to <sm id="m1" type="term"/>eat <em startRef="m1"/>the apple.</source>'
    out = translate_xliff(xliff_2(f'<unit id="u">{segment}</segment></unit>\n'), mirror, DE)
    assert '<target>APPLE. THE <sm id="m1" type="term"/>EAT <em startRef="m1"/>TO WANTS WOMAN A</target>' in out


def test_an_end_code_whose_start_is_not_in_its_segment_stays_where_its_words_take_it(mirror):
    """An isolated <ex/>, and an <em/> whose <sm/> is in the segment before: with no start to change
    places with, each is placed as any other code is, where its point in the source maps to: glued
    to the end of "eats" and of "cat", after their translations (attnmt.documents.spans, rule 2)."""
    unit = '<trans-unit id="a"><source>A woman eats<ex id="9" rid="4"/> the apple.</source></trans-unit>\n'
    out = translate_xliff(xliff_1(unit), mirror, DE)
    assert f'<target {STATE}>APPLE. THE EATS<ex id="9" rid="4"/> WOMAN A</target>' in out
    unit = ('<unit id="u"><segment><source>A <sm id="m1"/>dog runs.</source></segment>'
            '<segment><source>The cat<em startRef="m1"/> sleeps.</source></segment></unit>\n')
    out = translate_xliff(xliff_2(unit), mirror, DE)
    assert '<target>RUNS. <sm id="m1"/>DOG A</target>' in out
    assert '<target>SLEEPS. CAT<em startRef="m1"/> THE</target>' in out


@pytest.mark.parametrize("source, target", [
    ('A <g id="1">red <bx id="2" rid="1"/>bike</g> and a <ex id="3" rid="1"/>car.',
     'CAR. A AND <bx id="2" rid="1"/><g id="1"><ex id="3" rid="1"/>BIKE RED</g> A'),
    ('A <bx id="2" rid="1"/>red <g id="1">bike <ex id="3" rid="1"/>and</g> a car.',
     'CAR. A <bx id="2" rid="1"/><g id="1">AND BIKE<ex id="3" rid="1"/></g> RED A'),
    ('A <g id="1">red <bx id="2" rid="1"/>bike</g> and <g id="4">a <ex id="3" rid="1"/>car.</g>',
     '<g id="4">CAR. A<bx id="2" rid="1"/></g> AND <g id="1"><ex id="3" rid="1"/>BIKE RED</g> A'),
])
def test_an_xliff_1_bx_and_ex_across_a_g_keep_their_order(mirror, source, target):
    """One code in a <g> and the other outside it (or in another <g>), the words turned around: the
    <ex/> came before its <bx/>, an invalid file, as only codes in one element changed places.
    Now the two change places whatever elements they stand in."""
    out = translate_xliff(xliff_1(f'<trans-unit id="a"><source>{source}</source></trans-unit>\n'), mirror, DE)
    assert f"<target {STATE}>{target}</target>" in out


def test_an_xliff_2_sm_and_em_across_a_pc_keep_their_order(mirror):
    """As a <bx/> and <ex/> across a <g> do: the <em/> in the <pc> came before its <sm/> outside it."""
    source = 'A <sm id="m1"/>red <pc id="p1">bike <em startRef="m1"/>and</pc> a car.'
    out = translate_xliff(xliff_2(f'<unit id="u"><segment><source>{source}</source></segment></unit>\n'), mirror, DE)
    assert '<target>CAR. A <sm id="m1"/><pc id="p1">AND BIKE<em startRef="m1"/></pc> RED A</target>' in out


def test_a_bx_and_ex_keep_their_order_in_an_xliff_file_that_declares_no_namespace(mirror):
    """An XLIFF 1.x file without xmlns is read as XLIFF, and its codes are XLIFF's by their names."""
    unit = '<trans-unit id="a"><source>A woman wants to <bx id="5" rid="3"/>eat <ex id="6" rid="3"/>the apple.</source>'
    text = xliff_1(f"{unit}</trans-unit>\n").replace(' xmlns="urn:oasis:names:tc:xliff:document:1.2"', "")
    out = translate_xliff(text, mirror, DE)
    assert f'<target {STATE}>APPLE. THE <bx id="5" rid="3"/>EAT <ex id="6" rid="3"/>TO WANTS WOMAN A</target>' in out


def test_a_target_that_says_it_is_to_translate_or_copies_its_source_is_filled_again(mirror):
    """Okapi's copied sources and attnmt's own needs-translation targets were kept as translations,
    nothing translated (exit 0); a copy that says it was translated, and a final target, stay."""
    units = ('<trans-unit id="a"><source>A dog.</source><target xml:lang="de">A dog.</target></trans-unit>\n'
             '<trans-unit id="b"><source>A cat.</source><target state="needs-translation">A cat.</target>'
             '</trans-unit>\n'
             '<trans-unit id="c"><source>A red car.</source><target state="new">Ein Auto.</target></trans-unit>\n'
             '<trans-unit id="d"><source>OK.</source><target state="translated">OK.</target></trans-unit>\n'
             '<trans-unit id="e"><source>A cow.</source><target state="final">Eine Kuh.</target></trans-unit>\n')
    with pytest.warns(AttnmtWarning, match=r"^input: 2 unit\(s\) kept the translation their target holds; .*"
                                           r'state="needs-translation"$'):
        out = parsed(translate_xliff(xliff_1(units), mirror, DE))
    targets = out.findall(".//x:target", namespaces=NS1)
    assert [(target.text, target.get("state")) for target in targets] == [
        ("DOG. A", "needs-review-translation"), ("CAT. A", "needs-review-translation"),
        ("CAR. RED A", "needs-review-translation"), ("OK.", "translated"), ("Eine Kuh.", "final")]
    assert mirror.given == ["A dog.", "A cat.", "A red car."]


def test_an_xliff_2_segment_that_is_initial_or_copies_its_source_is_filled_again(mirror):
    units = ('    <unit id="u1">\n'
             '      <segment state="initial"><source>A dog.</source><target>Ein Hund?</target></segment>\n'
             '      <segment><source>A cat.</source><target>A cat.</target></segment>\n'
             '      <segment state="reviewed"><source>A cow.</source><target>A cow.</target></segment>\n'
             '      <segment><source>A red car.</source><target>Ein rotes Auto.</target></segment>\n    </unit>\n')
    with pytest.warns(AttnmtWarning, match=r'2 segment\(s\) kept .* set the segment\'s state="initial"$'):
        out = parsed(translate_xliff(xliff_2(units), mirror, DE))
    segments = out.findall(".//x:segment", namespaces=NS2)
    assert [(segment.get("state"), segment.findtext("x:target", namespaces=NS2)) for segment in segments] == [
        ("translated", "DOG. A"), ("translated", "CAT. A"), ("reviewed", "A cow."), (None, "Ein rotes Auto.")]
    assert mirror.given == ["A dog.", "A cat."]


def test_a_segments_substate_goes_with_the_state_attnmt_replaces(mirror):
    """XLIFF 2's subState qualifies the state: a segment went from initial to translated still saying
    subState="acme:draft".  A segment kept as it is keeps its own."""
    units = ('    <unit id="u1">\n'
             '      <segment state="initial" subState="acme:draft"><source>A dog.</source></segment>\n'
             '      <segment state="final" subState="acme:ok"><source>A cat.</source><target>Eine Katze.</target>'
             "</segment>\n    </unit>\n")
    with pytest.warns(AttnmtWarning, match="1 segment"):
        out = parsed(translate_xliff(xliff_2(units), mirror, DE))
    assert [(segment.get("state"), segment.get("subState")) for segment in out.iterfind(".//x:segment", NS2)] == [
        ("translated", None), ("final", "acme:ok")]


def test_the_empty_segment_of_a_target_with_text_is_filled_and_its_other_segments_kept(mirror):
    """Trados's unit with one segment translated and the next empty: the whole target was kept."""
    unit = ('<trans-unit id="d4"><source>A child plays. A girl sings. A boy runs.</source><seg-source>'
            '<mrk mtype="seg" mid="4">A child plays.</mrk> <mrk mtype="seg" mid="5">A girl sings.</mrk> '
            '<mrk mtype="seg" mid="6">A boy runs.</mrk></seg-source><target><mrk mtype="seg" mid="4">Ein Kind '
            'spielt.</mrk> <mrk mtype="seg" mid="5"/> <mrk mtype="seg" mid="6">A boy runs.</mrk></target>'
            '</trans-unit>\n')
    out = translate_xliff(xliff_1(unit), mirror, DE)
    assert (f'</seg-source><target {STATE}><mrk mtype="seg" mid="4">Ein Kind spielt.</mrk> '
            '<mrk mtype="seg" mid="5">SINGS. GIRL A</mrk> <mrk mtype="seg" mid="6">RUNS. BOY A</mrk></target>') in out
    assert mirror.given == ["A girl sings.", "A boy runs."]



@pytest.mark.parametrize("start, end", [
    ('<x id="START_LINK" ctype="x-a" equiv-text="&lt;a&gt;"/>',
     '<x id="CLOSE_LINK" ctype="x-a" equiv-text="&lt;/a&gt;"/>'),
    ('<x id="START_BOLD_TEXT_1" ctype="x-b"/>', '<x id="CLOSE_BOLD_TEXT" ctype="x-b"/>'),
    ('<x id="1" equiv-text="&lt;span class=&quot;a&quot;&gt;"/>', '<x id="2" equiv-text="&lt;/span&gt;"/>'),
])
def test_an_xliff_1_placeholder_for_a_tag_keeps_its_end_after_its_start(mirror, start, end):
    """Angular's placeholders for a link's tags (START_LINK, CLOSE_LINK; a counter after a start's
    name, START_BOLD_TEXT_1, closed by CLOSE_BOLD_TEXT), and any <x/> that shows a start or end tag:
    the words turned around, the end came before its start, which Angular rejects ("Unexpected
    closing tag"): now the two go around "HERE", the translation of the word between them, as a <bx/>
    and <ex/> do."""
    unit = f'<trans-unit id="a"><source>Click {start}here {end}to see the dog.</source></trans-unit>\n'
    out = translate_xliff(xliff_1(unit), mirror, DE)
    assert f"<target {STATE}>DOG. THE SEE TO {start}HERE {end}CLICK</target>" in out


def test_an_xliff_2_ph_for_a_tag_keeps_its_end_after_its_start(mirror):
    """XLIFF 2's <ph/> as Angular writes it, the placeholder's name in ``equiv``, the tag in ``disp``."""
    start = '<ph id="0" equiv="START_TAG_SPAN" disp="&lt;span&gt;"/>'
    end = '<ph id="1" equiv="CLOSE_TAG_SPAN" disp="&lt;/span&gt;"/>'
    segment = f"<segment><source>Click {start}here {end}to see the dog.</source></segment>"
    out = translate_xliff(xliff_2(f'<unit id="u">{segment}</unit>\n'), mirror, DE)
    assert f"<target>DOG. THE SEE TO {start}HERE {end}CLICK</target>" in out


@pytest.mark.parametrize("start, end", [('<x id="START_LINK"/>', '<x id="CLOSE_LINK"/>'),
                                        ('<bx id="5" rid="3"/>', '<ex id="6" rid="3"/>')])
def test_a_tag_pair_around_one_word_wraps_that_words_translation(mirror, start, end):
    """The end glued to "here" went before "TO", the translation of the word after it, and the pair
    then changed places: ``{start}TO{end} HERE``, the link on the wrong word.  The end goes after
    the translation of the word it is glued to (attnmt.documents.spans, rule 2)."""
    unit = f'<trans-unit id="a"><source>Click {start}here{end} to see the dog.</source></trans-unit>\n'
    out = translate_xliff(xliff_1(unit), mirror, DE)
    assert f"<target {STATE}>DOG. THE SEE TO {start}HERE{end} CLICK</target>" in out


def test_nested_tags_of_one_name_each_keep_their_end_after_their_start(mirror):
    """Two <span>s one in the other (START_TAG_SPAN, START_TAG_SPAN_1, their ends both CLOSE_TAG_SPAN):
    each end closes the start opened last, so no end comes before a start, and each pair goes around
    the translation of its words ("BIKE BIG RED", "BIG")."""
    start, inner, end = '<x id="START_TAG_SPAN"/>', '<x id="START_TAG_SPAN_1"/>', '<x id="CLOSE_TAG_SPAN"/>'
    unit = f'<trans-unit id="a"><source>A {start}red {inner}big {end}bike {end}rides.</source></trans-unit>\n'
    out = translate_xliff(xliff_1(unit), mirror, DE)
    assert f"<target {STATE}>RIDES. {start}BIKE {inner}BIG {end}RED {end}A</target>" in out


@pytest.mark.parametrize("code, edge", [
    ('<x id="START_LINK"/>', (("angular", "LINK"), True)),
    ('<x id="CLOSE_LINK"/>', (("angular", "LINK"), False)),
    ('<x id="START_LINK_2" equiv-text="&lt;a href=&quot;/x&quot;&gt;"/>', (("angular", "LINK"), True)),
    ('<x id="START_HEADING_LEVEL1"/>', (("angular", "HEADING_LEVEL1"), True)),
    ('<ph id="3" equiv="CLOSE_BLOCK_IF" disp="}"/>', (("angular", "BLOCK_IF"), False)),
    ('<x id="7" equiv-text="&lt;A href=&quot;/x&quot;&gt;"/>', (("tag", "a"), True)),
    ('<ph id="8" disp="&lt;/b&gt;"/>', (("tag", "b"), False)),
    ('<x id="INTERPOLATION"/>', None),
    ('<x id="LINE_BREAK" equiv-text="&lt;br/&gt;"/>', None),
    ('<x id="TAG_IMG" equiv-text="&lt;img src=&quot;a&quot;&gt;"/>', None),
    ('<x id="1" equiv-text="&lt;your name&gt;"/>', None),
    ('<g id="START_LINK"/>', None),
])
def test_a_placeholder_is_a_tags_start_or_end_by_angulars_name_or_the_tag_it_shows(code, edge):
    """Angular's START_ and CLOSE_ names, a counter left out; else a start or end tag shown; an
    interpolation, a void's tag, words in brackets and a <g> are no range's start or end."""
    assert tag_placeholder(etree.fromstring(code)) == edge


def test_a_g_around_a_space_alone_is_kept_whole(mirror):
    """``A man<g id="1"> </g>rides a bike.``: read as words, the <g> was emptied and its space went
    outside it (``Ein Mann <g id="1"/>fährt``); now it is kept whole, as HTML keeps an element
    around spaces alone, and it still parts the words around it."""
    unit = '<trans-unit id="a"><source>A man<g id="1"> </g>rides a bike.</source></trans-unit>\n'
    out = translate_xliff(xliff_1(unit), mirror, DE)
    assert f'<target {STATE}>BIKE. A<g id="1"> </g>RIDES MAN A</target>' in out


@pytest.mark.parametrize("source, target", [
    ("A dog &lt;!-- x --&gt; runs.", "&lt;!-- x --&gt; RUNS. DOG A"),
    ("<![CDATA[A dog <!-- x --> runs.]]>", "<![CDATA[<!-- x --> RUNS. DOG A]]>"),
    ("<![CDATA[<!-- x --> A dog runs.]]>", "<![CDATA[<!-- x --> RUNS. DOG A]]>")])
def test_an_html_comment_in_a_sources_text_is_kept_whole_not_translated(mirror, source, target):
    """Escaped or in a CDATA section, the comment is text to XML, but markup to whoever wrote it (Okapi's
    code finder makes such text an inline code): read as words, it came back ``RUNS. --> X <!-- DOG A``.
    It stays text, written as the source writes it, and goes where the word after it went."""
    out = translate_xliff(xliff_1(f'<trans-unit id="a"><source>{source}</source></trans-unit>\n'), mirror, DE)
    assert f"<source>{source}</source><target {STATE}>{target}</target>" in out
    unit = f'<unit id="a"><segment><source>{source}</source></segment></unit>\n'
    assert f"<source>{source}</source><target>{target}</target>" in translate_xliff(xliff_2(unit), mirror, DE)
    assert mirror.given == ["A dog runs.", "A dog runs."]


def test_an_unclosed_comment_in_a_sources_text_is_words_each_read_to_the_next(same):
    """Each ``<!--`` is read to the next, not to the end of the text: 100,000 unclosed ones are not
    5 billion steps of the pattern."""
    assert list(XliffVocabulary.protected.finditer("a <!--" * 100_000)) == []
    source = "A dog &lt;!-- runs &lt;!-- fast."
    out = translate_xliff(xliff_1(f'<trans-unit id="a"><source>{source}</source></trans-unit>\n'), same, DE)
    assert f"<target {STATE}>{source}</target>" in out


def test_the_text_of_a_sub_inside_a_code_is_translated_in_place(mirror):
    """A ``<sub>`` in a ``<ph>`` or ``<bpt>`` (the alt text of an image, a link's title) is text a reader
    sees: kept whole with its code, it stayed in English in the target."""
    unit = ('      <trans-unit id="1">\n        <source>Click <ph id="1">&lt;img alt="<sub>A red car</sub>"&gt;</ph> '
            'to <bpt id="2">&lt;a title="<sub>The full guide</sub>"&gt;</bpt>open<ept id="2">&lt;/a&gt;</ept> it.'
            '</source>\n      </trans-unit>\n')
    target = parsed(translate_xliff(xliff_1(unit), mirror, DE)).find(".//x:target", namespaces=NS1)
    subs = {sub.getparent().get("id"): sub.text for sub in target.iterfind(".//x:sub", namespaces=NS1)}
    assert subs == {"1": "CAR RED A", "2": "GUIDE FULL THE"}
    assert sorted(mirror.given) == ["A red car", "Click to open it.", "The full guide"]
    assert "".join(target.itertext()) == 'IT. <a title="GUIDE FULL THE">OPEN</a> <img alt="CAR RED A"> TO CLICK'


def test_the_words_of_an_xliff_2_span_that_says_translate_no_are_kept(upper):
    """``<sc translate="no"/>`` and its ``<ec/>`` are two empty codes: the words between them, no code's
    own, went to the model and came back translated (``CTRL S``)."""
    source = 'Press <sc id="a" translate="no"/>Ctrl S<ec startRef="a"/> to save <sc id="b"/>now<ec startRef="b"/>.'
    unit = f'    <unit id="u1"><segment><source>{source}</source></segment></unit>\n'
    out = translate_xliff(xliff_2(unit), upper, DE)
    assert ('<target>PRESS <sc id="a" translate="no"/>Ctrl S<ec startRef="a"/> TO SAVE '
            '<sc id="b"/>NOW<ec startRef="b"/>.</target>') in out
    assert upper.given == ["Press to save now."] and "attnmt" not in out


@pytest.mark.parametrize("unit, source", [
    ('datatype="html"', "Our shop is &lt;strong&gt;closed&lt;/strong&gt; on Sunday."),
    ("", '<![CDATA[Read the <a href="https://example.com/terms">terms</a> now.]]>'),
])
def test_html_tags_among_an_html_sources_words_are_kept_as_html(same, mirror, unit, source):
    """WPML's and Drupal's units hold HTML whose tags stand among its words, in a unit saying
    ``datatype="html"`` or in a CDATA section: read as words, ``<a href="...">terms</a>`` came back
    ``<A HREF="">TERMS https://example.com/terms</A>``, the link emptied, its URL moved out of it."""
    text = xliff_1(f'<trans-unit id="a" {unit}><source>{source}</source></trans-unit>\n')
    translate_xliff(text, same, DE)
    assert same.given == (["Our shop is closed on Sunday."] if unit else ["Read the terms now."])
    target = parsed(translate_xliff(text, mirror, DE)).find(".//x:target", NS1).text
    kept = ["<strong>", "</strong>"] if unit else ['<a href="https://example.com/terms">', "</a>"]
    assert all(tag in target for tag in kept)
