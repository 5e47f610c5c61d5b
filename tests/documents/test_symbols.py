"""Symbols the model's vocabulary cannot write (an emoji) are kept where they stood, in every
format, as URLs are; one it writes is left to the model (attnmt.documents.symbols)."""

import copy
import io
import json
import random

import docx
import pytest
from office_files import docx_bytes
from support import run_cli

from attnmt.checkpoint import load_model_dir
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.inputs import writes_whole
from attnmt.documents import symbols, translate_text
from attnmt.documents.flat import FlatBuilder
from attnmt.documents.markdown import translate_markdown
from attnmt.documents.markup import translate_markup
from attnmt.documents.office import translate_office
from attnmt.documents.paragraphs import assess_lines, line_pairs
from attnmt.documents.pipeline import DocumentOptions, translate_lines
from attnmt.documents.subtitles import translate_subtitle_text
from attnmt.documents.symbols import lone_runs, take_out_symbols
from attnmt.documents.whole_sentence import model_reads, with_symbols


def word_paragraph(text: str, translator) -> str:
    """``text`` as a Word document's one paragraph, translated by ``translator``: the paragraph's text."""
    document = docx.Document()
    document.add_paragraph(text)
    out = docx.Document(io.BytesIO(translate_office(docx_bytes(document), ".docx", translator, DocumentOptions())))
    return out.paragraphs[0].text


def test_an_emoji_in_a_line_is_kept_by_its_word_not_dropped(dropping):
    translator = dropping
    assert translate_lines(["A dog runs 👍🏽 fast."], translator) == ["👍🏽 FAST. RUNS DOG A"]
    assert translator.given == ["A dog runs fast."]  # the model reads no unknown piece


def test_emoji_around_words_keep_their_spaces(dropping):
    assert translate_lines(["I ❤️ dogs", "🐕🐕 run"], dropping) == ["❤️ DOGS I", "🐕🐕 RUN"]


def test_a_symbol_the_vocabulary_writes_is_left_to_the_model(dropping):
    translator = dropping
    assert translate_lines(["I ♥ dogs."], translator) == ["DOGS. ♥ I"]
    assert translator.given == ["I ♥ dogs."]


def test_without_writes_every_symbol_is_left_to_the_translator(mirror):
    assert translate_lines(["A dog runs 👍🏽 fast."], mirror) == ["FAST. 👍🏽 RUNS DOG A"]


def test_an_emoji_in_html_is_kept_by_its_word(dropping):
    translated = translate_markup(["<p>A dog runs 👍🏽 <b>fast</b>.</p>"], dropping)[0]
    assert translated == "<p>👍🏽 <b>FAST</b>. RUNS DOG A</p>"


def test_an_emoji_in_a_subtitle_cue_is_kept_by_its_word(dropping):
    source = "1\n00:00:01,000 --> 00:00:02,000\nA dog runs 👍🏽 fast.\n"
    assert translate_subtitle_text(source, dropping) == "1\n00:00:01,000 --> 00:00:02,000\n👍🏽 FAST. RUNS DOG A\n"


def test_an_emoji_in_a_word_paragraph_is_kept_by_its_word(dropping):
    assert word_paragraph("A dog runs 👍🏽 fast.", dropping) == "👍🏽 FAST. RUNS DOG A"


def test_taking_out_symbols_moves_the_marks_after_them_and_again_changes_nothing(dropping):
    builder = FlatBuilder(collapse=False)
    builder.add_text("I ❤️ my ")
    builder.open("b")
    builder.add_text("dog")
    builder.close()
    flat = builder.build()
    writes = dropping.writes
    take_out_symbols(flat, writes)
    assert flat.text == "I my dog"
    assert [(m.start, m.end, m.atom, m.literal) for m in flat.marks] == [(2, 2, True, "❤️"), (5, 8, False, "")]
    assert (flat.marks[0].space_before, flat.marks[0].space_after) == (True, True)
    take_out_symbols(flat, writes)
    assert flat.text == "I my dog" and len(flat.marks) == 2


