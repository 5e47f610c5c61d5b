"""A language switcher's entries (attnmt.documents.language_links): a link or an option that shows the own name
of the language it leads to is kept whole; one that says more, or names it in the page's language, is
translated.  Upper: every sentence upper-cased, so what is kept keeps its case."""

import pytest

from attnmt.documents.markup import translate_markup


def one(text, translator):
    return translate_markup([text], translator)[0]


def test_a_switchers_links_keep_each_languages_own_name(upper):
    """The demo model turned "Deutsch" into "Ein Hühhner" and "English" into "Auf diesem Firme"."""
    switcher = ('<ul><li><a href="/en/" hreflang="en">English</a></li><li><a href="/de/" hreflang="de">Deutsch</a>'
                '</li><li><a href="/fr/" hreflang="fr">Français</a></li><li><a href="/ru/" hreflang="ru">Русский</a>'
                '</li><li><a href="/zh/" hreflang="zh-Hans">简体中文</a></li></ul>')
    assert one(switcher + "<p>A man walks.</p>", upper) == switcher + "<p>A MAN WALKS.</p>"


@pytest.mark.parametrize("entry", ['<a hreflang="de-CH" href="/ch/">Deutsch (Schweiz)</a>',
                                   '<a hreflang="pt-BR" href="/br/"><img src="br.svg" alt=""> Português</a>',
                                   '<a hreflang="ES" href="/es/">español</a>'])
def test_a_name_with_its_region_a_flag_or_in_lower_case_is_kept_too(upper, entry):
    assert one(f"<li>{entry}</li>", upper) == f"<li>{entry}</li>"


def test_a_dropdowns_options_for_languages_keep_their_own_names_and_others_are_translated(upper):
    page = ('<select name="lang"><option value="en">English</option><option value="it">Italiano</option></select>'
            '<select name="size"><option value="1">Small</option><option value="2">Large</option></select>')
    assert one(page, upper) == page.replace("Small", "SMALL").replace("Large", "LARGE")


def test_a_link_in_a_sentence_keeps_the_name_and_the_sentence_is_translated(same):
    one('<p>This page is also in <a hreflang="nl" href="/nl/">Nederlands</a> and <a hreflang="pl">Polski</a>.</p>',
        same)
    assert same.given == ["This page is also in and."]


@pytest.mark.parametrize("text", ["Read it in French", "French", "Deutschland"])
def test_a_link_that_says_more_or_names_the_language_in_the_pages_own_is_translated(upper, text):
    code = "de" if text == "Deutschland" else "fr"
    kept = f'<li><a hreflang="{code}" href="/x/">{"Deutsch" if code == "de" else "Français"}</a></li>'
    assert one(f'{kept}<li><a hreflang="{code}" href="/x/">{text}</a></li>', upper) == (
        f'{kept}<li><a hreflang="{code}" href="/x/">{text.upper()}</a></li>')
