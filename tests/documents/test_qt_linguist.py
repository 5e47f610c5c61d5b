"""Qt Linguist files (attnmt.documents.qt_linguist): each message's source translated into its
translation, the rest of the file as it came, with the stand-in translators of conftest.py."""

import warnings

import pytest
from conftest import Judging
from lxml import etree

from attnmt.decoding.quality import Assessment
from attnmt.documents.files import translate_file_bytes
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.review import Review
from attnmt.errors import AttnmtWarning, UserError

DE = DocumentOptions(target_lang="de")


def ts(messages: str, root: str = 'language="de_DE" sourcelanguage="en_US"') -> str:
    return ('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n'
            f'<TS version="2.1" {root}>\n<context>\n    <name>MainWindow</name>\n{messages}</context>\n</TS>\n')


def translated(text: str, translator, options: DocumentOptions = DE) -> str:
    return translate_file_bytes(text.encode(), "app_de.xml", translator, options).decode()


def test_the_translation_is_written_the_source_name_and_comments_kept(mirror):
    """Read as plain XML, <source> became "FILE OPEN", the class name "MAINWINDOW" and the
    comments were translated, and <translation> stayed empty: Qt Linguist saw nothing done."""
    text = ts('    <message>\n        <location filename="../src/main.cpp" line="42"/>\n'
              "        <source>Open file</source>\n        <comment>menu entry</comment>\n"
              "        <extracomment>File menu</extracomment>\n"
              '        <translation type="unfinished"></translation>\n    </message>\n')
    assert translated(text, mirror) == text.replace(
        '<translation type="unfinished"></translation>', '<translation type="unfinished">FILE OPEN</translation>')


def test_each_empty_plural_form_gets_the_translation_its_count_kept(upper):
    text = ts('    <message numerus="yes">\n        <source>Deleted %n files</source>\n'
              '        <translation type="unfinished">\n            <numerusform></numerusform>\n'
              "            <numerusform></numerusform>\n        </translation>\n    </message>\n")
    forms = etree.fromstring(translated(text, upper).split("\n", 2)[2].encode()).findall(".//numerusform")
    assert [form.text for form in forms] == ["DELETED %n FILES", "DELETED %n FILES"]


@pytest.mark.parametrize(("language", "count"), [("de_DE", 2), ("ja", 1), ("pl", 3), ("ar", 6)])
def test_an_empty_plural_translation_gets_as_many_forms_as_its_language_has(upper, language, count):
    """A plural message with an empty translation got one <numerusform>: German has two (lrelease padded the
    second empty, and the program showed its English source for every count but 1)."""
    text = ts('    <message numerus="yes">\n        <source>Deleted %n files</source>\n'
              '        <translation type="unfinished"></translation>\n    </message>\n', f'language="{language}"')
    forms = etree.fromstring(translated(text, upper, DocumentOptions()).split("\n", 2)[2].encode()).findall(
        ".//numerusform")
    assert [form.text for form in forms] == ["DELETED %n FILES"] * count


def test_one_empty_plural_form_of_lupdate_without_a_language_is_given_the_targets_others(upper):
    """lupdate writes one empty <numerusform> where the file names no language: given German, the file
    gets its second, laid out as the first."""
    text = ts('    <message numerus="yes">\n        <source>Deleted %n files</source>\n'
              '        <translation type="unfinished">\n            <numerusform></numerusform>\n'
              "        </translation>\n    </message>\n", 'sourcelanguage="en"')
    form = "            <numerusform>DELETED %n FILES</numerusform>\n"
    assert f'        <translation type="unfinished">\n{form}{form}        </translation>\n' in translated(text, upper)


def test_qt_placeholders_pass_through_untranslated(upper):
    text = ts("    <message>\n        <source>Copied %1 of %L2 items</source>\n"
              '        <translation type="unfinished"></translation>\n    </message>\n')
    assert ">COPIED %1 OF %L2 ITEMS</translation>" in translated(text, upper)


def test_a_finished_or_retired_translation_is_kept(upper):
    """A person's translation is kept (one warning counts it), and so is a message no longer in the code."""
    text = ts("    <message>\n        <source>Save</source>\n        <translation>Speichern</translation>\n"
              '    </message>\n    <message>\n        <source>Old text</source>\n'
              '        <translation type="vanished">Alter Text</translation>\n    </message>\n'
              '    <message>\n        <source>Gone</source>\n        <translation type="obsolete"></translation>\n'
              "    </message>\n")
    with pytest.warns(AttnmtWarning, match=r"app_de.xml: 1 message\(s\) kept the translation they hold"):
        written = translated(text, upper)
    assert written == text


