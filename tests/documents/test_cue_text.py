"""Cue text read into a flat text and written back (attnmt.documents.cue_text): which WebVTT
language spans are passages kept in their own language, and where an SRT tag starts, with the
stand-in translators of conftest.py."""

import warnings

import pytest

from attnmt.documents.cue_text import cue_flat, cue_markup
from attnmt.documents.pipeline import translate_flats


def translated(cue: str, translator, source_lang: str = "en") -> str:
    flat = cue_flat([cue], vtt=True, source_lang=source_lang)
    return cue_markup(flat, translate_flats([flat], translator)[0], vtt=True)


@pytest.mark.parametrize("cue, source_lang, given", [
    ("She said <lang fr>bonjour mon ami</lang> to the man.", "en", "She said to the man."),
    ("A <lang fr-CA>très <i>bien</i></lang> dog.", "en", "A dog."),
    ("Le mot <lang en>beach</lang> veut dire plage.", "fr", "Le mot veut dire plage."),
    ("A dog <lang de>läuft immer", "en", "A dog")])  # no end tag: it runs to the cue's end
def test_a_language_span_in_another_language_among_words_outside_it_is_kept_whole(same, cue, source_lang, given):
    """Translated, "bonjour mon ami" became German inside <lang fr>."""
    assert translated(cue, same, source_lang) == cue
    assert same.given == [given]


def test_a_kept_passage_moves_with_the_words_around_it_as_written(mirror):
    out = translated("She said <lang fr>bonjour &amp; salut</lang> to the man.", mirror)
    assert out == "MAN. THE <lang fr>bonjour &amp; salut</lang> TO SAID SHE"
    assert mirror.given == ["She said to the man."]


@pytest.mark.parametrize("cue, given", [
    ("A <lang en>red</lang> car.", "A red car."),  # the source's language
    ("A <lang en-GB>red</lang> car.", "A red car."),
    ("A <lang zxx>red</lang> car and a <lang x-klingon>dog</lang>.", "A red car and a dog."),
    ("A <lang>red</lang> car.", "A red car."),  # names no language
    ("<lang de>A red car.</lang>", "A red car."),  # holds all its cue's words
    ("<v Roger><lang de>A red car.</lang>", "A red car."),
    ("<lang fr>Le mot <lang fr>plage</lang> ici</lang>", "Le mot plage ici"),  # the language around it
    ('The word <i lang="fr">plage</i> means beach.', "The word plage means beach.")])  # no language in WebVTT
def test_a_language_span_to_translate_keeps_its_tags_around_its_translated_words(same, cue, given):
    assert translated(cue, same) == cue
    assert same.given == [given]


def test_a_passage_inside_a_span_is_kept_when_its_language_is_not_the_spans(same):
    cue = "<lang fr>Le mot <lang en>beach</lang> veut dire plage.</lang>"
    assert translated(cue, same) == cue
    assert same.given == ["Le mot veut dire plage."]


def test_without_a_source_language_every_span_is_translated(same):
    cue = "She said <lang fr>bonjour</lang> to the man."
    assert translated(cue, same, source_lang="") == cue
    assert same.given == ["She said bonjour to the man."]


@pytest.mark.parametrize("cue, given", [
    ("I <2 cats, he is > all dogs.", "I <2 cats, he is > all dogs."),  # a digit after the "<"
    ("If the cat < 5 and y > 7 the man wins.", "If the cat < 5 and the man wins."),  # a space after it; y > 7 is math
    ("<<The man>> said hello.", "<<The man>> said hello.")])  # ASCII guillemets: a "<" after another
def test_an_srt_less_than_sign_before_no_letter_or_slash_is_text_given_to_the_model(same, cue, given):
    """WebVTT's rule hid each up to its ">": the model was given "I all cats.", "If x 7 the man
    wins." and "<> said hello.", and the rest stayed in English unsaid.  (A comparison of one-letter variables or
    numbers, ``y > 7``, passes through whole, as in any text: attnmt.decoding.protected.COMPARISON.)"""
    with pytest.warns(UserWarning, match="^film.srt, line 3: a '<' that opens no tag is kept as text$"):
        flat = cue_flat([cue], vtt=False, wheres=["film.srt, line 3"])
    assert cue_markup(flat, translate_flats([flat], same)[0], vtt=False) == cue
    assert same.given == [given]


def test_an_srt_heart_typed_as_text_is_not_warned_about_as_a_broken_tag(same):
    """SRT escapes nothing, and "<3" is kept as a symbol (attnmt.documents.symbols.HEART): each was warned about as
    "a '<' that opens no tag", three warnings for "I <3 you <3 </3"; a WebVTT cue should write it "&lt;3"."""
    cue = "I <3 you <3 </3 so much."
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        flat = cue_flat([cue], vtt=False, wheres=["film.srt, line 3"])
    assert cue_markup(flat, translate_flats([flat], same)[0], vtt=False) == cue
    with pytest.warns(UserWarning, match="^film.srt, line 3: a '<' that opens no tag is kept as text$"):
        cue_flat(["I <3 you, 2 <5."], vtt=False, wheres=["film.srt, line 3"])  # one that is no heart's
    with pytest.warns(UserWarning, match=r"^film.vtt, line 3: a '<' that opens no tag is kept as text \(WebVTT"):
        cue_flat([cue], vtt=True, wheres=["film.vtt, line 3"])


