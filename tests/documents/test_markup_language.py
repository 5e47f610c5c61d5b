"""The language a translated page states (attnmt.documents.language): the block of translated text
and every element around it, up to a kept one (``translate="no"``, ``<pre>``), say the target
language in their ``lang``/``xml:lang``, and a ``dir`` there agrees with it; so does the language
of an inline element whose words were translated, while a passage kept whole in its own language
keeps it, an inline element its direction, and an element with only a translated attribute what it
states.  Mirror: words upper-cased in reverse order."""

import pytest
from lxml import etree
from office_files import EPUB2_PAGE, epub2_file, read_members, write_members

from attnmt.documents.language import direction
from attnmt.documents.markup import translate_markup
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

GERMAN = DocumentOptions(target_lang="de")
ARABIC = DocumentOptions(target_lang="ar")
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def one(text, translator, options=GERMAN, **kinds):
    return translate_markup([text], translator, options, **kinds)[0]


def test_an_element_below_the_root_that_held_translated_text_says_the_target_language(mirror):
    page = ('<!DOCTYPE html>\n<html lang="en"><body>\n<p lang="fr">Un chien court.</p>\n'
            '<blockquote dir="rtl" lang="he">A dog runs.</blockquote>\n</body></html>')
    out = one(page, mirror)
    assert '<p lang="de">COURT. CHIEN UN</p>' in out
    assert '<blockquote dir="ltr" lang="de">RUNS. DOG A</blockquote>' in out  # German is not shown right to left


def test_every_element_around_translated_text_that_states_a_language_says_the_target(mirror):
    page = ('<html xmlns="http://www.w3.org/1999/xhtml" lang="en" xml:lang="en"><body lang="en-US" '
            'xml:lang="en-US"><section lang="en"><h1>A day at the beach</h1></section></body></html>')
    out = one(page, mirror, xhtml=True)
    assert out == page.replace('"en-US"', '"de"').replace('"en"', '"de"').replace(
        "A day at the beach", "BEACH THE AT DAY A")


def test_an_html_page_parsed_as_html_has_its_xml_lang_set_too(mirror):
    out = one('<!DOCTYPE html><html><body><p xml:lang="fr" lang="fr">Un homme marche.</p></body></html>', mirror)
    assert '<p xml:lang="de" lang="de">MARCHE. HOMME UN</p>' in out


@pytest.mark.parametrize("kept", ['<pre lang="en">ls -l</pre>', '<p translate="no" lang="fr">Liberté, égalité.</p>',
                                  '<p>A <span translate="no" lang="fr">Liberté</span> dog.</p>',
                                  '<p>Run <code lang="en">ls -l</code> now.</p>'])
def test_an_element_whose_text_is_kept_keeps_its_language(mirror, kept):
    out = one(f'<div lang="en"><p>A dog runs.</p>{kept}</div>', mirror)
    language = etree.fromstring(kept).xpath("string(//@lang)")
    assert out.startswith('<div lang="de"><p>RUNS. DOG A</p>') and f'lang="{language}"' in out


def test_a_language_switchers_links_each_in_its_own_language_are_kept(same):
    """The separators were lost, and the third link's text."""
    nav = ('<nav><a href="/fr/" lang="fr" title="Version française">Français</a> | <a href="/es/" lang="es">Español</a>'
           ' | <a href="/de/" lang="de-DE">Deutsch</a></nav>')
    head = '<head><meta charset="utf-8"></head>'
    page = f'<html lang="en">{head}<body>{nav}</body></html>'
    assert one(page, same) == page  # nothing of it translated: the root keeps its English too
    assert same.given == []


@pytest.mark.parametrize("page, given", [
    ('<p lang="en-GB">The word <i lang="fr">plage</i> means beach.</p>', ["The word means beach."]),
    ('<p>The word <i lang="fr-FR">plage</i> means beach.</p>', ["The word means beach."]),
    ('<p>The word <i lang="">plage</i> means beach.</p>', ["The word plage means beach."]),
    # a <label> among its sentence's words is inline: the demo model wrote <label lang="de">Bank</label> for la plage
    ('<p>She sat by <label lang="fr">la plage</label> today.</p>', ["She sat by today."])])
def test_an_inline_passage_in_another_language_than_the_source_and_its_text_is_kept(same, page, given):
    assert one(page, same) == page.replace('"en-GB"', '"de"')
    assert same.given == given