def test_separators_between_links_are_kept_not_dropped(dropping):
    """A separator the vocabulary cannot write ("|") stands alone between two links in a sentence:
    the model reads the words alone, and each "|" goes back before the word it stood before."""
    page = '<p>Go <a href="/a">home</a> | <a href="/b">back</a> now</p>'
    translated = translate_markup([page], dropping)[0]
    assert translated == '<p>NOW | <a href="/b">BACK</a> <a href="/a">HOME</a> GO</p>'
    assert dropping.given == ["Go home back now"]


def test_separators_between_links_alone_never_reach_the_model(dropping):
    """Links parted by separators alone (a footer) are translated each apart, the separators as written."""
    page = '<p><a href="/a">Home</a> | <a href="/b">About</a> | <a href="/c">Contact</a></p>'
    translated = translate_markup([page], dropping)[0]
    assert translated == '<p><a href="/a">HOME</a> | <a href="/b">ABOUT</a> | <a href="/c">CONTACT</a></p>'
    assert dropping.given == ["Home", "About", "Contact"]


def test_a_separator_between_a_space_and_a_link_stands_alone(dropping):
    assert translate_markup(['<p>Go <a href="/a">home</a> |<a href="/b">back</a></p>'], dropping) == [
        '<p>|<a href="/b">BACK</a> <a href="/a">HOME</a> GO</p>']
    assert dropping.given == ["Go home back"]


def test_lone_separators_in_plain_text_are_kept_by_their_words(dropping):
    assert translate_lines(["Home | About » Contact", "» Home →"], dropping) == ["» CONTACT | ABOUT HOME", "» HOME →"]
    assert dropping.given == ["Home About Contact", "Home"]


def test_signs_glued_to_a_word_or_that_the_vocabulary_writes_are_left_to_the_model(dropping):
    assert translate_lines(["Home|About - Contact & more"], dropping) == ["MORE & CONTACT - HOMEABOUT"]
    assert dropping.given == ["Home|About - Contact & more"]


def test_a_symbol_in_a_glossary_term_is_left_to_the_glossary(dropping):
    """Taken out, "→" had left "20" alone, and the term "20 →" was found nowhere."""
    dropping.glossary = Glossary.of({"20 →": "zwanzig"})
    assert translate_lines(["A dog runs. 20 →"], dropping) == ["RUNS. DOG A zwanzig"]


def test_a_text_read_whole_keeps_its_symbols_as_a_text_line_of_one_sentence_does(dropping):
    """A JSONL line's text, one sentence: the model reads it without what its vocabulary cannot
    write, and the translation gets each back where a text line's translation does."""
    text = "Home | About » Contact 👍🏽 now"
    read = model_reads(text, None, dropping.writes)
    [translation], _ = dropping.translate([read], [False])
    assert read == "Home About Contact now" and "|" not in translation
    written = with_symbols(text, read, translation, None, dropping.writes, dropping.weights)
    assert written == "👍🏽 NOW » CONTACT | ABOUT HOME"
    assert translate_lines([text], dropping) == ["👍🏽 NOW » CONTACT | ABOUT HOME"]


def test_a_comma_after_words_the_vocabulary_lacks_starting_a_sentence_goes_back_with_them(same_dropping):
    """"Привет мир, a dog runs." gave the model ", a dog runs.", and the comma was lost in every path
    ("Привет мир Ein Hund, der einen Hund rennt."): it now goes out and back with the words it follows."""
    same_dropping.writes = str.isascii  # a vocabulary without Cyrillic, as a Multi30k model's
    lines = ["Привет мир, a dog runs.", "A cat sleeps. Привет; a man walks."]
    assert translate_lines(lines, same_dropping) == lines
    assert same_dropping.given == ["a dog runs.", "A cat sleeps.", "a man walks."]
    assert model_reads(lines[0], None, same_dropping.writes) == "a dog runs."


def test_a_comma_after_an_element_of_words_the_vocabulary_lacks_goes_back_after_it(same_dropping):
    """``**Москва**, a man walks.`` gave the model ", a man walks.": the comma, outside the bold words, was lost."""
    same_dropping.writes = str.isascii
    assert translate_markdown("- **Москва**, a man walks.\n", same_dropping) == "- **Москва**, a man walks.\n"
    assert translate_markup(["<p><b>Москва</b>, a man walks.</p>"], same_dropping) == [
        "<p><b>Москва</b>, a man walks.</p>"]
    assert same_dropping.given == ["a man walks.", "a man walks."]


