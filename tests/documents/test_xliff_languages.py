"""The languages an XLIFF file names (attnmt.documents.xliff_languages), here those its sources say
of themselves in ``xml:lang``, checked as the file's ``source-language`` (``srcLang``) is, with the
stand-in translators of conftest.py."""

import pytest

from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.xliff import translate_xliff
from attnmt.errors import UserError

DE = DocumentOptions(target_lang="de")


def xliff_1(units: str) -> str:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">\n'
            '<file datatype="plaintext" original="x" source-language="en"><body>\n'
            f'{units}</body></file>\n</xliff>\n')


def test_a_source_whose_xml_lang_names_another_language_is_refused_naming_its_line(same):
    """A French source in an English file went through the English model as English: the file's
    source-language was checked, the source's own xml:lang not."""
    units = ('<trans-unit id="a"><source>A dog.</source></trans-unit>\n'
             '<trans-unit id="b"><source xml:lang="fr">Un chien.</source></trans-unit>\n')
    with pytest.raises(UserError, match=r"^app\.xlf: line 5: the <source>'s xml:lang is fr, the source language "
                                        r"asked for en: translate it from fr, or take a file in en$"):
        translate_xliff(xliff_1(units), same, DE, "app.xlf")
    assert same.given == []


def test_a_trados_seg_source_whose_xml_lang_names_another_language_is_refused(same):
    unit = ('<trans-unit id="a"><source>Un chien.</source><seg-source xml:lang="fr-FR"><mrk mtype="seg" mid="1">'
            'Un chien.</mrk></seg-source></trans-unit>\n')
    with pytest.raises(UserError, match=r"^app\.sdlxliff: line 4: the <seg-source>'s xml:lang is fr-FR, "):
        translate_xliff(xliff_1(unit), same, DE, "app.sdlxliff")


def test_an_xliff_2_segments_source_is_checked_against_the_models_language(same):
    text = ('<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="de">\n'
            '<file id="f"><unit id="u"><segment><source xml:lang="fr">Un chien.</source></segment></unit></file>\n'
            '</xliff>\n')
    with pytest.raises(UserError, match=r"^app\.xlf: line 2: the <source>'s xml:lang is fr, the model's source "
                                        r"language \(from its train\.yaml\) is en: .*--source-lang fr"):
        translate_xliff(text, same, DocumentOptions(target_lang="de", source_lang_option="--source-lang"), "app.xlf")


@pytest.mark.parametrize("lang", ["en-US", "EN", "und", "zxx", ""])
def test_a_source_in_the_language_translated_from_or_naming_none_is_translated(same, lang):
    unit = f'<trans-unit id="a"><source xml:lang="{lang}">A dog.</source></trans-unit>\n'
    assert "<target " in translate_xliff(xliff_1(unit), same, DE)


def test_a_source_not_translated_may_be_in_any_language(same):
    """A unit that says translate="no" gets no target, whatever its source says; where the language
    translated from is not known (no --source-lang, a model naming none), no source is checked."""
    units = ('<trans-unit id="a" translate="no"><source xml:lang="fr">Un chien.</source></trans-unit>\n'
             '<trans-unit id="b"><source>A dog.</source></trans-unit>\n')
    assert "<target " in translate_xliff(xliff_1(units), same, DE)
    unknown = DocumentOptions(target_lang="de", source_lang_known=False)  # the splitter's default alone
    unit = '<trans-unit id="c"><source xml:lang="fr">Un chien.</source></trans-unit>\n'
    assert "<target " in translate_xliff(xliff_1(unit), same, unknown)


def test_memoqs_three_letter_languages_are_read_as_their_two_letter_codes(mirror):
    """memoQ's .mqxliff says source-language="eng" target-language="ger": refused as a file in another language
    than en; a file for French (fre, fra-FR) is still refused."""
    unit = '<trans-unit id="1"><source>A dog runs.</source><target></target></trans-unit>\n'
    options = DocumentOptions(target_lang="de", source_lang="en", source_lang_known=True)
    memoq = xliff_1(unit).replace('source-language="en"', 'source-language="eng" target-language="ger"')
    out = translate_xliff(memoq, mirror, options, "a.mqxliff")
    assert ">RUNS. DOG A</target>" in out and 'target-language="ger"' in out
    for french in ("fre", "fra-FR"):
        with pytest.raises(UserError, match=f"the file's target-language is {french}, the target language asked"):
            translate_xliff(memoq.replace('"ger"', f'"{french}"'), mirror, options, "a.mqxliff")