@pytest.mark.parametrize("page, given", [
    ('<div lang="fr"><p>Le mot <i lang="en">beach</i> veut dire plage.</p></div>', ["Le mot beach veut dire plage."]),
    ('<div lang="fr"><p>Le mot <i lang="fr">plage</i>.</p></div>', ["Le mot plage."])])
def test_an_inline_element_in_the_source_language_or_that_around_it_is_translated_and_says_the_target(same, page,
                                                                                                      given):
    """English is the source by default: "beach" is translated in its sentence, as "plage" is in
    the French around it, and each says the target language (say_translated_inline)."""
    assert one(page, same) == page.replace('lang="fr"', 'lang="de"').replace('lang="en"', 'lang="de"')
    assert same.given == given


@pytest.mark.parametrize("attribute", ['lang="fr"', 'xml:lang="fr"'])
def test_a_kept_passage_is_not_glued_to_a_word_it_did_not_touch(fixed, attribute):
    """The model dropped the comma after it and put "und" there: "bonjour mon ami</span>und"."""
    page = f'<p>The man said: <span {attribute}>bonjour mon ami</span>, and a woman laughed.</p>'
    model = fixed("Der Mann, der Teig und eine Frau lachen.", [(0, 0), (1, 1), (2, 3), (3, 4), (4, 5), (5, 6)])
    assert one(page, model) == (f'<p>Der Mann, der Teig <span {attribute}>bonjour mon ami</span>, und eine Frau '
                                "lachen.</p>")  # its comma, which opens no clause of the label, comes with it
    assert model.given == ["The man said: and a woman laughed."]


@pytest.mark.parametrize("page, given", [
    ('<p>A man walks his <span lang="X-NONE">dog in the park</span> today.</p>',
     ["A man walks his dog in the park today."]),
    ('<p>See <span lang="und">the chart</span> on <span lang="x-none">2021-03-04</span>.</p>',
     ["See the chart on 2021-03-04."]),
    ('<p>A <span lang="mul">red</span> car and a <b lang="x-pig-latin">dog</b>.</p>', ["A red car and a dog."]),
    ('<p><span lang="DE">The children are playing football.</span></p>', ["The children are playing football."]),
    ('<li>Go <a lang="de" href="/x">home</a></li><li><a lang="de" href="/y">Open the file</a></li>',
     ["Go", "Open the file"])])
def test_an_inline_element_naming_no_language_or_holding_all_its_blocks_words_is_translated(same, page, given):
    """Word's lang="X-NONE" and BCP 47's und, mul and x-... name no language: kept as foreign, "dog
    in the park" never reached the model (zxx says there are no words: kept as code).  Word's
    proofing lang="DE" over a whole English paragraph left it untranslated (translated, it says
    the target's language: say_translated_inline)."""
    assert one(page, same) == page.replace('<span lang="DE">', '<span lang="de">')
    assert same.given == given


@pytest.mark.parametrize("page, given", [
    ('<p>Run <span lang="zxx">ls -l</span> to see a dog.</p>', ["Run to see a dog."]),
    ('<p>Run <b xml:lang="zxx">ls -l</b> to see a dog.</p>', ["Run to see a dog."]),
    ('<p><span lang="zxx">AB-1234 rev C</span></p>', [])])
def test_an_inline_element_in_no_language_is_kept_as_code_is(mirror, page, given):
    """``lang="zxx"`` says there are no words (code, a part number): translated, "ls -l" came back
    the model's German still saying zxx.  Kept whole, as ``<code>`` is, also alone in its block."""
    assert one(page, mirror) == page.replace("Run", "DOG. A SEE").replace(" to see a dog.", " TO RUN")
    assert mirror.given == given


@pytest.mark.parametrize("body, given", [("<p>A man walks.</p>", []),
                                         ('<main translate="yes"><p>A man walks.</p></main>', ["A man walks."])])
@pytest.mark.parametrize("xhtml", [False, True])
def test_a_page_whose_root_says_translate_no_keeps_its_language(same, body, given, xhtml):
    """It said lang="de" over its English title, header and footer, and over a page with nothing translated."""
    names = ' xmlns="http://www.w3.org/1999/xhtml" xml:lang="en"' if xhtml else ""
    page = (f'<!DOCTYPE html>\n<html{names} lang="en" dir="ltr" translate="no"><head><meta charset="utf-8"/>'
            f"<title>ACME docs</title></head><body>{body}</body></html>")
    page = page if xhtml else page.replace("/>", ">")
    stated = ' lang="de" xml:lang="de"' if xhtml else ' lang="de"'  # as <html> states its language
    assert one(page, same, xhtml=xhtml) == page.replace('translate="yes"', f'translate="yes"{stated}')
    assert same.given == given


