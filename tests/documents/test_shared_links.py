"""Two links whose words the model wrote as one word: the word goes to the link whose words it gives the most
attention, the other over the function word right beside it (attnmt.documents.shared_links), not its English text.

The weights are the demo model's [target word][source word] cross-attention for these sentences, rounded."""

import docx
import pytest
from office_files import add_hyperlink, docx_bytes, word_children

from attnmt.documents import DocumentOptions
from attnmt.documents.markdown import translate_markdown
from attnmt.documents.markup import translate_markup
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import translate_lines
from attnmt.documents.translators import FoundTranslations

STOP = "People are standing at the bus stop."
HALTESTELLE = "Leute stehen an der Bushaltestelle."
#              People are   stand at    the   bus   stop.
STOP_WEIGHTS = [[0.87, 0.07, 0.01, 0.00, 0.00, 0.00, 0.05],  # Leute
                [0.00, 0.20, 0.79, 0.00, 0.00, 0.00, 0.00],  # stehen
                [0.00, 0.03, 0.06, 0.58, 0.05, 0.01, 0.16],  # an
                [0.00, 0.00, 0.00, 0.02, 0.48, 0.13, 0.33],  # der
                [0.00, 0.01, 0.02, 0.06, 0.02, 0.24, 0.33]]  # Bushaltestelle.
RACE = "A man drives a red race car."
RENNAUTO = "Ein Mann fährt ein roten Rennauto."
#              A     man   drive a     red   race  car.
RACE_WEIGHTS = [[0.78, 0.21, 0.00, 0.00, 0.00, 0.00, 0.01],  # Ein
                [0.05, 0.64, 0.05, 0.01, 0.23, 0.01, 0.01],  # Mann
                [0.00, 0.00, 0.97, 0.01, 0.02, 0.00, 0.00],  # fährt
                [0.00, 0.00, 0.02, 0.61, 0.23, 0.12, 0.02],  # ein
                [0.00, 0.00, 0.00, 0.00, 0.51, 0.37, 0.12],  # roten
                [0.00, 0.00, 0.09, 0.02, 0.03, 0.41, 0.20]]  # Rennauto.
TENNIS = "Two men play table tennis."
SPIELEN = "Zwei Männer spielen Tennis."
#                Two   men   play  table tennis.
TENNIS_WEIGHTS = [[0.90, 0.10, 0.00, 0.00, 0.00],  # Zwei
                  [0.05, 0.90, 0.05, 0.00, 0.00],  # Männer
                  [0.00, 0.02, 0.90, 0.05, 0.03],  # spielen
                  [0.00, 0.00, 0.02, 0.30, 0.68]]  # Tennis.


def translator() -> FoundTranslations:
    known = {STOP: (HALTESTELLE, STOP_WEIGHTS), TENNIS: (SPIELEN, TENNIS_WEIGHTS), RACE: (RENNAUTO, RACE_WEIGHTS)}
    return FoundTranslations({source: text for source, (text, _) in known.items()},
                             weigh=lambda source, translation: known[source][1])


@pytest.mark.parametrize("page", [
    '<p>People are standing at the <a href="/bus">bus</a> <a href="/stop">stop</a>.</p>',
    '<p>People are standing at the <a href="/bus">bus</a> <a href="/stop">stop.</a></p>',
], ids=["stop-outside", "stop-inside"])
def test_the_word_goes_to_the_link_it_translates_most_and_the_other_beside_it(page):
    """"Bushaltestelle" gives "stop" 0.33 and "bus" 0.24: the first link placed took it, and "stop" came back in
    English after it, ``<a href="/bus">Bushaltestelle</a> <a href="/stop">stop</a>``."""
    out = translate_markup([page], translator())
    assert out == ['<p>Leute stehen an <a href="/bus">der</a> <a href="/stop">Bushaltestelle</a>.</p>']


@pytest.mark.parametrize(("page", "out"), [
    ('<p>Two men play <a href="/t">table</a> <a href="/n">tennis</a>.</p>',
     '<p>Zwei Männer spielen <a href="/t"></a><a href="/n">Tennis</a>.</p>'),
    ('<p>A man drives a red <a href="/r">race</a> <a href="/c">car.</a></p>',
     '<p>Ein Mann fährt ein roten <a href="/r">Rennauto</a><a href="/c"></a>.</p>'),
    ('<p>A man drives a red <a href="/r">race</a> <a href="/c"><i>car</i></a>.</p>',
     '<p>Ein Mann fährt ein roten <a href="/r">Rennauto</a><a href="/c"></a>.</p>'),
], ids=["verb-before", "adjective-before", "look-inside"])
def test_a_link_with_no_free_function_word_beside_the_shared_word_never_gets_its_english_back(page, out):
    """Beside "Tennis" stand the verb "spielen" and the stop, beside "Rennauto" the adjective "roten" (red), words
    that say something else: the word goes to the link it translates most ("Tennis" gives "tennis" 0.68, "table"
    0.30; "Rennauto" gives "race" 0.41, "car" 0.20), and the other stays around nothing at its edge, on the side it
    stood in the source, its href kept; its English text was written into the German sentence (``spielen <a
    href="/t">Tennis</a> <a href="/n">tennis</a>``, ``roten <a href="/r">Rennauto</a> <a href="/c">car.</a>.``)."""
    assert translate_markup([page], translator()) == [out]