def test_a_missing_translation_is_added_after_the_comments(upper):
    text = ts("    <message>\n        <source>Quit</source>\n        <extracomment>tooltip</extracomment>\n"
              "    </message>\n")
    assert translated(text, upper) == text.replace(
        "<extracomment>tooltip</extracomment>\n",
        '<extracomment>tooltip</extracomment>\n        <translation type="unfinished">QUIT</translation>\n')


def test_rich_text_is_translated_as_html_its_tags_kept(upper):
    """Qt Designer's rich text, ``<head/>`` and all: read as words, its tags went to the model
    upper-cased and the ``%1`` left its ``<b>``."""
    text = ts("    <message>\n        <source>&lt;html&gt;&lt;head/&gt;&lt;body&gt;&lt;p&gt;Copy &lt;b&gt;%1&lt;/b&gt; "
              "now&lt;/p&gt;&lt;/body&gt;&lt;/html&gt;</source>\n"
              '        <translation type="unfinished"></translation>\n    </message>\n')
    target = etree.fromstring(translated(text, upper).split("\n", 2)[2].encode()).find(".//translation").text
    page = etree.fromstring(target, etree.HTMLParser())
    assert "".join(page.find(".//p").itertext()) == "COPY %1 NOW"
    assert page.find(".//p/b").text == "%1"


def test_the_file_says_the_target_language_and_one_for_another_is_refused(upper):
    text = ts("    <message>\n        <source>Quit</source>\n        <translation type=\"unfinished\"/>\n"
              "    </message>\n", root="")
    assert '<TS version="2.1" language="de">' in translated(text, upper)
    with pytest.raises(UserError, match=r"app_de.xml: the file's <TS language> is fr_FR, the target language asked "
                                        r"for de: translate it into fr_FR, or take a file for de"):
        translated(text.replace('version="2.1"', 'version="2.1" language="fr_FR"'), upper)


def test_a_file_for_another_language_is_refused_in_one_line_without_a_warning_before(upper):
    """The count of kept translations was warned of, then the file refused: two lines for one fault."""
    text = ts("    <message>\n        <source>Quit</source>\n        <translation>Beenden</translation>\n"
              "    </message>\n    <message>\n        <source>Open</source>\n"
              "        <translation type=\"unfinished\"/>\n    </message>\n", root='language="pl_PL"')
    with warnings.catch_warnings(record=True) as caught, pytest.raises(UserError, match="<TS language> is pl_PL"):
        warnings.simplefilter("always")
        translated(text, upper)
    assert [str(warning.message) for warning in caught] == []


def test_a_file_in_another_source_language_is_refused(upper):
    text = ts("    <message>\n        <source>Quitter</source>\n        <translation type=\"unfinished\"/>\n"
              "    </message>\n", root='sourcelanguage="fr"')
    with pytest.raises(UserError, match=r"the file's <TS sourcelanguage> is fr, the source language asked for en"):
        translated(text, upper, DocumentOptions(target_lang="de", source_lang="en", source_lang_known=True))


def test_a_translation_whose_sentences_all_kept_their_source_stays_empty(upper):
    """--below-quality source: the source copied into the translation was shipped by lrelease as one."""
    review = Review(lambda sources, texts: [Assessment(0.9 if "Quit" in s else 0.2, [], False) for s in sources],
                    0.5, source_below=True)
    text = ts('    <message>\n        <source>Quit</source>\n        <translation type="unfinished"/>\n    </message>\n'
              '    <message>\n        <source>Open file</source>\n        <translation type="unfinished"/>\n'
              "    </message>\n")
    written = translate_file_bytes(text.encode(), "app_de.xml", upper, DE, review=review).decode()
    empty = '<translation type="unfinished"/>'
    assert written == text.replace(empty, '<translation type="unfinished">QUIT</translation>', 1)