@pytest.mark.parametrize("kept", ['<body translate="no"><p>A man walks.</p></body>',
                                  '<body><p class="notranslate">A man walks.</p><pre>ls -l</pre></body>'])
def test_a_page_whose_every_text_is_kept_keeps_the_language_its_root_states(same, kept):
    """Nothing of it was translated, and its root said lang="de" over its English."""
    page = ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title translate="no">ACME</title></head>'
            f"{kept}</html>")
    assert one(page, same) == page
    assert same.given == []


def test_a_page_that_shows_no_words_still_says_the_target_language(same):
    page = ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><style>p { color: red }</style></head>'
            "<body></body></html>")
    assert one(page, same) == page.replace('lang="en"', 'lang="de"')


@pytest.mark.parametrize("page, expected", [
    ('<html lang="en" translate="no"><body><header>ACME</header><main translate="yes"><p>A man walks.</p></main>'
     "</body></html>", '<main translate="yes" lang="de">'),
    ('<html translate="no"><body lang="en" dir="rtl"><div><section translate="yes"><p>A man walks.</p></section>'
     "</div></body></html>", '<section translate="yes" lang="de" dir="ltr">'),
    ('<html translate="no"><body><main translate="yes"><p>A man walks.</p></main></body></html>',
     '<main translate="yes" lang="de">')])
def test_a_translated_part_inside_a_kept_page_says_the_target_language_itself(same, page, expected):
    """Nothing said the main text was German: the root, kept, says "en" (it said "de" before it kept its own)."""
    out = one(page, same)
    assert expected in out and out.startswith(page[:page.index(">") + 1])  # the root as written


def test_a_translated_part_inside_a_kept_page_with_no_direction_said_is_right_to_left_for_arabic(same):
    """With no dir above, the page is HTML's ltr: the Arabic part said lang="ar" alone, before."""
    page = '<html lang="en"><body><div translate="no"><p translate="yes">A dog runs.</p></div></body></html>'
    out = one(page, same, ARABIC)
    assert '<p translate="yes" lang="ar" dir="rtl">' in out


def test_an_element_of_translated_and_kept_text_says_the_target_language_and_its_kept_part_its_own(mirror):
    """Its kept part (no language of its own) read as the target's, before: a screen reader spoke French as German."""
    out = one('<div lang="fr"><p>Un chien.</p><p translate="no">Paris</p></div>', mirror)
    assert out == '<div lang="de"><p>CHIEN. UN</p><p translate="no" lang="fr">Paris</p></div>'


@pytest.mark.parametrize("kept, said", [
    ('<p translate="no">Keep this sentence.</p>', '<p translate="no" lang="en">Keep this sentence.</p>'),
    ('<p>A dog. <span translate="no">Acme Widget Pro</span> sells.</p>',
     '<span translate="no" lang="en">Acme Widget Pro</span>'),
    ('<p class="notranslate">Keep this sentence.</p>', '<p class="notranslate" lang="en">Keep this sentence.</p>'),
    ("<p>A car is <del>red</del> <ins>blue</ins>.</p>", '<del lang="en">red</del>'),
    ("<p>A car is <s>red</s> <ins>blue</ins>.</p>", '<s lang="en">red</s>'),
])
def test_a_passage_kept_as_written_in_a_translated_page_says_the_source_language(mirror, kept, said):
    """The demo model's page said <html lang="de"> over <span translate="no">Acme Widget Pro</span>, read as German."""
    page = f'<html lang="en"><body><p>A man walks.</p>{kept}</body></html>'
    out = one(page, mirror)
    assert '<html lang="de">' in out and said in out


@pytest.mark.parametrize("kept", ['<p translate="no"><code>ls -l</code></p>', '<p translate="no">1984</p>',
                                  '<span translate="no" lang="zxx">AZ-2040</span>',
                                  '<p translate="no" lang="fr">Liberté.</p>'])