@pytest.mark.parametrize("cue, vtt, given, written", [
    ("AT&T and Tom & Jerry &copy 2020.", False, "and &copy 2020.", "AT&T 2020. Tom & Jerry &COPY AND"),
    ("We shop at H&M.", False, "We shop at.", "AT H&M. SHOP WE"),
    ("We watched Tom &amp; Jerry.", False, "We watched.", "WATCHED Tom &amp; Jerry. WE"),
    ("We watched Tom &amp; Jerry.", True, "We watched.", "WATCHED Tom &amp; Jerry. WE"),
    ("Salt & pepper, R & D.", False, "Salt & pepper, R & D.", "D. & R PEPPER, & SALT")])  # no name's
def test_a_name_joined_by_an_ampersand_passes_through_a_cue_as_written(mirror, cue, vtt, given, written):
    """The demo model's vocabulary writes "&", but it dropped the name: "We watched Tom & Jerry." came back "Ein
    bereitet sich.", "A man works at AT&T." "Ein Mann arbeitet in der Nähe eines Footballs."; its references are
    written back as the cue wrote them."""
    flat = cue_flat([cue], vtt=vtt)
    assert cue_markup(flat, translate_flats([flat], mirror)[0], vtt=vtt, sources=[cue]) == written
    assert mirror.given == [given]


@pytest.mark.parametrize("cue, given", [
    ("Tom &amp; Jerry & friends", "& friends"),
    ("Salt &amp; pepper at H&M.", "Salt & pepper at."),
    ("AT&amp;T & Tom &amp; Jerry met.", "& met."),
    ("See https://example.com/?a=1&b=2 &amp; more.", "See & more.")])
def test_each_ampersand_of_an_srt_cue_comes_back_as_the_cue_wrote_it(same, cue, given):
    """A cue that wrote one "&" as "&amp;" had every "&" written so: "Tom &amp; Jerry & friends" came back "Tom
    &amp; Jerry &amp; friends".  What passes through (a name, a URL) is written as the cue wrote it, and a "&" the
    model writes as the rest of the cue wrote its own."""
    flat = cue_flat([cue], vtt=False)
    assert cue_markup(flat, translate_flats([flat], same)[0], vtt=False, sources=[cue]) == cue
    assert same.given == [given]


def test_a_name_right_after_an_srt_reference_is_read_with_it_and_written_once(same):
    """Found as written but not once "&amp;" before it was read, "AT&amp;T" went to the model unread and came back
    "AT&amp;amp;T"."""
    cue = "&amp;AT&amp;T you."
    flat = cue_flat([cue], vtt=False)
    assert cue_markup(flat, translate_flats([flat], same)[0], vtt=False, sources=[cue]) == cue
    assert same.given == ["&AT&T you."]


def test_srt_tags_open_at_a_letter_or_slash_as_before(same):
    cue = '<i>A</i> <b>red</b> <u>car</u> <s>and</s> <font color="red">a</font> <x>dog</x>.'
    flat = cue_flat([cue], vtt=False)
    assert cue_markup(flat, translate_flats([flat], same)[0], vtt=False) == cue
    assert same.given == ["A red car and a dog."]


@pytest.mark.parametrize("cue, given, written", [
    ("I am &amp; ready.", "I am & ready.", "READY. &amp; AM I"),  # mirror: the words in reverse
    ("I &lt;3 you, &quot;Tom&quot;.", "I <3 you, Tom.", "&quot;TOM&quot;. YOU, &lt;3 I"),  # quotes: around words
    ("At 5 &copy 2020.", "At 5 &copy 2020.", "2020. &COPY 5 AT")])
def test_an_srt_cues_character_references_are_read_and_written_back_as_references(mirror, cue, given, written):
    """The model was given "I am &amp; ready." and could translate the escape as a word; a "&" that
    starts no whole reference ("AT&T", HTML's "&copy" without its ";") is text as it was."""
    flat = cue_flat([cue], vtt=False)
    out = cue_markup(flat, translate_flats([flat], mirror)[0], vtt=False, sources=[cue])
    assert mirror.given == [given]
    assert out == written


@pytest.mark.parametrize("vtt", [False, True])
@pytest.mark.parametrize("cue, written", [
    ("<b>Warning: </b>Do not touch.", "<b>WARNING: </b>DO NOT TOUCH."),
    ("Do <u>not </u>touch it.", "DO <u>NOT </u>TOUCH IT."),
    ("A <c.yellow>big </c>dog.", "A <c.yellow>BIG </c>DOG.")])
def test_a_space_a_cue_wrote_inside_a_tags_edge_stays_inside_it(upper, vtt, cue, written):
    """It came back outside (``<b>WARNING:</b> DO``): a file that a CAT tool or a subtitle editor
    compares with its source had its tags' content changed, and an underline lost its last space."""
    flat = cue_flat([cue], vtt=vtt)
    assert cue_markup(flat, translate_flats([flat], upper)[0], vtt=vtt) == written