def test_an_unfinished_copy_of_the_source_is_translated_a_finished_one_kept(upper):
    """Qt Linguist's "Copy from source" left the English in place: it was counted a translation and kept."""
    text = ts("    <message>\n        <source>Quit</source>\n"
              '        <translation type="unfinished">Quit</translation>\n    </message>\n'
              "    <message>\n        <source>OK</source>\n        <translation>OK</translation>\n    </message>\n")
    with pytest.warns(AttnmtWarning, match=r"1 message\(s\) kept"):
        written = translated(text, upper)
    assert written == text.replace('"unfinished">Quit<', '"unfinished">QUIT<')


@pytest.mark.parametrize("source, read, written", [("&amp;Open file", "Open file", "&amp;FILE OPEN"),
                                                   ("Save &amp;As...", "Save As...", "&amp;AS... SAVE"),
                                                   ("Salt &amp;&amp; pepper", "Salt && pepper",
                                                    "PEPPER &amp;&amp; SALT")])
def test_the_keyboard_accelerator_is_taken_out_and_put_before_the_first_letter(mirror, source, read, written):
    """The model read "&Open" as a word, and wrote it, or a lone "&", wherever its alignment went; Qt
    Linguist then flags the missing accelerator.  "&&" is an ampersand, and goes to the model (but between the
    words of a name, which passes through: test_xml_ampersand_names)."""
    text = ts(f"    <message>\n        <source>{source}</source>\n        <translation type=\"unfinished\"/>\n"
              "    </message>\n")
    assert f'<translation type="unfinished">{written}</translation>' in translated(text, mirror)
    assert mirror.given == [read]


@pytest.mark.parametrize("name", ["app_de.ts", "APP_DE.TS"])
def test_a_ts_file_is_translated_by_its_name_as_qt_linguist(mirror, name):
    """.ts was "not a format attnmt translates", in the CLI and the server alike."""
    text = ts("    <message>\n        <source>a dog</source>\n"
              '        <translation type="unfinished"></translation>\n    </message>\n')
    out = translate_file_bytes(text.encode(), name, mirror, DE).decode()
    assert etree.fromstring(out.encode()).findtext(".//translation") == "DOG A"


@pytest.mark.parametrize("data, what", [
    (b"import { Component } from '@angular/core';\nexport const a: number = 1;\n", "TypeScript source"),
    (b"\xef\xbb\xbf// a <b> comment\nlet a = 1;\n", "TypeScript source"),
    (b'<?xml version="1.0"?>\n<!-- a -->\n<doc><p>a dog</p></doc>\n', "XML whose root is <doc>"),
    ((b"G\x40\x00\x10" + bytes(184)) * 3, "an MPEG transport stream \\(a video\\)"),
])
def test_a_ts_file_that_is_no_qt_linguist_file_is_refused_in_one_line_saying_what_it_looks_like(mirror, data,
                                                                                                  what):
    with pytest.raises(UserError, match=rf"^main\.ts looks like {what}, not a Qt Linguist file \(XML whose root "
                                        r"is <TS>\), and is not a format attnmt translates$"):
        translate_file_bytes(data, "main.ts", mirror, DE)
    assert mirror.given == []


@pytest.mark.parametrize("source, given", [('Walk 10<byte value="xa0"/>km today', "Walk 10 km today"),
                                           ('Name<byte value="x9"/>Size', "Name Size"),
                                           ('First line<byte value="xa"/>Second line', "First line")])
def test_a_byte_that_stands_for_a_space_or_a_line_break_parts_the_words_around_it(same, source, given):
    """lupdate writes a control character or a space past ASCII as a ``<byte>``: glued, "10<byte
    value="xa0"/>km" reached the model as "10km", and a line's end joined two lines into one sentence."""
    text = ts(f"    <message>\n        <source>{source}</source>\n        <translation type=\"unfinished\"/>\n"
              "    </message>\n")
    assert translated(text, same) == text.replace('<translation type="unfinished"/>',
                                                  f'<translation type="unfinished">{source}</translation>')
    assert same.given[0] == given


@pytest.mark.parametrize("data", [b"", b"  \n", b"\xef\xbb\xbf\n", b"\xff\xfe"])
def test_an_empty_ts_file_comes_back_as_it_is(mirror, data):
    """A .ts of nothing but spaces (lupdate not run yet, a file touched) was refused as "looks like
    TypeScript source": it comes back as it is, as an empty .resx or .xml does."""
    assert translate_file_bytes(data, "app_de.ts", mirror, DE) == data
    assert mirror.given == []