@pytest.mark.parametrize("page", ["<p>Price: <span>49.99 €</span> <del>59.99 €</del></p>",
                                  "<p>Price: <span>49.99&nbsp;€</span> <del>59.99 €</del></p>"])
def test_the_space_between_two_elements_of_kept_measures_stays(unitless, page):
    """A sale price beside its old one came back glued, "49.99 €59.99 €": the space between the two
    measures went with the first, and neither put it back between the elements."""
    assert translate_markup([page], unitless) == [page]
    assert unitless.given == ["Price:"]


def test_a_text_read_whole_without_such_symbols_is_read_and_written_as_it_is(dropping):
    """No tab splitting it, as a text line has them: a JSONL line without such symbols goes to the model and
    comes back exactly as before (but for a soft hyphen, which a text line drops too)."""
    for text in ["cooperative\tdogs", "I ♥ dogs."]:
        assert model_reads(text, None, dropping.writes) == text
        assert with_symbols(text, text, "DOGS. ♥ I", None, dropping.writes, dropping.weights) == "DOGS. ♥ I"


def test_a_text_read_whole_keeps_its_url_as_a_text_line_does(dropping):
    """attnmt.decoding.protected: given to the demo model, a JSONL line's "https://example.org/path?x=1" came back
    as words ("Auf dieser Fehirirme Cola-Fefolze"), and "$HOME" as "SOMAMESSSSt"."""
    text = "See https://example.com/a|b and $HOME now."
    read = model_reads(text, None, dropping.writes)
    [translation], _ = dropping.translate([read], [False])
    assert read == "See and now."
    written = with_symbols(text, read, translation, None, dropping.writes, dropping.weights)
    assert "https://example.com/a|b" in written and "$HOME" in written
    assert written == translate_lines([text], dropping)[0]


def test_a_text_read_whole_is_read_without_its_soft_hyphens(dropping):
    assert model_reads("co\u00adoperative\tdo\u00adgs", None, dropping.writes) == "cooperative\tdogs"


def test_a_text_read_whole_leaves_a_symbol_in_a_glossary_term_to_the_model(dropping):
    assert model_reads("A man from 👍 rides.", Glossary.of({"👍": "gut"}), dropping.writes) == "A man from 👍 rides."


def test_a_run_of_signs_stands_alone_between_spaces_or_edges_not_inside_a_word():
    #       0123456789012345678901234567890
    text = "a man´s e-mail 3½? | ok --» x|"
    assert list(lone_runs(text, edges=set(), breaks=set())) == [(19, 20), (24, 27)]
    assert list(lone_runs("x|y", edges={1}, breaks=set())) == []  # a mark's edge on both sides: glued
    assert list(lone_runs("x |y", edges={3}, breaks=set())) == [(2, 3)]  # a space and a mark's edge
    assert list(lone_runs("x|y", edges={1, 2}, breaks={2})) == [(1, 2)]  # a mark's edge and a line's end
    assert list(lone_runs("x|y", edges={2}, breaks={2})) == []  # glued to a word before a line's end


def test_a_line_is_paired_by_the_sentences_translate_read_without_the_symbols_it_kept(dropping):
    source, translation = "A dog runs. 👍 A cat | sleeps.", "Ein Hund rennt. 👍 Eine Katze | schläft."
    expected = [("A dog runs.", "Ein Hund rennt."), ("A cat sleeps.", "Eine Katze schläft.")]
    assert line_pairs(source, translation, DocumentOptions(), "de", writes=dropping.writes) == expected
    read: list[tuple[str, str]] = []

    def assess(sources: list[str], translations: list[str]) -> list[None]:
        read.extend(zip(sources, translations, strict=True))
        return [None] * len(sources)
    assess_lines(assess, [source], [translation], DocumentOptions(), "de", writes=dropping.writes)
    assert read == expected


class Pieces:
    """A tokenizer's target side: one id per character, "?" unknown (1), "\u00e9" as two byte pieces."""

    def encode_target(self, text: str) -> list[int]:
        return [ord(c) if c not in "?\u00e9" else 1 for c in text if c != "\u00e9"] + [2, 3] * text.count("\u00e9")

    def id_to_piece(self, i: int) -> str:
        return {2: "<0xC3>", 3: "<0xA9>"}.get(i, chr(i) if i > 3 else "<unk>")