def test_kept_code_a_number_or_a_passage_stating_its_language_says_nothing_more(mirror, kept):
    out = one(f'<html lang="en"><body><p>A man walks.</p>{kept}</body></html>', mirror)
    assert '<html lang="de">' in out and kept in out


def test_an_element_with_nothing_translated_keeps_its_language_and_direction(mirror):
    fragment = '<p dir="rtl" lang="ar"><img src="a.png"></p>'
    assert one(fragment, mirror) == fragment


def test_fragments_a_line_state_the_target_where_they_stated_a_language_and_gain_none(mirror):
    lines = ['<p lang="fr">Un chien.</p>', "<p>A cat.</p>", '<div dir="rtl">A dog.</div>']
    assert translate_markup(lines, mirror, GERMAN) == ['<p lang="de">CHIEN. UN</p>', "<p>CAT. A</p>",
                                                       '<div dir="ltr">DOG. A</div>']


@pytest.mark.parametrize("mark", ['<span lang="ja">寿司</span>', "<i lang=\"fr\">c'est la vie</i>",
                                  '<a href="/fr" lang="fr">Français</a>', '<span dir="ltr">+1 (555) 123-4567</span>',
                                  '<a href="https://example.com/v2" dir="ltr">https://example.com/v2</a>',
                                  '<bdi dir="ltr">support@example.com</bdi>', '<bdo dir="ltr">ABC-123</bdo>'])
def test_an_inline_element_in_translated_text_keeps_the_language_and_direction_it_states(mirror, mark):
    """It marks a word or a passage as written in a language or a direction (a URL, a phone number
    left to right in Arabic): the block around it says the target's."""
    out = one(f'<p lang="en" dir="ltr">See {mark} here.</p>', mirror, ARABIC)
    start = mark[:mark.index(">") + 1]
    assert out.startswith('<p lang="ar" dir="rtl">') and start in out


def test_a_mark_that_is_a_whole_fragment_line_says_the_target_language_and_keeps_its_direction(mirror):
    assert translate_markup(['<b lang="fr" dir="ltr">Un chien.</b>'], mirror, ARABIC) == \
        ['<b lang="ar" dir="ltr">CHIEN. UN</b>']


PROOFED = ('<p><span lang="en-US">Two dogs run.</span></p><p>The man <span lang="en-US">reads a book</span> in the '
           'garden.</p><p>The word <i lang="fr">plage</i> means beach.</p>')


def test_an_inline_element_whose_words_were_translated_says_the_target_language(upper):
    """Word's proofing spans (a Calibre or pandoc book's) said "en-US" around the German, under an
    <html lang="de">: a screen reader read it as English.  The French word kept whole keeps "fr"."""
    out = one(f'<!DOCTYPE html>\n<html lang="en"><body>{PROOFED}</body></html>', upper)
    assert out == ('<!DOCTYPE html>\n<html lang="de"><head><meta charset="utf-8"></head><body><p><span lang="de">'
                   'TWO DOGS RUN.</span></p><p>THE MAN <span lang="de">READS A BOOK</span> IN THE GARDEN.</p><p>THE '
                   'WORD <i lang="fr">plage</i> MEANS BEACH.</p></body></html>')


def test_an_xhtml_pages_inline_element_whose_words_were_translated_says_the_target_in_both_attributes(upper):
    body = PROOFED.replace('lang="en-US"', 'lang="en-US" xml:lang="en-US"')
    page = f'<html xmlns="http://www.w3.org/1999/xhtml" lang="en" xml:lang="en"><body>{body}</body></html>'
    out = etree.fromstring(one(page, upper, xhtml=True))
    stated = [(etree.QName(e).localname, e.get("lang"), e.get(XML_LANG)) for e in out.iter() if e.get("lang")]
    assert stated == [("html", "de", "de"), ("span", "de", "de"), ("span", "de", "de"), ("i", "fr", None)]


@pytest.mark.parametrize("element", ['<pre dir="ltr" lang="en" title="Example output">$ ls -la /tmp</pre>',
                                     '<svg lang="en" aria-label="Download chart"><text>Downloads</text></svg>',
                                     '<textarea lang="en" placeholder="Your comment">Default text</textarea>',
                                     '<form dir="ltr"><input type="email" dir="ltr" placeholder="Your email"></form>',
                                     '<figure lang="en"><img src="a.png" alt="A terminal" lang="en"></figure>'])