def test_rich_text_with_words_after_its_tags_keeps_its_tags(upper):
    """A QLabel shows a string with a tag before its first line break as rich text (Qt::mightBeRichText):
    read as words, ``<b>Warning:</b> the file <i>%1</i> ...`` went to the model tags and all, and came back
    without them."""
    text = ts("    <message>\n        <source>&lt;b&gt;Warning:&lt;/b&gt; the file &lt;i&gt;%1&lt;/i&gt; will be "
              "deleted.</source>\n        <translation type=\"unfinished\"></translation>\n    </message>\n")
    target = etree.fromstring(translated(text, upper).split("\n", 2)[2].encode()).find(".//translation").text
    assert target == "<b>WARNING:</b> THE FILE <i>%1</i> WILL BE DELETED."


def test_each_empty_length_variant_is_translated_from_the_sources_variant_in_its_place(upper):
    """The variants were read as the translation's content: kept empty, with a warning that the
    translation was kept, and the program went on showing the English source."""
    text = ts("    <message>\n        <source>Open the selected file\u009cOpen file</source>\n"
              '        <translation type="unfinished" variants="yes">\n            <lengthvariant></lengthvariant>\n'
              "            <lengthvariant></lengthvariant>\n        </translation>\n    </message>\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error", AttnmtWarning)
        out = translated(text, upper)
    assert out == text.replace("<lengthvariant></lengthvariant>\n            <lengthvariant></lengthvariant>",
                               "<lengthvariant>OPEN THE SELECTED FILE</lengthvariant>\n"
                               "            <lengthvariant>OPEN FILE</lengthvariant>")


def test_a_sources_length_variants_are_written_as_lengthvariants_of_an_empty_translation(upper):
    """The source was read as one sentence, its U+009C where the model put it, or dropped."""
    text = ts("    <message>\n        <source>Open the selected file\u009cOpen file</source>\n"
              '        <translation type="unfinished"></translation>\n    </message>\n')
    assert translated(text, upper) == text.replace(
        '<translation type="unfinished"></translation>',
        '<translation type="unfinished" variants="yes">\n            <lengthvariant>OPEN THE SELECTED FILE'
        "</lengthvariant>\n            <lengthvariant>OPEN FILE</lengthvariant>\n        </translation>")


def test_each_length_variant_of_a_plural_form_gets_the_sources_whole_where_it_has_no_variants(upper):
    text = ts('    <message numerus="yes">\n        <source>Deleted %n files</source>\n'
              '        <translation type="unfinished">\n            <numerusform variants="yes">\n'
              "                <lengthvariant></lengthvariant>\n                <lengthvariant></lengthvariant>\n"
              "            </numerusform>\n        </translation>\n    </message>\n", 'language="ja"')
    forms = etree.fromstring(translated(text, upper, DocumentOptions()).split("\n", 2)[2].encode()).findall(
        ".//lengthvariant")
    assert [form.text for form in forms] == ["DELETED %n FILES", "DELETED %n FILES"]


def test_a_file_whose_doctype_declares_an_entity_is_read_as_a_linguist_file(upper):
    """A DOCTYPE with an internal subset was no Linguist file's start: the file was refused as "XML whose root
    is <TS>, not a Qt Linguist file (XML whose root is <TS>)"."""
    text = ts("    <message>\n        <source>About &app;</source>\n"
              '        <translation type="unfinished"></translation>\n    </message>\n')
    text = text.replace("<!DOCTYPE TS>", '<!DOCTYPE TS [<!ENTITY app "Foo Viewer">]>')
    assert translated(text, upper).replace("ABOUT", "About") == text.replace(
        '"unfinished"></translation>', '"unfinished">About &app;</translation>')


def test_translations_left_empty_for_garbled_labels_are_counted_in_one_warning(mirror):
    """The demo model's "&File" and "Print" were kept out as garbled labels: the .ts came back as sent, silently."""
    messages = "".join(f"    <message>\n        <source>{source}</source>\n"
                       '        <translation type="unfinished"></translation>\n    </message>\n'
                       for source in ("&amp;File", "Print", "Open the door"))
    judging = Judging(mirror, {"File": 0.0, "Print": 0.1})
    with pytest.warns(AttnmtWarning, match=r"app_de\.xml: 2 translation\(s\) left empty and unfinished"):
        out = translated(ts(messages), judging)
    assert out.count('<translation type="unfinished"></translation>') == 2 and ">DOOR THE OPEN</translation>" in out
