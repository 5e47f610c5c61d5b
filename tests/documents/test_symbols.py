"""Symbols the model's vocabulary cannot write (an emoji) are kept where they stood, in every
format, as URLs are; one it writes is left to the model (attnmt.documents.symbols)."""

import io

import docx
from office_files import docx_bytes

from attnmt.decoding.inputs import writes_whole
from attnmt.documents.flat import FlatBuilder
from attnmt.documents.markup import translate_markup
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions, translate_lines
from attnmt.documents.subtitles import translate_subtitle_text
from attnmt.documents.symbols import take_out_symbols


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
    document = docx.Document()
    document.add_paragraph("A dog runs 👍🏽 fast.")
    out = docx.Document(io.BytesIO(translate_office(docx_bytes(document), ".docx", dropping, DocumentOptions())))
    assert out.paragraphs[0].text == "👍🏽 FAST. RUNS DOG A"


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
    assert [(m.start, m.end, m.atom, m.literal) for m in flat.marks] == [(5, 8, False, ""), (2, 2, True, "❤️")]
    assert (flat.marks[1].space_before, flat.marks[1].space_after) == (True, True)
    take_out_symbols(flat, writes)
    assert flat.text == "I my dog" and len(flat.marks) == 2


class Pieces:
    """A tokenizer's target side: one id per character, "?" unknown (1), "\u00e9" as two byte pieces."""

    def encode_target(self, text: str) -> list[int]:
        return [ord(c) if c not in "?\u00e9" else 1 for c in text if c != "\u00e9"] + [2, 3] * text.count("\u00e9")

    def id_to_piece(self, i: int) -> str:
        return {2: "<0xC3>", 3: "<0xA9>"}.get(i, chr(i) if i > 3 else "<unk>")


def test_the_vocabulary_writes_a_text_without_unknown_or_byte_pieces():
    writes = writes_whole(Pieces(), unk_id=1)
    assert writes("abc") and not writes("a?c") and not writes("caf\u00e9")