def test_the_vocabulary_writes_a_text_without_unknown_or_byte_pieces():
    writes = writes_whole(Pieces(), unk_id=1)
    assert writes("abc") and not writes("a?c") and not writes("caf\u00e9")


def test_a_glossary_term_of_emoji_is_left_in_the_sentence_for_the_glossary(dropping):
    """Taken out before the terms were looked for, "👍" never reached the glossary: "A man from 👍
    rides." came back without its term, and a Word paragraph the same."""
    dropping.glossary = Glossary.of({"👍": "gut"})
    translate_lines(["A man from 👍 rides."], dropping)
    document = docx.Document()
    document.add_paragraph("A man from 👍 rides.")
    document.add_paragraph("👍")
    out = docx.Document(io.BytesIO(translate_office(docx_bytes(document), ".docx", dropping, DocumentOptions())))
    assert dropping.given == ["A man from 👍 rides."] * 2
    assert out.paragraphs[1].text == "gut"  # a paragraph of the term alone takes it without the model


SPACED = [
    "Two dogs run. 👍  ",  # spaces after a symbol at a line's end: the second was lost
    "Two dogs run. 👍 👍 ",  # the space after the last was lost
    "Two dogs run. 👍 ",
    "Two dogs run.\u00a0👍\u00a0",
    "Two dogs run.\t👍\t",
    "  👍  Two dogs run.",
    "👍 👍 Two dogs run.",
    "\t👍 Two dogs run.",
    "\u00a0👍\u00a0Two dogs run.",
    "A dog runs. 👍 A cat sleeps.",
    "A dog runs.  👍  A cat sleeps.",
    "A dog runs. 👍  👍 A cat sleeps.",
    "A dog runs.\u00a0👍\u00a0A cat sleeps.",
    "A dog runs.\t👍\tA cat sleeps.",
    "A dog runs 👍🏽 fast.",
]


def test_the_spacing_around_symbols_taken_out_comes_back_as_it_was(same_dropping):
    assert translate_lines(SPACED, same_dropping) == SPACED
    assert not any("👍" in sentence for sentence in same_dropping.given)


def test_the_spaces_after_a_symbol_ending_a_word_paragraph_are_kept(same_dropping):
    assert word_paragraph("Two dogs run. 👍  ", same_dropping) == "Two dogs run. 👍  "


def test_a_lone_run_keeps_the_stop_the_vocabulary_writes_for_the_sentence_split(dropping):
    """".»" was taken out whole, its stop with it, and the model read both sentences as one."""
    assert translate_lines(["A man runs .» a dog sleeps."], dropping) == [". RUNS MAN A » SLEEPS. DOG A"]
    assert dropping.given == ["A man runs .", "a dog sleeps."]


def summed_mover(removed):
    """The plain reference ``symbols.position_mover`` must equal: each removed span before a
    position, summed one by one."""
    return lambda position: position - sum(max(0, min(e, position) - s) for s, e in removed)


def test_moving_positions_past_removed_spans_equals_the_plain_sum():
    rng = random.Random(7)
    for _ in range(300):
        bounds = sorted(rng.sample(range(60), 2 * rng.randint(1, 12)))
        removed = [(bounds[k], bounds[k + rng.randint(0, 1)]) for k in range(0, len(bounds), 2)]  # some empty
        removed += [(removed[-1][1], removed[-1][1] + 2)]  # one right after the last: spans may touch
        fast, plain = symbols.position_mover(removed), summed_mover(removed)
        assert [fast(p) for p in range(70)] == [plain(p) for p in range(70)], removed


def test_spans_out_of_order_or_overlapping_are_refused_not_moved_wrongly():
    for removed in ([(5, 8), (1, 3)], [(1, 5), (4, 8)], [(4, 2)]):
        with pytest.raises(ValueError, match="sorted and not overlap"):
            symbols.position_mover(removed)