def test_an_element_with_only_a_translated_attribute_keeps_its_language_and_direction(mirror, element):
    """A title, alt, aria-label or placeholder is no prose of the element it is on: a code block
    titled "Example output" is still code in English, an email field still left to right."""
    page = f'<!DOCTYPE html><html lang="en"><body lang="en" dir="ltr">{element}</body></html>'
    out = one(page, mirror, ARABIC)
    assert '<body lang="en" dir="ltr">' in out and out.count('lang="en"') == page.count('lang="en"') - 1
    assert out.count('dir="ltr"') == page.count('dir="ltr"')


def test_an_inline_element_with_a_translated_attribute_keeps_its_language(mirror):
    out = one('<p lang="en">Type <code lang="en" title="the command">tool --help</code> now.</p>', mirror)
    assert out.startswith('<p lang="de">') and '<code lang="en" title="COMMAND THE">tool --help</code>' in out


def test_the_climb_from_translated_text_stops_at_a_kept_element(mirror):
    """What says translate="yes" inside a translate="no" element says the target, and its
    direction where the kept one's is another; the kept element, and what is around it, keep theirs."""
    fragment = ('<section lang="en" dir="ltr"><div translate="no" lang="en" dir="ltr"><code>make</code> Kept Brand '
                '<p translate="yes" lang="en">A dog runs.</p></div></section>')
    assert one(fragment, mirror, ARABIC) == fragment.replace(
        '<p translate="yes" lang="en">A dog runs.', '<p translate="yes" lang="ar" dir="rtl">RUNS. DOG A')


def test_an_element_above_a_kept_one_with_translated_text_of_its_own_says_the_target(mirror):
    fragment = ('<section lang="en"><p>A cat.</p><div translate="no" lang="en"><p translate="yes">A dog.</p>'
                '</div></section>')
    assert one(fragment, mirror) == ('<section lang="de"><p>CAT. A</p><div translate="no" lang="en">'
                                     '<p translate="yes" lang="de">DOG. A</p></div></section>')


def test_without_a_target_language_every_language_stays_as_it_was(mirror):
    assert one('<p lang="fr" dir="rtl">Un chien.</p>', mirror, DocumentOptions()) == \
        '<p lang="fr" dir="rtl">CHIEN. UN</p>'


def test_a_right_to_left_target_turns_a_left_to_right_direction_and_leaves_auto(mirror):
    fragment = '<div dir="ltr" lang="en"><p dir="auto">A dog.</p><p dir="LTR">A cat.</p></div>'
    assert one(fragment, mirror, DocumentOptions(target_lang="ar")) == \
        '<div dir="rtl" lang="ar"><p dir="auto">DOG. A</p><p dir="rtl">CAT. A</p></div>'


def test_a_pages_root_direction_agrees_with_the_target_language_it_is_given(mirror):
    out = one('<!DOCTYPE html><html lang="ar" dir="rtl"><body><img src="a.png"></body></html>', mirror)
    assert '<html lang="de" dir="ltr">' in out


@pytest.mark.parametrize("xhtml, page", [
    (False, '<!DOCTYPE html>\n<html lang="en"><body><p>A man is walking.</p></body></html>'),
    (True, '<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en"><body>'
           "<p>A man is walking.</p></body></html>"),
])
def test_a_page_translated_into_a_right_to_left_language_says_so_on_its_root(mirror, xhtml, page):
    """The root said lang="ar" and no dir: the Arabic page was read left to right, HTML's default."""
    out = one(page, mirror, ARABIC, xhtml=xhtml)
    assert ('xml:lang="ar" dir="rtl">' if xhtml else '<html lang="ar" dir="rtl">') in out


@pytest.mark.parametrize("root, expected", [('<html lang="en" dir="auto">', '<html lang="ar" dir="auto">'),
                                            ('<html lang="en">', '<html lang="de">')])
def test_a_pages_root_gains_no_direction_where_it_says_auto_or_the_target_is_left_to_right(mirror, root, expected):
    lang = expected.split('"')[1]
    out = one(f"<!DOCTYPE html>{root}<body><p>A dog runs.</p></body></html>", mirror, DocumentOptions(target_lang=lang))
    assert expected in out


