"""What a translated page's <meta> elements say of its language (attnmt.documents.page_metadata): its
link preview's locale (``og:locale``, ``og:locale:alternate``) and its Dublin Core language say the
target's, while the links to its versions in other languages (``hreflang``) stay as written."""

import pytest

from attnmt.documents.markup import translate_markup
from attnmt.documents.pipeline import DocumentOptions


def page(head, body="<p>A man is walking.</p>", root='<html lang="en">'):
    return f"<!DOCTYPE html>\n{root}<head>{head}</head><body>{body}</body></html>"


def translated(text, translator, lang="de", **kinds):
    return translate_markup([text], translator, DocumentOptions(target_lang=lang), **kinds)[0]


def test_a_pages_open_graph_locale_says_the_target_languages(mirror):
    """The German page went on saying og:locale="en_US", and its link preview was shown as English."""
    out = translated(page('<meta property="og:locale" content="en_US">'), mirror)
    assert '<meta property="og:locale" content="de_DE">' in out and "en_US" not in out
    kept = page('<meta property="og:locale" content="en_US">', root='<html lang="en" translate="no">')
    assert '<meta property="og:locale" content="en_US">' in translated(kept, mirror)  # as its lang stays


@pytest.mark.parametrize("lang, locale", [
    ("fr", "fr_FR"), ("pt-BR", "pt_BR"), ("pt", "pt_BR"), ("zh-Hant", "zh_TW"), ("de-CH", "de_CH"), ("eo", "eo"),
])
def test_the_locale_is_the_targets_language_and_its_country(mirror, lang, locale):
    out = translated(page('<meta property="og:locale" content="en_GB">'), mirror, lang)
    assert f'content="{locale}"' in out and "en_GB" not in out


def test_the_alternate_locales_list_the_source_locale_in_place_of_the_target_one(mirror):
    head = ('<meta property="og:locale" content="en_US">\n<meta property="og:locale:alternate" content="fr_FR">\n'
            '<meta property="og:locale:alternate" content="de_DE">\n')
    out = translated(page(head), mirror)
    assert ('<meta property="og:locale" content="de_DE">\n<meta property="og:locale:alternate" content="fr_FR">\n'
            '<meta property="og:locale:alternate" content="en_US">\n') in out


def test_an_alternate_of_the_target_language_names_the_sites_own_country(mirror):
    """A site whose German version is de_AT: the German page is de_AT, not the likeliest country's de_DE."""
    head = '<meta property="og:locale" content="en_US"><meta property="og:locale:alternate" content="de_AT">'
    out = translated(page(head), mirror)
    assert 'property="og:locale" content="de_AT"' in out and 'property="og:locale:alternate" content="en_US"' in out
    assert "de_DE" not in out


def test_alternates_without_the_target_are_given_the_source_locale(mirror):
    head = '<meta property="og:locale" content="en_US">\n<meta name="og:locale:alternate" content="fr_FR">\n'
    out = translated(page(head), mirror)
    assert ('<meta property="og:locale" content="de_DE">\n<meta name="og:locale:alternate" content="fr_FR">\n'
            '<meta name="og:locale:alternate" content="en_US">\n') in out


@pytest.mark.parametrize("meta", ['<meta name="DC.language" content="en">',
                                  '<meta name="dcterms.language" scheme="RFC5646" content="en-US">',
                                  '<meta name="language" content="en">'])
def test_a_pages_dublin_core_language_says_the_target(mirror, meta):
    out = translated(page(meta), mirror)
    assert 'content="de"' in out and 'content="en' not in out


def test_a_language_named_in_words_stays_and_no_locale_is_added(mirror):
    """No code says how to write the target's name; a page that named no locale is given none."""
    out = translated(page('<meta name="language" content="English"><meta name="DC.language" content="en">'), mirror)
    assert '<meta name="language" content="English"><meta name="DC.language" content="de">' in out
    assert "og:locale" not in out


def test_the_links_to_the_pages_other_versions_keep_their_languages(mirror):
    """A hreflang names the language of the page it links to, which no translation of this one changes."""
    head = ('<meta property="og:locale" content="en_US"><link rel="alternate" hreflang="en" href="https://example.com/">'
            '<link rel="alternate" hreflang="de" href="https://example.com/de/">')
    body = '<p>Read it in <a href="/fr/" hreflang="fr" lang="fr">français</a> too.</p>'
    out = translated(page(head, body), mirror)
    assert head.replace("en_US", "de_DE") in out and '<a href="/fr/" hreflang="fr" lang="fr">français</a>' in out


def test_an_xhtml_pages_locale_says_the_target_too(mirror):
    text = ('<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en"><head>'
            '<meta property="og:locale" content="en_US" /></head><body><p>A man is walking.</p></body></html>')
    out = translated(text, mirror, xhtml=True)
    assert '<meta property="og:locale" content="de_DE"/>' in out and 'xml:lang="de"' in out