def random_flat(rng: random.Random):
    """A flat text of words, spaces, emoji, separators and a keycap, with bold marks and breaks at random."""
    builder, opened = FlatBuilder(collapse=False), 0
    for _ in range(rng.randint(1, 40)):
        step = rng.random()
        if step < 0.15:
            builder.open("b")
            opened += 1
        elif step < 0.3 and opened:
            builder.close()
            opened -= 1
        else:
            builder.add_text(rng.choice(["x", "dog", " ", "  ", "🐕", "👍🏽", "❤️", "|", "»", ".", "1️⃣", "♥", "-"]))
    for _ in range(opened):
        builder.close()
    flat = builder.build()
    flat.breaks[:] = sorted(rng.sample(range(len(flat.text) + 1), rng.randint(0, 2)))
    return flat


def test_symbols_taken_out_of_random_texts_move_marks_and_breaks_as_the_plain_sum_does(dropping, monkeypatch):
    rng, atoms = random.Random(11), 0
    for _ in range(300):
        fast = random_flat(rng)
        plain = copy.deepcopy(fast)
        take_out_symbols(fast, dropping.writes)
        with monkeypatch.context() as patch:
            patch.setattr(symbols, "position_mover", summed_mover)
            take_out_symbols(plain, dropping.writes)
        assert (fast.text, fast.marks, fast.breaks) == (plain.text, plain.marks, plain.breaks)
        atoms += sum(mark.atom for mark in fast.marks)
    assert atoms > 300  # symbols were taken out, and their spans counted


@pytest.mark.parametrize("page", [
    "<p>Press <kbd>Ctrl</kbd>|<kbd>C</kbd> to copy the text.</p>",
    "<p>Press <kbd>Ctrl</kbd>|<kbd>Alt</kbd>|<kbd>Del</kbd> now.</p>",
    "<p>Open <code>File</code> → <code>Save</code> to save.</p>",
    "<p>Open <b><code>File</code></b>→<code>Save</code> to save.</p>",
], ids=["touching", "two", "spaced", "in-another-element"])
def test_kept_elements_and_symbols_at_one_place_come_back_in_their_order_and_spacing(same_dropping, page):
    """The atoms of the symbols came after every other mark, so those at one place were written in
    that order: "Press  <kbd>Ctrl</kbd><kbd>C</kbd> | to copy the text.", the source garbled."""
    assert translate_markup([page], same_dropping) == [page]


@pytest.mark.parametrize("page, read", [
    ("<p>It is <b>12 °C</b> today.</p>", "It is today."),
    ("<p>Pay <span>5 €</span> or <span>£4</span> now.</p>", "Pay or now."),
])
def test_a_run_that_fills_an_element_takes_one_space_after_it_along(unitless, page, read):
    """The space after the element stayed: the model read "It is  today." and it came back with two spaces."""
    assert translate_markup([page], unitless) == [page]
    assert unitless.given == [read]


@pytest.mark.parametrize("line, read", [("We accept 5 €, 10 € and 20 €.", ["We accept and ."]),
                                        ("Sizes: 20 m², 30 m², 40 m²", ["Sizes"]),
                                        ("Mood: 👍🏽,👍🏽 and fine.", ["Mood", "and fine."])])
def test_runs_only_a_comma_apart_are_one_list_with_its_commas(unitless, line, read):
    """The model read "We accept , and", and the demo model dropped the comma: "5 €10 €".  A field's name before
    its value (Sizes:, Mood:) is translated alone (attnmt.text.field_names)."""
    assert translate_lines([line], unitless) == [line]
    assert unitless.given == read


def test_a_symbol_between_code_spans_in_markdown_stays_between_them(same_dropping):
    """It came back after both, the paragraph garbled: "Open `File` `Save` → to save."."""
    assert translate_markdown("Open `File` → `Save` to save.\n", same_dropping) == "Open `File` → `Save` to save.\n"


def test_a_symbol_between_kept_elements_stays_between_them_in_a_translation(dropping):
    page = "<p>Open <code>File</code> → <code>Save</code> to save.</p>"
    assert translate_markup([page], dropping) == ["<p>SAVE. <code>File</code> → <code>Save</code> TO OPEN</p>"]