@pytest.mark.parametrize("xhtml, page", [
    (False, '<!DOCTYPE html>\n<html lang="en"><head><meta http-equiv="Content-Language" content="en"></head>'
            "<body><p>A man is walking.</p></body></html>"),
    (True, '<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en"><head>'
           '<meta http-equiv="content-language" content="en-US" /></head><body><p>A man is walking.</p></body></html>'),
])
def test_a_pages_content_language_says_the_target_language_as_its_root_does(mirror, xhtml, page):
    """Search engines read the page's language there: the German page went on saying content="en"."""
    out = one(page, mirror, xhtml=xhtml)
    assert 'content="de"' in out and 'content="en' not in out


def test_a_kept_pages_content_language_stays(same):
    page = ('<!DOCTYPE html>\n<html lang="en" translate="no"><head><meta http-equiv="Content-Language" '
            'content="en"></head><body><p>ACME</p></body></html>')
    assert 'content="en"' in one(page, same)


def test_an_xml_documents_languages_are_its_own(mirror):
    """In XML, xml:lang means what its vocabulary says (XLIFF's: the source's language)."""
    assert one('<note xml:lang="en">A dog.</note>', mirror, xml=True) == '<note xml:lang="en">DOG. A</note>'


@pytest.mark.parametrize(("lang", "expected"), [("ar", "rtl"), ("he-IL", "rtl"), ("fa_IR", "rtl"), ("yi", "rtl"),
                                                ("de", "ltr"), ("en-US", "ltr"), ("sd-Deva", "ltr"),
                                                ("az-Arab", "rtl"), ("pa-Arab-PK", "rtl"), ("ku", "ltr")])
def test_a_languages_direction_follows_its_script_where_the_tag_names_one(lang, expected):
    assert direction(lang) == expected


def test_an_epub_pages_elements_below_the_root_say_the_target_language(mirror):
    members = read_members(epub2_file())
    members["OEBPS/Text/chapter 1.xhtml"] = EPUB2_PAGE.replace(
        "<body><p>A dog runs on the grass.</p>",
        '<body xml:lang="en-US"><div xml:lang="en"><p dir="rtl" xml:lang="ar">A dog runs.</p>'
        '<p xml:lang="fr" translate="no">Un chien.</p></div>').encode()
    out = read_members(translate_office(write_members(members), ".epub", mirror, GERMAN))
    body = etree.fromstring(out["OEBPS/Text/chapter 1.xhtml"])[1]
    div = body[0]
    assert [e.get(XML_LANG) for e in (body, div, *div)] == ["de", "de", "de", "fr"]
    assert div[0].get("dir") == "ltr" and div[0].get("lang") is None  # XHTML 1.1 has no lang: none added


def test_an_epub_pages_translated_part_inside_a_kept_root_says_the_target_language(mirror):
    """The root keeps its English (translate="no"); the chapter's text said nothing of being German."""
    members = read_members(epub2_file())
    page = EPUB2_PAGE.replace('xml:lang="en">', 'xml:lang="en" translate="no">')
    body = '<body><p>ACME</p><section translate="yes"><p>A dog runs.</p></section>'
    members["OEBPS/Text/chapter 1.xhtml"] = page.replace("<body><p>A dog runs on the grass.</p>", body).encode()
    out = read_members(translate_office(write_members(members), ".epub", mirror, GERMAN))
    root = etree.fromstring(out["OEBPS/Text/chapter 1.xhtml"])
    section = root[1][1]
    assert (root.get(XML_LANG), section.get(XML_LANG), section.get("lang")) == ("en", "de", None)
    assert section[0].text == "RUNS. DOG A"


@pytest.mark.parametrize("tag", ["bdo", "span"])
def test_a_direction_element_around_hebrew_in_english_is_kept_whole(mirror, tag):
    """Hebrew in a <bdo dir="rtl"> or <span dir="rtl"> inside an English sentence is a passage in
    another language: translated, it was lost, and German words were drawn right to left in its place."""
    out = one(f'<p>The cat <{tag} dir="rtl">שלום</{tag}> is sleeping.</p>', mirror)
    assert f'<{tag} dir="rtl">שלום</{tag}>' in out
    assert not any("שלום" in text for text in mirror.given)


@pytest.mark.parametrize("block", ['<p dir="rtl" lang="ar">مرحبا بالعالم</p>',
                                   '<blockquote dir="rtl" lang="he"><p>מה שלומך היום</p></blockquote>'])