def test_a_word_files_hyperlink_whose_words_a_sibling_link_holds_is_left_without_its_english():
    document = docx.Document()
    paragraph = document.add_paragraph("A man drives a red ")
    add_hyperlink(paragraph, "race", "https://example.org/race")
    paragraph.add_run(" ")
    add_hyperlink(paragraph, "car", "https://example.org/car")
    paragraph.add_run(".")
    out = translate_office(docx_bytes(document), ".docx", translator(), DocumentOptions())
    assert word_children(out) == [("r", "Ein Mann fährt ein roten "), ("hyperlink", "Rennauto"), ("hyperlink", ""),
                                  ("r", ".")]


def test_a_markdown_link_takes_the_function_word_beside_the_shared_word():
    out = translate_markdown("People are standing at the [bus](/bus) [stop](/stop).\n", translator())
    assert out == "Leute stehen an [der](/bus) [Bushaltestelle](/stop).\n"


@pytest.mark.parametrize(("page", "out"), [
    ("Two men play [table](/t) [tennis](/n).\n", "Zwei Männer spielen [](/t)[Tennis](/n).\n"),
    ("A man drives a red [race](/r) [car](/c).\n", "Ein Mann fährt ein roten [Rennauto](/r)[](/c).\n"),
    ("A man drives a red [race](/r) [*car*](/c).\n", "Ein Mann fährt ein roten [Rennauto](/r)[](/c).\n"),
    ("A man drives a red [race][r] [car][].\n\n[r]: /r\n[car]: /c\n",
     "Ein Mann fährt ein roten [Rennauto][r][][car].\n\n[r]: /r\n[car]: /c\n"),
], ids=["verb-before", "adjective-before", "look-inside", "references"])
def test_a_markdown_link_whose_words_a_sibling_link_holds_stays_around_nothing_as_a_pages(page, out):
    """The page's rule (above): ``[](/c)`` is CommonMark's ``<a href="/c"></a>``, the page's empty link, its
    destination kept; its English was written back and glued to the word before, ``[Rennauto](/r)[car](/c)``."""
    assert translate_markdown(page, translator()) == out



LOOKS = [
    ("People are standing at the [bus](/bus) [**stop**](/stop).",
     "Leute stehen an [der](/bus) [**Bushaltestelle**](/stop)."),
    ("People are standing at the [*bus*](/bus) [stop](/stop).",
     "Leute stehen an [*der*](/bus) [Bushaltestelle](/stop)."),
    ("Two men play [table](/t) [**tennis**](/n).", "Zwei Männer spielen [](/t)[**Tennis**](/n)."),
    ("Two men play [*table*](/t) [tennis](/n).", "Zwei Männer spielen [](/t)[Tennis](/n)."),
]


@pytest.mark.parametrize(("text", "out"), LOOKS)
def test_a_link_with_marks_inside_gets_the_shared_word_where_it_translates_it_most(text, out):
    """A link with marks of its own never won the word: ``[bus](/bus) [**stop**](/stop)`` came back ``[der](/stop)
    [Bushaltestelle](/bus)``, the links swapped, and ``[*table*](/t) [tennis](/n)`` ``[*Tennis*](/t)[](/n)`` ("Tennis"
    gives "tennis" 0.68, "table" 0.30).  Its marks go with it, around all of it where they wrapped all its words."""
    assert translate_markdown(text + "\n", translator()) == out + "\n"


@pytest.mark.parametrize("page, out", [
    ('<p>People are standing at the <a href="/bus">bus</a> <a href="/stop"><i>stop</i></a>.</p>',
     '<p>Leute stehen an <a href="/bus">der</a> <a href="/stop"><i>Bushaltestelle</i></a>.</p>'),
    ('<p>People are standing at the <a href="/bus"><b>bus</b></a> <a href="/stop">stop</a>.</p>',
     '<p>Leute stehen an <a href="/bus"><b>der</b></a> <a href="/stop">Bushaltestelle</a>.</p>'),
])
def test_a_pages_link_with_an_element_inside_gets_the_shared_word_by_the_same_rule(page, out):
    assert translate_markup([page], translator()) == [out]


@pytest.mark.parametrize("text", [
    "People are standing at the [bus](/bus) [stop](/stop).",
    "Two men play [table](/t) [tennis](/n).",
    *(text for text, _ in LOOKS[:2]),
])
def test_a_text_lines_links_share_a_word_as_a_markdown_files_do(text):
    """A text line gave the word to the first link placed: ``an der [Bushaltestelle](/bus)[](/stop)`` where the
    Markdown file wrote ``an [der](/bus) [Bushaltestelle](/stop)``, ``spielen [Tennis](/t)[](/n)`` where it wrote
    ``spielen [](/t)[Tennis](/n)``."""
    assert translate_lines([text], translator()) == [translate_markdown(text + "\n", translator())[:-1]]