def test_a_symbol_taken_out_goes_among_the_marks_where_it_stood(dropping):
    """A flat text's marks are in document order: the "|" atom between the two keys' atoms, the
    bold after them numbered one more and its parent's number with it."""
    builder = FlatBuilder()
    builder.add_atom(literal="Ctrl")
    builder.add_text("|")
    builder.add_atom(literal="C")
    builder.add_text(" to ")
    builder.open("b")
    builder.add_atom(literal="x")
    builder.close()
    flat = builder.build()
    take_out_symbols(flat, dropping.writes)
    assert flat.text == "to "
    assert [(m.literal, m.parent) for m in flat.marks] == [("Ctrl", None), ("|", None), ("C", None), ("", None),
                                                          ("x", 3)]
    assert (flat.marks[1].space_before, flat.marks[1].space_after) == (False, False)


def test_a_word_in_a_script_the_vocabulary_lacks_is_kept_not_dropped(trained_model, reached):
    """The model read "Αθήνα" as an unknown piece and dropped it ("a dog runs" was all the translation
    said); taken out as a symbol is, the model reads what it knows and the word goes back by its neighbours."""
    model, tokenizer = load_model_dir(trained_model)
    [found] = translate_text(model, tokenizer, ["a dog runs Αθήνα"])
    assert reached == ["a dog runs"] and "Αθήνα" in found.split()