def test_a_right_to_left_block_on_a_page_from_english_keeps_its_text_language_and_direction(mirror, block):
    """The Arabic came back as it was, under lang="de" dir="ltr": drawn left to right as German."""
    page = f'<!DOCTYPE html><html lang="en"><body><p>A dog runs.</p>{block}</body></html>'
    out = one(page, mirror, DocumentOptions(source_lang="en", target_lang="de"))
    assert f"<p>RUNS. DOG A</p>{block}" in out
    assert mirror.given == ["A dog runs."]


def test_a_direction_override_around_translated_words_takes_their_direction(mirror):
    """English words in a <bdo dir="rtl">, translated into German, were drawn right to left."""
    assert one('<p>The cat <bdo dir="rtl">is sleeping</bdo> here.</p>', mirror) == \
        '<p>HERE. <bdo dir="ltr">SLEEPING IS</bdo> CAT THE</p>'


# Word-for-word translations whose letters run the other way from their source's.
INTO_GERMAN = {"كلب يركض في الحديقة.": ("Ein Hund läuft im Garten.", [(0, 0), (0, 1), (1, 2), (2, 3), (3, 4)]),
               "كلب يركض.": ("Ein Hund läuft.", [(0, 0), (0, 1), (1, 2)])}
INTO_HEBREW = {"The dog runs in the park.": ("הכלב רץ בפארק.", [(0, 0), (1, 0), (2, 1), (3, 2), (4, 2), (5, 2)])}
INTO_ARABIC = {"The code is ABC-12.": ("الرمز هو ABC-12.", [(0, 0), (1, 0), (2, 1), (3, 2)]),
               "The code is.": ("الرمز هو.", [(0, 0), (1, 0), (2, 1)]),
               "Go now.": ("اذهب الآن.", [(0, 0), (1, 1)]),
               "runs in the park": ("يركض في الحديقة", [(0, 0), (1, 1), (2, 2), (3, 2)])}
ARABIC_TO_GERMAN = DocumentOptions(source_lang="ar", target_lang="de")
HEBREW = DocumentOptions(target_lang="he")


@pytest.mark.parametrize("xhtml", [False, True])
def test_a_direction_element_turns_by_its_translated_words_not_its_source(known, xhtml):
    """Arabic in a <span dir="rtl">, translated into German, stayed right to left: its direction
    was read from the Arabic it held before the translation was written."""
    out = one('<p>كلب <span dir="rtl">يركض في الحديقة</span>.</p>', known(INTO_GERMAN), ARABIC_TO_GERMAN, xhtml=xhtml)
    assert out == '<p>Ein Hund <span dir="ltr">läuft im Garten</span>.</p>'


def test_english_in_a_left_to_right_override_translated_into_hebrew_turns_right_to_left(known):
    out = one('<p>The dog <bdo dir="ltr">runs in the park</bdo>.</p>', known(INTO_HEBREW), HEBREW)
    assert out == '<p>הכלב <bdo dir="rtl">רץ בפארק</bdo>.</p>'


def test_arabic_in_a_left_to_right_override_translated_into_german_stays_left_to_right(known):
    """Turned by its Arabic source, it said rtl around the German words."""
    out = one('<p>كلب <bdo dir="ltr">يركض</bdo>.</p>', known(INTO_GERMAN), ARABIC_TO_GERMAN)
    assert out == '<p>Ein Hund <bdo dir="ltr">läuft</bdo>.</p>'


@pytest.mark.parametrize("code", ["ABC-12", "ABC-123"])  # the model reads the first, the second is kept (protected)
def test_a_code_the_translation_keeps_stays_left_to_right_in_arabic(known, code):
    out = one(f'<p>The code is <span dir="ltr">{code}</span>.</p>', known(INTO_ARABIC), ARABIC)
    assert out == f'<p>الرمز هو <span dir="ltr">{code}</span>.</p>'


def test_a_direction_element_in_a_translated_part_of_a_kept_one_turns_before_it_is_copied(known):
    """The part that says translate="yes" is written first, then copied with the kept element around it."""
    out = one('<p>Go <span translate="no">ls <em translate="yes">runs <bdo dir="ltr">in the park</bdo></em></span> '
              'now.</p>', known(INTO_ARABIC), ARABIC)
    assert '<em translate="yes" lang="ar" dir="rtl">يركض <bdo dir="rtl">في الحديقة</bdo></em>' in out
