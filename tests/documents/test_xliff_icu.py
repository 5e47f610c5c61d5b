"""ICU messages in XLIFF sources (attnmt.documents.xliff_icu), as Angular's ``messages.xlf`` holds
them: the syntax kept as written, each case's text translated apart; every output parsed with lxml."""

import pytest
from lxml import etree

from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.xliff import translate_xliff

DE = DocumentOptions(target_lang="de")
INTERPOLATION = '<x id="INTERPOLATION" equiv-text="{{count}}"/>'


def angular_1(source: str) -> str:
    return ('<?xml version="1.0" encoding="UTF-8" ?>\n'
            '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n'
            '  <file source-language="en" datatype="plaintext" original="ng2.template">\n    <body>\n'
            f'      <trans-unit id="5a13" datatype="html">\n        <source>{source}</source>\n'
            "      </trans-unit>\n    </body>\n  </file>\n</xliff>\n")


def angular_2(source: str) -> str:
    return ('<?xml version="1.0" encoding="UTF-8" ?>\n'
            '<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="de">\n'
            f'  <file original="ng.template" id="ngi18n">\n    <unit id="5a13">\n      <segment>\n'
            f"        <source>{source}</source>\n      </segment>\n    </unit>\n  </file>\n</xliff>\n")


def target(out: str) -> str:
    """The one target's content as written, its codes with it."""
    found = etree.fromstring(out.encode()).find(".//{*}target")
    inside = etree.tostring(found, encoding="unicode", with_tail=False)
    return inside[inside.index(">") + 1:inside.rindex("</")]


@pytest.mark.parametrize("angular", [angular_1, angular_2])
def test_an_angular_plural_keeps_its_syntax_and_translates_each_case_apart(mirror, angular):
    """The message went to the model whole, one sentence, and came back ``DOGS}} { OTHER DOG} {ONE =1
    DOGS} {NO =0 PLURAL, {VAR_PLURAL,``: Angular's build refuses it."""
    source = f"{{VAR_PLURAL, plural, =0 {{no dogs}} =1 {{one dog}} other {{{INTERPOLATION} dogs}}}}"
    out = translate_xliff(angular(source), mirror, DE)
    assert mirror.given == ["no dogs", "one dog", "dogs"]
    assert target(out) == f"{{VAR_PLURAL, plural, =0 {{DOGS NO}} =1 {{DOG ONE}} other {{{INTERPOLATION} DOGS}}}}"


def test_a_select_nested_in_a_plural_keeps_its_syntax_and_the_number_sign(mirror):
    source = ("{count, plural, offset:1 =0 {nobody} =1 {{VAR_SELECT, select, male {a man} other {a person}}}"
              " other {{name} and # others}}")
    out = translate_xliff(angular_1(source), mirror, DE)
    assert mirror.given == ["nobody", "a man", "a person", "and others"]
    assert target(out) == ("{count, plural, offset:1 =0 {NOBODY} =1 {{VAR_SELECT, select, male {MAN A} "
                           "other {PERSON A}}} other {{name} # OTHERS AND}}")


@pytest.mark.parametrize("source", [
    "{VAR_PLURAL, plural,\n  =0 {none}\n  other {<x id=\"START_BOLD_TEXT\" ctype=\"x-b\"/>many"
    "<x id=\"CLOSE_BOLD_TEXT\" ctype=\"x-b\"/> dogs}\n}",
    "You have {count, plural, one {# item} other {# items}} left.",
    "{VAR_PLURAL, plural, =0 {} other {a dog}}",
])
def test_an_icu_message_translated_as_itself_comes_back_byte_for_byte(same, source):
    out = translate_xliff(angular_1(source), same, DE)
    assert target(out) == source


@pytest.mark.parametrize("source", ["a { b } c", "{VAR_PLURAL, plural, =0 {a dog"])
def test_braces_that_make_no_whole_message_are_read_as_words(same, source):
    out = translate_xliff(angular_1(source), same, DE)
    assert same.given == [source] and target(out) == source


@pytest.mark.parametrize("source, written", [
    ("<![CDATA[{count, plural, one {a dog} other {two dogs}}]]>",
     "<![CDATA[{count, plural, one {DOG A} other {DOGS TWO}}]]>"),
    ('<g id="1">{count, plural, one {a dog} other {two dogs}}</g>',
     '<g id="1">{count, plural, one {DOG A} other {DOGS TWO}}</g>'),
])
def test_an_icu_message_in_a_cdata_section_or_a_code_around_words_keeps_its_syntax(mirror, source, written):
    """Its target stays a CDATA section as its source is (the syntax's stand-ins made it plain text), and a
    message inside a ``<g>`` is read as one as it is at the source's top."""
    out = translate_xliff(angular_1(source), mirror, DE)
    assert mirror.given == ["a dog", "two dogs"]
    assert f">{written}</target>" in out and "attnmt" not in out