def test_a_line_the_model_reads_nothing_of_passes_through(trained_model, reached, tmp_path, capsys):
    """A line in a script the vocabulary has no piece for came back as a sentence the model made up
    for unknown pieces ("Ein bereitet sich." from the Multi30k model), the line lost: it now passes
    through as a line without letters does, a plain line's and a JSONL line's alike."""
    model, tokenizer = load_model_dir(trained_model)
    lines = ["Привет мир", "東京タワー", "a dog runs"]
    assert translate_text(model, tokenizer, lines)[:2] == lines[:2] and reached == ["a dog runs"]
    given = tmp_path / "in.jsonl"
    given.write_text("".join(json.dumps({"text": line}, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    code, out, _ = run_cli(["translate", "--model", trained_model, given, "-"], capsys)
    assert code == 0 and out.splitlines()[:2] == lines[:2]


def test_a_word_in_capitals_the_vocabulary_writes_in_lower_case_reaches_the_model(trained_model, reached):
    """The tiny model's vocabulary has no capitals: "A DOG RUNS" was read as words of an unknown script
    and passed through untranslated, where it is the model's to read in sentence case (attnmt.decoding.capitals)."""
    model, tokenizer = load_model_dir(trained_model)
    [found] = translate_text(model, tokenizer, ["A DOG RUNS"])
    assert reached == ["A dog runs"] and found != "A DOG RUNS"


def test_words_the_vocabulary_lacks_parted_by_a_zero_width_space_pass_through_as_they_were(trained_model):
    """Thai parts its words with U+200B: each word was taken out alone around a lone U+200B, and
    the line came back reordered ("\\u200b ฉันกิน")."""
    model, tokenizer = load_model_dir(trained_model)
    assert translate_text(model, tokenizer, ["ฉัน\u200bกิน", "ฉัน กิน"]) == ["ฉัน\u200bกิน", "ฉัน กิน"]


def test_a_symbol_the_vocabulary_writes_only_as_letters_is_kept_not_read(same_dropping):
    """The tokenizer reads "™" as "TM" (NFKC), which the vocabulary writes: the demo model wrote "The man uses a
    Nokia™ phone." as "Der Mann verwendet ein T-Shirt.", the sign lost and "TM" read as a word."""
    assert translate_lines(["The man uses a Nokia™ phone."], same_dropping) == ["The man uses a Nokia™ phone."]
    assert same_dropping.given == ["The man uses a Nokia phone."]


def test_a_colon_glued_after_words_the_vocabulary_lacks_goes_back_with_them_where_either_is_full_width(
        same_dropping):
    """"注意：the dog runs." gave the model "：the dog runs.", whose translation lost the colon ("注意 Ein Hund ..."):
    Chinese and Japanese write no space after a full-width mark, nor after a word of theirs."""
    same_dropping.writes = str.isascii  # a vocabulary without Chinese, as a Multi30k model's
    lines = ["注意：the dog runs.", "价格，a cat sleeps.", "東京:a man walks.", "Привет мир,a dog runs."]
    assert translate_lines(lines, same_dropping) == lines
    assert same_dropping.given[:3] == ["the dog runs.", "a cat sleeps.", "a man walks."]
    assert same_dropping.given[3] == ",a dog runs."  # a word of a spaced script keeps a glued comma for the model


def test_brackets_around_a_sound_description_come_back_around_its_translation(dropping):
    # The vocabulary writes "(" and no "♪", as the demo model's: "( soft music)" was left to it, no pair around a
    # sentence, and the demo model wrote "Ein♪ bereitet sich ♪"; "(♪" and "♪)" are kept as "[♪" and "♪]" are.
    dropping.writes = lambda text: "♪" not in text
    lines = ["(♪ soft music ♪)", "[♪ upbeat music ♪]", "(♪ quiet music ♪) Do not touch the dog."]
    assert translate_lines(lines, dropping) == ["(♪ MUSIC SOFT ♪)", "[♪ MUSIC UPBEAT ♪]",
                                                "(♪ MUSIC QUIET ♪) DOG. THE TOUCH NOT DO"]
    assert dropping.given == ["soft music", "upbeat music", "quiet music", "Do not touch the dog."]
    cue = "1\n00:00:01,000 --> 00:00:02,000\n(♪ soft music ♪)\n"
    assert translate_subtitle_text(cue, dropping) == "1\n00:00:01,000 --> 00:00:02,000\n(♪ MUSIC SOFT ♪)\n"


def test_brackets_around_a_sound_description_with_a_note_on_one_side_come_back_around_its_translation(dropping):
    # "( soft music)" was left to the model, the "(" parted from the words, and the demo model wrote "Ein♪ bereitet
    # sich", both brackets lost: "(♪" and ")" are kept as "(♪" and "♪)" are.
    dropping.writes = lambda text: "♪" not in text and "[" not in text  # as the demo model's
    assert translate_lines(["(♪ soft music)", "[♪ upbeat music]"], dropping) == ["(♪ MUSIC SOFT)",
                                                                                  "[♪ MUSIC UPBEAT]"]
    assert dropping.given == ["soft music", "upbeat music"]
    cue = "1\n00:00:01,000 --> 00:00:02,000\n(♪ soft music)\n"
    assert translate_subtitle_text(cue, dropping) == "1\n00:00:01,000 --> 00:00:02,000\n(♪ MUSIC SOFT)\n"



def test_a_heart_typed_as_text_is_kept_as_a_symbol_the_vocabulary_cannot_write(dropping):
    """The demo model, which has no piece for "<", read "I <3 you." as "I 3 you." and wrote "Dieser 3 bereitet
    sich.": the heart is one symbol, as "♥" is, and goes where its neighbours' words went."""
    dropping.writes = lambda text: "<" not in text
    lines = ["I <3 you.", "We </3 rain!", "a < b and c > d", "A list<3> here"]
    assert translate_lines(lines, dropping) == ["<3 YOU. I", "</3 RAIN! WE", "a < b AND c > d", "HERE LIST<3> A"]
    assert dropping.given == ["I you.", "We rain!", "and", "A list<3> here"]  # a comparison kept whole
    cue = "1\n00:00:01,000 --> 00:00:02,000\nI <3 my dog.\n"
    assert translate_subtitle_text(cue, dropping) == "1\n00:00:01,000 --> 00:00:02,000\nDOG. <3 MY I\n"


def test_brackets_around_a_sound_description_with_a_stop_after_them_come_back_around_its_translation(dropping):
    # A stop after the bracket hid the ")" the note on one side is kept with: "( soft music)." went to the model,
    # and the demo model wrote "Ein♪ bereitet sich.", both brackets lost.
    dropping.writes = lambda text: "♪" not in text and "[" not in text  # as the demo model's
    lines = ["(♪ soft music).", "[♪ upbeat music]!", "(♪ quiet music ♪)."]
    assert translate_lines(lines, dropping) == ["(♪ MUSIC SOFT).", "[♪ MUSIC UPBEAT]!", "(♪ MUSIC QUIET ♪)."]
    assert dropping.given == ["soft music", "upbeat music", "quiet music"]
    cue = "1\n00:00:01,000 --> 00:00:02,000\n(♪ soft music).\n"
    assert translate_subtitle_text(cue, dropping) == "1\n00:00:01,000 --> 00:00:02,000\n(♪ MUSIC SOFT).\n"
