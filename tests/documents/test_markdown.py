"""Markdown files (attnmt.documents.markdown): the text of paragraphs, headings, lists, quotes, tables,
link texts and alt texts translated, with their emphasis and links carried by alignment; code,
destinations, front matter, comments and every byte of layout kept."""

import argparse
import random
import sys
import warnings

import pytest
from markdown_it import MarkdownIt
from support import run_cli

from attnmt.cli.document_options import chosen_input_format
from attnmt.documents.files import translate_file_bytes
from attnmt.documents.markdown import translate_markdown
from attnmt.documents.markup import translate_markup
from attnmt.documents.pipeline import DocumentOptions
from attnmt.errors import AttnmtWarning, ConfigError, DataError

FRONT_MATTER = "---\r\nslug: My *project*\r\ntags: [a, b]\r\n---\r\n"  # a title is translated: test_markdown_front.py
FENCE = '```python\r\nprint("hello world")  # a comment\r\n```\r\n'
README = (FRONT_MATTER + "\r\n"
          "# attnmt *toolkit*\r\n\r\n"
          "A _small_ toolkit for __translation__ with `code span` and a\r\n"
          '[link](https://example.com/a_b "Title") over two lines.\r\n\r\n'
          "See [the docs][docs] and <https://auto.link/x>.\r\n\r\n"
          "![A red car](img/car.png)\r\n\r\n"
          "- First item with **bold**\r\n"
          "  - Nested item\r\n"
          "- Second item\r\n\r\n"
          "> A quoted *sentence* here.\r\n\r\n"
          "| Name | Value |\r\n"
          "|------|------:|\r\n"
          "| alpha | `x` |\r\n"
          "| beta gamma | two words |\r\n\r\n"
          + FENCE + "\r\n"
          "<!-- a comment -->\r\n\r\n"
          "Setext heading\r\n"
          "==============\r\n\r\n"
          '[docs]: https://docs.example.com "Docs"\r\n')
KEPT = [FRONT_MATTER, FENCE, "`code span`", '](https://example.com/a_b "', "][docs]", "<https://auto.link/x>",
        "](img/car.png)", "`x` |", "<!-- a comment -->", '[docs]: https://docs.example.com "',
        "==============\r\n", "|------|------:|\r\n", "  - "]


def structure(text: str) -> list[tuple]:
    """Every token markdown-it reads, as (type, tag, markup, nesting), its inline children's types too
    but for soft line breaks (a paragraph's lines are written as one)."""
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    return [(t.type, t.tag, t.markup, t.nesting, [c.type for c in t.children or [] if c.type != "softbreak"])
            for t in tokens]


def rendered(text: str) -> list[str]:
    """The text of each inline run of ``text`` as markdown-it reads it (escapes resolved)."""
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    return ["".join(c.content for c in t.children) for t in tokens if t.type == "inline"]


def test_code_urls_front_matter_and_layout_are_kept_byte_for_byte(upper):
    translated = translate_markdown(README, upper)
    for kept in KEPT:
        assert kept in translated


def test_text_of_every_block_is_translated(upper):
    translated = translate_markdown(README, upper)
    for words in ("# ATTNMT *TOOLKIT*", "A _SMALL_ TOOLKIT FOR __TRANSLATION__ WITH `code span` AND A [LINK](",
                  "SEE [THE DOCS][docs] AND", "![A RED CAR](", "- FIRST ITEM WITH **BOLD**", "  - NESTED ITEM",
                  "> A QUOTED *SENTENCE* HERE.", "| BETA GAMMA | TWO WORDS |", "SETEXT HEADING\r\n===="):
        assert words in translated


def test_structure_is_the_sources(upper):
    assert structure(translate_markdown(README, upper)) == structure(README)


def test_crlf_line_endings_are_kept(upper):
    translated = translate_markdown(README, upper)
    assert translated.count("\n") == translated.count("\r\n") == README.count("\r\n") - 1  # two lines joined


def test_a_paragraphs_lines_are_one_sentence_written_on_one_line(same):
    translated = translate_markdown("One sentence\nacross two lines.\n", same)
    assert same.given == ["One sentence across two lines."]
    assert translated == "One sentence across two lines.\n"


def test_marks_follow_their_words_with_their_own_delimiters(mirror):
    translated = translate_markdown("A _small_ and __bold__ [link](u) here.\n", mirror)
    assert translated == "HERE. [LINK](u) __BOLD__ AND _SMALL_ A\n"


def test_a_hard_break_keeps_its_marker_and_the_next_lines_prefix(upper):
    translated = translate_markdown("> one two  \n> three four\\\n> five\n", upper)
    assert translated == "> ONE TWO  \n> THREE FOUR\\\n> FIVE\n"


def test_a_hard_break_ends_its_sentence_unless_the_next_line_goes_on_in_lower_case(mirror):
    """As a <br> in HTML does: read as a space, "Best regards, Anna Smith" was one sentence."""
    translated = translate_markdown("Best regards,  \nAnna Smith\n\nThe quick fox\\\njumps.\n", mirror)
    assert translated.startswith("REGARDS, BEST  \nSMITH ANNA\n\n")  # the break between the two translations
    assert mirror.given == ["Best regards,", "Anna Smith", "The quick fox jumps."]


def test_a_backslash_ending_a_block_is_kept_after_its_translation_not_doubled(mirror):
    """At a block's end a backslash is no hard break but itself (CommonMark): given to the model and
    written as the translation's last character, it came back escaped, ``\\\\``."""
    text = "A hard break at the end\\\n\n# A title \\\n\n- One item\\\n- Two\n\nA {.cls}\\\n\n\\\n"
    assert translate_markdown(text, mirror) == (
        "END THE AT BREAK HARD A\\\n\n# TITLE A \\\n\n- ITEM ONE\\\n- TWO\n\n{.CLS} A\\\n\n\\\n")
    assert mirror.given == ["A hard break at the end", "A title", "One item", "Two", "A {.cls}"]


@pytest.mark.parametrize(("text", "written"), [
    ("Hello there  \nmy friend.\n", "Mein Freund,  \nhallo.\n"),
    ("- Hello there  \n  my friend.\n- Bye.\n", "- Mein Freund,  \n  hallo.\n- Tschüss.\n"),
    ("> Hello there\\\n> my friend.\n>\n> Bye.\n", "> Mein Freund,\\\n> hallo.\n>\n> Tschüss.\n")])
def test_a_hard_break_the_alignment_puts_at_an_edge_of_the_translation_goes_between_its_words(known, text, written):
    """Put before the first word, it left a line of spaces ("  ", or "> \\") where the text had been;
    after the last, a blank line after the item, which made a tight list loose.  It goes to the gap between
    the translation's words nearest its share of the source (attnmt.documents.inner_breaks), as a cell's and a
    cue's break does: the line the writer broke stays broken, and no line is left empty."""
    translator = known({"Hello there my friend.": ("Mein Freund, hallo.", [(2, 0), (3, 1), (0, 2)]),
                        "Bye.": ("Tschüss.", [(0, 0)])})
    assert translate_markdown(text, translator) == written
    translator = known({"Hello there my friend.": ("Mein Freund, hallo.", [(0, 2), (1, 2)]), "Bye.": ("Tschüss.", [])})
    assert translate_markdown(text, translator) == written


INLINE_BREAKS = ("A man runs<br>A woman sleeps\n\n"
                 "| Name | Notes |\n|---|---|\n| cell one<BR />cell two | The quick fox<br/>jumps. |\n")


def test_an_inline_html_br_parts_its_words_and_is_written_back_byte_for_byte(same):
    """Read as a textless atom, it glued the words either side: the model got "A man runsA woman sleeps"."""
    assert translate_markdown(INLINE_BREAKS, same) == INLINE_BREAKS
    assert same.given == ["A man runs", "A woman sleeps", "Name", "Notes", "cell one cell two", "The quick fox jumps."]


def test_an_inline_html_br_is_a_line_break_its_tag_kept(mirror):
    translated = translate_markdown(INLINE_BREAKS, mirror)
    assert translated.startswith("RUNS MAN A<br>SLEEPS WOMAN A\n\n")  # ends its sentence, as a hard break does
    assert translated.count("<BR />") == translated.count("<br/>") == 1  # each tag as it was, carried with its words


@pytest.mark.parametrize("translation", ["1. Punkt", "# Titel", "- Punkt", "> Zitat", "---", "Ein *Stern",
                                         "Ein [Link] und `Code` <b> &amp; a_b_ \\", "2 * 3"])
def test_translated_text_that_looks_like_markdown_is_escaped(translation, fixed):
    translated = translate_markdown("A line\n", fixed(translation, [(0, 0), (1, 1)]))
    assert structure(translated) == structure("A line\n")
    assert rendered(translated) == [translation]


def test_escaping_is_minimal(fixed):
    assert translate_markdown("xy\n", fixed("2 * 3 und snake_case", [(0, 0)])) == "2 * 3 und snake_case\n"


def test_a_table_cell_escapes_its_pipes_and_a_heading_its_closing_hashes(fixed):
    table = "| ab |\n|---|\n| cd |\n"
    translated = translate_markdown(table, fixed("x | y", [(0, 0)]))
    assert translated == "| x \\| y |\n|---|\n| x \\| y |\n"
    assert rendered(translate_markdown("# Title\n", fixed("Titel #", [(0, 0)]))) == ["Titel #"]


def test_glossary_terms_are_written(termed):
    translated = translate_markdown("| Year |\n|---|\n| 2012 |\n\nIn 2012 we met.\n", termed)
    assert translated == "| YEAR |\n|---|\n| zweitausendzwölf |\n\nIN ZWEITAUSENDZWÖLF WE MET.\n"


def test_an_empty_file_and_a_file_of_code_come_back_as_they_were(same):
    code = "```sh\nmake test\n```\n\n    indented\n\n#\n\n| |\n|-|\n"  # an empty heading and cell too
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert translate_markdown("", same) == ""
        assert translate_markdown(code, same) == code
    assert same.given == []


def test_a_md_file_is_translated_as_markdown_by_its_extension(upper):
    data = README.encode("utf-8")
    translated = translate_file_bytes(data, "README.md", upper, DocumentOptions()).decode("utf-8")
    assert FENCE in translated and "# ATTNMT *TOOLKIT*" in translated


def test_without_markdown_it_a_md_file_is_plain_text_with_one_warning(monkeypatch, upper):
    monkeypatch.setitem(sys.modules, "markdown_it", None)  # as in a core install
    with pytest.warns(AttnmtWarning, match=r"pip install 'attnmt\[markdown\]'") as warned:
        translated = translate_file_bytes(b"# Title\n\n`code`\n", "a.md", upper, DocumentOptions())
    assert translated == b"# TITLE\n\n`code`\n" and len(warned) == 1
    with pytest.warns(AttnmtWarning, match=r"attnmt\[markdown\]"):
        assert chosen_input_format(argparse.Namespace(input_format=None, input="README.md")) == "text"
    with pytest.raises(ConfigError, match=r"--input-format markdown .*attnmt\[markdown\]"):
        chosen_input_format(argparse.Namespace(input_format="markdown", input="README.md"))


def test_translate_command_keeps_code_and_lists_review_lines(trained_model, tmp_path, capsys):
    source, output, review = tmp_path / "README.md", tmp_path / "README.de.md", tmp_path / "review.tsv"
    source.write_bytes(README.encode("utf-8"))
    code, _, err = run_cli(["translate", "--model", trained_model, source, output, "--review", review,
                            "--min-quality", "1"], capsys)
    assert code == 0, err
    translated = output.read_bytes().decode("utf-8")
    for kept in (FRONT_MATTER, FENCE, "<!-- a comment -->", '[docs]: https://docs.example.com "'):
        assert kept in translated
    lines = {int(row.split("\t")[0]) for row in review.read_text(encoding="utf-8").splitlines()[1:]}
    assert lines == {6, 8, 11, 13, 15, 16, 17, 19, 21, 23, 24, 32, 35}  # where each run starts (35: a title)


@pytest.mark.parametrize("text", ["Use the ` key to open the console.\n", "An escaped \\`x` here.\n",
                                  "| a |\n|---|\n| one ` two |\n", "Two `` and ` marks.\n"])
def test_a_backtick_without_its_closer_is_text(text, same):
    translated = translate_markdown(text, same)
    assert structure(translated) == structure(text) and rendered(translated) == rendered(text)


def test_code_spans_apart_in_the_source_stay_apart_where_their_text_is_dropped(fixed):
    text = "Types (`str`, `int`, etc).\n"
    translated = translate_markdown(text, fixed("Typen (usw.).", [(0, 0), (1, 1)]))  # reads "Types (etc)."
    assert translated == "Typen (`str`, `int`, usw.).\n"
    assert [c.type for c in MarkdownIt().parseInline(translated)[0].children].count("code_inline") == 2


@pytest.mark.parametrize("text", [
    "Press <kbd>`x`</kbd> now.\n",
    "Call [`pathlib.Path`](https://docs.python.org/3/library/pathlib.html)`.exists()` on the file.\n",
    "A man rides **`git`**`-style` bikes in the park.\n"])
def test_atoms_glued_in_the_source_stay_glued(same, text):
    """A code span right after a link or emphasis that ends in one gained a space: its delimiter is between them."""
    assert translate_markdown(text, same) == text


@pytest.mark.parametrize(("text", "written"), [
    ('Read <a href="https://x.org">the whole guide</a> before you start.\n',
     'START. YOU BEFORE <a href="https://x.org">GUIDE WHOLE THE</a> READ\n'),
    ("A <span class=\"x\">red **fast** car</span> runs.\n", "RUNS. <span class=\"x\">CAR **FAST** RED</span> A\n"),
    ("A <b>red</i> car</b> runs.\n", "RUNS. <b>CAR RED</i></b> A\n"),
    ("A <span />red car runs.\n", "RUNS. CAR <span />RED A\n"),
    ('## <a id="intro"></a>Introduction here\n', '## <a id="intro"></a>HERE INTRODUCTION\n'),
    ('A <span class="icon"></span> big dog.\n', 'DOG. <span class="icon"></span> BIG A\n'),
    ('Use <Highlight color="#25c2a0">Docusaurus green</Highlight> now.\n',  # MDX: an end tag first does not build
     'NOW. <Highlight color="#25c2a0">GREEN DOCUSAURUS</Highlight> USE\n'),
    ("An <my-tag>inline custom</my-tag> tag.\n", "TAG. <my-tag>CUSTOM INLINE</my-tag> AN\n")])
def test_an_inline_html_element_stays_around_its_words(mirror, text, written):
    """Its start and end tags were each an atom, placed apart: turned around, the link read
    'GUIDE</a> WHOLE <a href="https://x.org">THE', an end before its start.  An end tag that closes
    no start tag (``</i>``) is still an atom."""
    assert translate_markdown(text, mirror) == written


def test_an_inline_html_link_the_alignment_leaves_empty_gets_its_text_back_as_a_pages(fixed):
    """Its tags kept, and its text written back with the space the source had before it, as a page's link (it was
    left around nothing, ``Jetzt klicken.<a href="x"></a>``), before the stop that ends the translation, as in the
    source (final_stops.before_sentence_stop)."""
    translator = fixed("Jetzt klicken.", [(0, 1), (3, 0)])
    assert translate_markdown('Click <a href="x">here</a> now.\n', translator) == \
        'Jetzt klicken <a href="x">here</a>.\n'
    assert translate_markup(['<p>Click <a href="x">here</a> now.</p>'], translator) == \
        ['<p>Jetzt klicken <a href="x">here</a>.</p>']


def test_a_table_that_starts_a_list_item_has_its_header_translated(upper):
    """Its header row's first cell was read as the item's marker ("- "), not found, and kept with a warning."""
    text = "- | In a list | Table |\n  |---|---|\n  | a b | c d |\n\n> 1. | Quoted | Item |\n>    |---|---|\n"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        translated = translate_markdown(text, upper)
    assert translated == ("- | IN A LIST | TABLE |\n  |---|---|\n  | A B | C D |\n\n"
                          "> 1. | QUOTED | ITEM |\n>    |---|---|\n")
    assert structure(translated) == structure(text)


def test_a_character_written_as_a_reference_is_written_so_again(same, mirror):
    """Written as the characters, ``&nbsp;`` became an invisible no-break space in the file."""
    text = ("Copyright &copy; 2024 the authors &mdash; all rights.\n\n| 10&nbsp;km | a &#8212; b |\n|---|---|\n\n"
            "Code `&copy;` and &amp; stay.\n")
    assert translate_markdown(text, same) == text.replace("&amp;", "&")
    assert translate_markdown(text, mirror).startswith("RIGHTS. ALL &mdash; AUTHORS THE 2024 &copy; COPYRIGHT\n")
    assert mirror.given[0] == "Copyright © 2024 the authors — all rights."


def test_a_code_span_in_a_table_cell_keeps_its_escaped_pipe(same):
    table = "| A | B |\n|---|---|\n| A man runs `a \\| b` with a dog | A dog runs |\n"
    assert translate_markdown(table, same) == table


@pytest.mark.parametrize(("text", "written"), [
    ("Please [donate today][] now.\n", "[DONATE TODAY][donate today]"),
    ("Read [the docs] now.\n", "[THE DOCS][the docs]"),
    ("See ![a\nlogo][] now.\n", "![A LOGO][a logo]")])
def test_a_collapsed_or_shortcut_reference_is_written_with_its_own_label(text, written, upper):
    definitions = "\n[donate today]: https://d.example\n[the docs]: https://e.example\n[a logo]: l.png\n"
    translated = translate_markdown(text + definitions, upper)
    assert written in translated
    assert structure(translated) == structure(text + definitions)


def emphases(text: str) -> list[tuple[str, str]]:
    """(delimiter, text) of each emphasis markdown-it reads in ``text``'s inline runs, in order."""
    tokens = [c for t in MarkdownIt("commonmark").enable("strikethrough").parse(text) if t.type == "inline"
              for c in t.children]
    return [(opening.markup, tokens[k + 1].content) for k, opening in enumerate(tokens)
            if opening.type in ("em_open", "strong_open", "s_open")]


@pytest.mark.parametrize("text, expected", [
    ("X **bold** Y\n", [("**", "bold")]),
    ("X _it_ Y\n", [("_", "it")]),
    ("X ~~gone~~ Y\n", [("~~", "gone")]),
    ("X `a`*b*`c` Y\n", [("*", "b")]),
])
def test_an_emphasis_left_empty_gets_its_source_words_back_as_a_link_does(text, expected, fixed):
    """As a page's ``<b>`` (attnmt.documents.emptied_marks.is_worded_code): the model dropped its words or the
    alignment put them outside it, and written as its content alone, its ``**`` or ``_`` pair was lost."""
    translated = translate_markdown(text, fixed("X Y", [(0, 0), (2, 1)]))
    assert emphases(translated) == expected and translated.startswith("X ") and translated.endswith(" Y\n")
    translated = translate_markdown("X [link](u) Y\n", fixed("X Y", [(0, 0), (2, 1)]))
    assert "[link](u)" in translated and "*" not in translated


def test_an_emphasis_beside_one_that_took_its_words_is_not_written_twice(fixed):
    """``**black** and **white**`` as one word: the second is left out, as a page's ``<b>`` beside a ``<b>`` is."""
    translated = translate_markdown("**black** and **white** cats\n",
                                    fixed("schwarz-weiße Katzen", [(0, 0), (2, 0), (3, 1)]))
    assert emphases(translated) == [("**", "schwarz-weiße")] and "white" not in translated


@pytest.mark.parametrize("translation", ["1. Einleitung", "- Punkt", "> Zitat", "# Titel"])
def test_a_setext_headings_text_that_would_start_a_block_is_escaped(translation, fixed, same):
    text = "An introduction\n====\n"
    translated = translate_markdown(text, fixed(translation, [(0, 0), (1, 1)]))
    assert structure(translated) == structure(text) and rendered(translated) == [translation]
    assert translate_markdown("1\\. Introduction\n====\n", same) == "1\\. Introduction\n====\n"


def test_an_alt_texts_emphasis_is_read_as_text_not_written_as_literal_marks(same):
    translated = translate_markdown("![A dog *runs*](a.png)\n", same)
    assert translated == "![A dog runs](a.png)\n"
    assert same.given == ["A dog runs"]


PIECES = ["`", "``", "\\`", "*", "**", "_", "~~", "[", "]", "(", ")", "![", "](u)", "][]", "<http://a.b>", "<b>", "\\",
          "|", "\\|", "#", "- ", "1. ", "> ", "\n", "  \n", "word", "two words", " ", "&amp;", "!", "[x]: u\n", "```\n",
          "===\n", "[ ] ", "[^1]", ":smile:", "é"]


def test_odd_markdown_comes_back_without_an_error(mirror, fixed):
    """Seeded odd inputs (unclosed code spans, stray brackets, escapes, cells): no exception escapes."""
    pick = random.Random(7)
    for _ in range(300):
        text = "".join(pick.choice(PIECES) for _ in range(pick.randint(1, 20)))
        if pick.random() < 0.3:
            text = "| a | b |\n|---|---|\n| " + text.replace("\n", " ") + " | c |\n"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for translator in (mirror, fixed("", [])):
                assert isinstance(translate_markdown(text, translator), str)


def test_a_task_list_items_box_is_kept_before_its_translated_text(mirror):
    text = "- [ ] Buy *fresh* milk\n- [x] Done today\n"
    assert translate_markdown(text, mirror) == "- [ ] MILK *FRESH* BUY\n- [x] TODAY DONE\n"
    assert mirror.given == ["Buy fresh milk", "Done today"]


def test_strikethrough_is_a_mark_carried_as_emphasis_is(mirror):
    assert translate_markdown("A ~~struck out~~ word\n", mirror) == "WORD ~~OUT STRUCK~~ A\n"
    assert mirror.given == ["A struck out word"]


def test_footnotes_and_emoji_codes_are_kept_whole(mirror):
    text = "Fast :rocket: engine at 10:30 [^1].\n\n[^1]: The first note.\n\n| :+1: ok |\n|---|\n| [^2] be |\n"
    translated = translate_markdown(text, mirror)
    assert translated.startswith("10:30 [^1]. AT :rocket: ENGINE FAST\n\n[^1]: NOTE. FIRST THE\n")
    assert "| :+1: OK |" in translated and "| [^2] BE |" in translated
    assert mirror.given == ["Fast engine at 10:30.", "The first note.", "ok", "be"]


@pytest.mark.parametrize("ending", ["\n", "\r\n"])
def test_a_footnote_definitions_body_on_the_next_line_stays_on_its_own_line(ending, upper):
    text = f"Text[^note] here.{ending}{ending}[^note]:{ending}    The indented note body.{ending}"
    translated = translate_markdown(text, upper)
    assert translated == (f"TEXT[^note] HERE.{ending}{ending}[^note]:{ending}    THE INDENTED NOTE BODY.{ending}")
    assert structure(translated) == structure(text)


@pytest.mark.parametrize("note", ["Wikipedia.", 'Translated "by hand"'])
def test_a_footnote_definition_that_reads_as_a_reference_definition_is_translated(note, same, upper):
    text = f"Text[^1] here.\n\n[^1]: {note}\n\n[ref]: https://example.com/a_b\n"
    translated = translate_markdown(text, upper)
    assert translated.startswith(f"TEXT[^1] HERE.\n\n[^1]: {note.upper()}\n\n")
    assert translated.endswith("\n\n[ref]: https://example.com/a_b\n")
    assert translate_markdown(text, same) == text


def test_footnote_definitions_on_consecutive_lines_are_each_their_own_note(mirror):
    text = "Text[^a] and[^b].\n\n[^a]: The first note.\n[^b]: The second note.\n    Its lazy line.\n"
    translated = translate_markdown(text, mirror)
    assert translated.endswith("\n\n[^a]: NOTE. FIRST THE\n[^b]: NOTE. SECOND THE LINE. LAZY ITS\n")
    assert mirror.given[1:] == ["The first note.", "The second note.", "Its lazy line."]


def test_a_footnote_definitions_indented_further_paragraphs_are_its_own_and_translated(upper):
    text = ("Text[^1] here.\n\n[^1]: The first paragraph.\n\n    The second paragraph.\n\n"
            "        code stays\n\n    > A quote in it.\n\nOut of the note.\n\n    Code again.\n")
    assert translate_markdown(text, upper) == (
        "TEXT[^1] HERE.\n\n[^1]: THE FIRST PARAGRAPH.\n\n    THE SECOND PARAGRAPH.\n\n"
        "        code stays\n\n    > A QUOTE IN IT.\n\nOUT OF THE NOTE.\n\n    Code again.\n")


def test_math_is_kept_whole_and_a_display_block_byte_for_byte(mirror):
    text = ("The area is $\\pi r^2$ for a dog.\n\n$$\nx = y + 1\n$$\n\n"
            "Both $`a*b`$ and $$\\sum_k k$$ stay.\n\n```math\nx^2\n```\n")
    assert translate_markdown(text, mirror) == ("DOG. A $\\pi r^2$ FOR IS AREA THE\n\n$$\nx = y + 1\n$$\n\n"
                                                "$$\\sum_k k$$ STAY. $`a*b`$ AND BOTH\n\n```math\nx^2\n```\n")
    assert mirror.given == ["The area is for a dog.", "Both and stay."]


@pytest.mark.parametrize("text, given", [
    ("It costs $5 and $10, or $5/$10 a day.\n", "It costs $5 and $10, or $5/$10 a day."),
    ("Set $HOME and $PATH before you start.\n", "Set and before you start."),  # a shell's: kept as they are
])
def test_prices_and_shell_variables_are_text_not_math(text, given, same):
    """Math's closing ``$`` follows a non-space and is not followed by a digit (pandoc's and GitLab's rule)."""
    assert translate_markdown(text, same) == text
    assert same.given == [given]


def test_an_alerts_line_is_kept_on_its_own_line_and_its_body_translated(mirror, same):
    text = "> [!NOTE]\n> A dog runs  \n> in the park.\n\n> [!warning]\n>\n> Hot *water*.\n"
    assert translate_markdown(text, same) == text
    assert translate_markdown(text, mirror) == ("> [!NOTE]\n> PARK. THE  \n> IN RUNS DOG A\n\n"
                                                "> [!warning]\n>\n> *WATER*. HOT\n")
    assert mirror.given == ["A dog runs in the park.", "Hot water."]


@pytest.mark.parametrize("text, given, written", [
    ("> **Note**\n> A dog runs in the park.\n", ["Note", "A dog runs in the park."],
     "> **NOTE**\n> PARK. THE IN RUNS DOG A\n"),
    ("> **Warning**\n> Hot water.\n", ["Warning", "Hot water."], "> **WARNING**\n> WATER. HOT\n"),
    ("- __Tip:__\n  Use a leash.\n", ["Tip:", "Use a leash."], "- __TIP:__\n  LEASH. A USE\n"),
    ("**Caution**:\nThe cat bites.\n", ["Caution:", "The cat bites."], "**CAUTION**:\nBITES. CAT THE\n"),
])
def test_a_label_in_strong_emphasis_on_its_own_line_is_a_title_apart(mirror, same, text, given, written):
    """GitHub's old ``> **Note**`` alert: the model was given "Note A dog runs in the park." as one sentence."""
    assert translate_markdown(text, mirror) == written
    assert mirror.given == given
    assert rendered(translate_markdown(text, same)) == rendered(text)


def test_escaped_strikethrough_emoji_and_math_stay_escaped(same):
    text = "Not \\~~struck\\~~, not \\:smile:, not \\$x\\$ but ~ and 10:30 and $5.\n"
    assert translate_markdown(text, same) == "Not \\~~struck\\~~, not \\:smile:, not \\$x$ but ~ and 10:30 and $5.\n"
    assert rendered(translate_markdown(text, same)) == rendered(text)


@pytest.mark.parametrize("opener", ["--- ", "---\t", "+++  "])
def test_front_matter_whose_opening_line_ends_in_spaces_is_kept(opener, upper):
    text = f"{opener}\nslug: A dog runs\nlayout: post\n{opener.rstrip()}\n\nA man walks.\n"
    assert translate_markdown(text, upper) == text.replace("A man walks.", "A MAN WALKS.")


@pytest.mark.parametrize("data", [b"A dog runs.\n\n```bat\r\necho on\r\n```\r\n",
                                  b"A dog runs.\r\n\r\n```sh\necho on\n```\n"])
def test_a_file_mixing_crlf_and_lf_keeps_each_lines_own_ending(data, upper):
    translated = translate_file_bytes(data, "mixed.md", upper, DocumentOptions())
    assert translated == data.replace(b"A dog runs.", b"A DOG RUNS.")


@pytest.mark.parametrize("data", [b"a dog runs.\n\n```bat\r\necho on\r\n```\r\n",
                                  b"```bat\r\necho on\r\n```\n\na dog runs.\r"])
def test_translate_command_keeps_each_lines_own_ending(data, trained_model, tmp_path, capsys):
    source, output = tmp_path / "mixed.md", tmp_path / "mixed.de.md"
    source.write_bytes(data)
    code, _, err = run_cli(["translate", "--model", trained_model, source, output], capsys)
    assert code == 0, err
    assert output.read_bytes() == data.replace(b"a dog runs.", b"ein hund rennt")


@pytest.mark.parametrize(("text", "atom"), [("- A man runs `foo\n      # bar` now.\n", "`foo\n      # bar`"),
                                            ("> A dog <!--\n>     > x --> runs.\n", "<!--\n>     > x -->"),
                                            ("> A dog `a\r\n> b` runs.\r\n", "`a\r\n> b`")])
def test_a_code_span_or_inline_html_over_lines_keeps_their_prefixes_and_endings(text, atom, same, mirror):
    assert translate_markdown(text, same) == text
    assert atom in translate_markdown(text, mirror)


@pytest.mark.parametrize(("text", "kept"), [
    ("> See [the guide](\n> https://example.com/guide) for more.\n", "](\n> https://example.com/guide)"),
    ('- See [the guide](\n  https://e.com/guide\n  "Guide") now.\n', '](\n  https://e.com/guide\n  "GUIDE")'),
    ("> A ![red car](\r\n> img/car.png) here.\r\n", "](\r\n> img/car.png)")])
def test_a_link_or_image_destination_over_lines_keeps_their_prefixes_and_endings(text, kept, same, mirror):
    assert translate_markdown(text, same) == text
    assert kept in translate_markdown(text, mirror)


def test_a_hard_break_in_a_links_text_keeps_its_own_lines_prefix_before_a_destination_over_lines(same):
    """The destination's line breaks come after the text's: the hard break is the first line's, ``  \\n> ``."""
    text = "> A [dog  \n> runs](\n>u) here.\n"
    assert translate_markdown(text, same) == text


def test_a_links_source_text_over_lines_written_back_stays_in_its_quote(fixed):
    """Where the alignment leaves the link empty, its source text is written on the translation's one line."""
    translated = translate_markdown("> See [the\n> guide](u) now.\n", fixed("Jetzt sehen.", [(0, 1), (3, 0)]))
    assert translated == "> [the guide](u) Jetzt sehen.\n"


@pytest.mark.parametrize(("text", "written"), [
    ("See [the guide][g] people.\n\n[g]: /g\n", "Siehe [the guide][g] Leute.\n\n[g]: /g\n"),
    ("- See [the `guide` *here*](/x) people.\n", "- Siehe [the `guide` *here*](/x) Leute.\n"),
    ("| See [the a\\*b](/x) people. |\n|---|\n", "| Siehe [the a\\*b](/x) Leute. |\n|---|\n"),
], ids=["reference", "marks-inside", "cell"])
def test_a_link_the_model_dropped_gets_its_whole_text_back_apart_from_the_next_word(fixed, text, written):
    """As a page's link (attnmt.documents.emptied_marks): its source text with its marks, a space either side where
    the source had one.  It was glued to the next word, ``[the guide][g]Leute``, and lost the words beside a code
    span, ``[`guide` ](/x)Leute``."""
    assert translate_markdown(text, fixed("Siehe Leute.", [(0, 0), (3, 1)])) == written


def test_emphasis_nested_hundreds_deep_is_translated(upper):
    """``*a *a … a* a*``: reading what each mark shows, and writing the marks back, recursed once or twice
    a mark, a RecursionError from about 250 deep, below pages.MAX_DEPTH.  505 deep, the deepest the
    limit lets through, holds all that 300 deep did (and its work grows faster than the depth: one
    depth is enough)."""
    depth = 505
    text = "*a " * depth + "a" + " a*" * depth + "\n"
    assert translate_markdown(text, upper) == text.upper()


@pytest.mark.parametrize("text, line", [("A\x01b\n", 1), ("A dog.\n\nA\x0bb and ![a\x07b](x.png)\n", 3)])
def test_a_control_character_in_a_paragraphs_text_is_refused_naming_its_line(upper, text, line):
    """lxml's bare ValueError ("All strings must be XML compatible") before; an XHTML page's is refused so too."""
    with pytest.raises(DataError, match=rf"^doc.md, line {line}: the text holds the control character"):
        translate_markdown(text, upper, where="doc.md")


def test_a_control_character_in_a_code_span_is_kept(upper):
    assert translate_markdown("`A\x01b` and a dog\n", upper) == "`A\x01b` AND A DOG\n"


@pytest.mark.parametrize("text, expected, html", [
    ("[[1](x)](y)\n", "\\[[1](x)\\](Y)\n", '[<a href="x">1</a>](Y)'),
    ("See [[1](x)](y) here.\n", "SEE \\[[1](x)\\](Y) HERE.\n", 'SEE [<a href="x">1</a>](Y) HERE.'),
    ("a [[b c](x)](y) d\n", "A \\[[B C](x)\\](Y) D\n", 'A [<a href="x">B C</a>](Y) D'),
])
def test_a_link_inside_brackets_keeps_to_its_own_text(upper, text, expected, html):
    """CommonMark reads ``[[1](x)](y)`` as ``[``, a link, and ``](y)`` as text; its text one word with the
    brackets', the link was stretched over that word: ``\\[[1\\](Y](x))``, a link over ``1](Y``."""
    out = translate_markdown(text, upper)
    assert out == expected and structure(out) == structure(text)
    assert MarkdownIt("commonmark").render(out) == f"<p>{html}</p>\n"


def test_an_html_blocks_words_are_translated_and_its_markup_kept(mirror):
    """A README's ``<p align="center">``, a note's ``<div>``, MDX's ``<Tabs>``: their text was kept in the source
    language, the whole block being kept as it was."""
    text = ('<p align="center">\n  <b>Fast</b> web framework.\n</p>\n\n<div class="note">\nA man rides a bike.\n'
            '</div>\n\n<Tabs>\n  <TabItem value="a" label="Apple">\n    A dog runs.\n  </TabItem>\n</Tabs>\n')
    assert translate_markdown(text, mirror) == (
        '<p align="center">\n  FRAMEWORK. WEB <b>FAST</b>\n</p>\n\n<div class="note">\nBIKE. A RIDES MAN A\n'
        '</div>\n\n<Tabs>\n  <TabItem value="a" label="Apple">\n    RUNS. DOG A\n  </TabItem>\n</Tabs>\n')


@pytest.mark.parametrize("block", [
    '<div class="note">\n<p>A man rides a bike.\n',  # left open for the Markdown after it
    '<p class="a" class="b">A man rides a bike.</p>\n',  # written with one class by HTML's writer
    '<p>A man rides a &quot;bike&quot;.</p>\n',  # written with plain quotes
])
def test_an_html_block_the_writer_would_change_is_kept_byte_for_byte(mirror, block):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert translate_markdown(f"{block}\nA dog runs.\n", mirror) == f"{block}\nRUNS. DOG A\n"


def test_an_mdx_components_text_on_lines_of_its_own_stays_on_them(mirror):
    """MDX reads a component's text on lines of its own as a paragraph, on the tag's line as inline text: its
    line breaks were lost, ``<Card title={title}>BIKE. A RIDES MAN A</Card>``."""
    text = "<Card title={title}>\n  A man rides a bike.\n</Card>\n\nA dog runs.\n"
    assert translate_markdown(text, mirror) == "<Card title={title}>\n  BIKE. A RIDES MAN A\n</Card>\n\nRUNS. DOG A\n"


def test_a_highlight_is_a_mark_its_delimiters_kept_around_its_words(mirror):
    """Read as text, ``==very important==`` went to the model, which moved its ``==`` apart."""
    text = "This is ==very important== text, and a == b stays.\n\n[A ==red== car](u)\n"
    assert translate_markdown(text, mirror) == (
        "a == b STAYS. AND TEXT, ==IMPORTANT VERY== IS THIS\n\n[CAR ==RED== A](u)\n")  # a comparison: kept whole
    assert mirror.given == ["This is very important text, and stays.", "A red car"]


MDX_TABS = '<Tabs>\n  <TabItem value="a">\n\n    A man rides a bike.\n\n  </TabItem>\n</Tabs>\n'


def test_text_indented_in_an_mdx_component_is_translated(mirror):
    """MDX has no indented code: the text of a ``<TabItem>`` indented under it was kept as code."""
    out = translate_file_bytes(MDX_TABS.encode(), "docs/intro.mdx", mirror, DocumentOptions()).decode()
    assert out == MDX_TABS.replace("A man rides a bike.", "BIKE. A RIDES MAN A")


def test_text_indented_four_spaces_in_a_markdown_file_is_still_code(mirror):
    assert translate_file_bytes(MDX_TABS.encode(), "docs/intro.md", mirror, DocumentOptions()).decode() == MDX_TABS


def test_an_html_block_with_crlf_line_endings_is_translated_and_keeps_them(mirror):
    text = '<div class="note">\r\nA man rides a bike.\r\n</div>\r\n\r\nA dog runs.\r\n'
    assert translate_markdown(text, mirror) == (
        '<div class="note">\r\nBIKE. A RIDES MAN A\r\n</div>\r\n\r\nRUNS. DOG A\r\n')



@pytest.mark.parametrize("text", [
    "Some **bold text**_italic text_ here.\n",
    "Some *bold text*__italic text__ here.\n",
    "Some **bold text***italic text* here.\n",
], ids=["underscore", "strong-after-emphasis", "stars"])
def test_emphasis_right_after_strong_keeps_its_words(same, text):
    """The model reads ``textitalic`` as one word: the end of the strong text, inside it, went to the
    word's end (``**bold textitalic** _text_``), though the translation wrote that word unchanged."""
    assert translate_markdown(text, same, DocumentOptions()) == text


def test_emphasis_right_after_strong_keeps_its_words_in_a_translation(fixed):
    translator = fixed("Hier fett textitalic kursiv.", [(0, 0), (1, 1), (2, 2), (3, 3), (4, 3)])
    assert translate_markdown("Some **bold text**_italic text_ here.\n", translator, DocumentOptions()) == (
        "Hier **fett text**_italic kursiv_.\n")


def test_emphasis_glued_to_strong_text_keeps_its_share_of_a_changed_word(fixed):
    """The model reads ``manis`` as one word and writes ``Mann ist``: all of it went to the strong text and
    the emphasis, left over nothing, was dropped."""
    translator = fixed("Der Mann ist fährt ein Fahrrad.", [(0, 0), (1, 1), (1, 2), (2, 3), (3, 4), (4, 5)])
    assert translate_markdown("The **man**_is_ riding a bike.\n", translator, DocumentOptions()) == (
        "Der **Mann** _ist_ fährt ein Fahrrad.\n")


def test_emphasis_glued_to_strong_text_keeps_its_share_of_one_translated_word(fixed):
    """The model reads ``manis`` as one word and writes one, ``Mann``: all of it went to the strong text
    and the emphasis, left over nothing, was dropped (``**Mann**``)."""
    translator = fixed("Der Mann fährt ein Fahrrad.", [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)])
    assert translate_markdown("The **man**_is_ riding a bike.\n", translator, DocumentOptions()) == (
        "Der **Ma**_nn_ fährt ein Fahrrad.\n")


def test_two_glued_marks_keep_their_letters_in_a_word_written_in_capitals(mirror):
    assert translate_markdown("Read **one**_two_ now.\n", mirror, DocumentOptions()) == "NOW. **ONE**_TWO_ READ\n"


def test_a_link_or_image_title_is_translated_as_an_html_title_with_its_delimiters_kept(upper):
    """A tooltip is text a reader is shown, and HTML's ``title`` was translated: in Markdown it stayed
    English.  Only the text between the delimiters changes; a quote in it is escaped for its delimiter."""
    text = ('See [the guide](https://x.org/a "Install guide"){.note} now.\n\n'
            "![A car](car.png 'Our \"red\" car') and [b](<a b> (Run it)) and [c](u(v)).\n\n"
            '> A [quoted link](u\n> "a title over\n> two lines") here.\n')
    assert translate_markdown(text, upper) == (
        'SEE [THE GUIDE](https://x.org/a "INSTALL GUIDE"){.note} NOW.\n\n'
        "![A CAR](car.png 'OUR \"RED\" CAR') AND [B](<a b> (RUN IT)) AND [C](u(v)).\n\n"
        '> A [QUOTED LINK](u\n> "A TITLE OVER TWO LINES") HERE.\n')
    assert "Install guide" in upper.given and "a title over two lines" in upper.given


def test_a_title_left_as_it_was_keeps_its_escapes_and_a_translated_one_escapes_its_delimiter(same, known):
    text = '[Docs](u "Say \\"hi\\" &amp; go") here.\n'
    assert translate_markdown(text, same) == text
    pairs = [(0, 0), (1, 1)]
    translator = known({"Say hi.": ('Sag "hallo" \\ los.', pairs), "Docs here.": ("Doku hier.", pairs)})
    written = translate_markdown('[Docs](u "Say hi.") here.\n', translator)
    assert written == '[Doku](u "Sag \\"hallo\\" \\\\ los.") hier.\n'


def test_a_reference_definitions_title_is_translated_as_a_links_own_title(upper):
    """The tooltip of every ``[text][label]`` link stayed English where an inline link's was translated.
    One in a blockquote, or a line in a code block that reads as a definition, is kept."""
    text = ("See [the guide][g] and [faq].\n\n"
            "[g]: https://x.org/guide 'Install guide'\n"
            '  [FAQ]: <https://x.org/faq> (Questions "often" asked)  \n\n'
            '> [q]: https://q.org "Quoted"\n\n'
            '```\n[c]: https://c.org "Code"\n```\n')
    assert translate_markdown(text, upper) == (
        "SEE [THE GUIDE][g] AND [FAQ][faq].\n\n"
        "[g]: https://x.org/guide 'INSTALL GUIDE'\n"
        '  [FAQ]: <https://x.org/faq> (QUESTIONS "OFTEN" ASKED)  \n\n'
        '> [q]: https://q.org "Quoted"\n\n'
        '```\n[c]: https://c.org "Code"\n```\n')


def test_a_definitions_title_left_as_it_was_keeps_its_escapes_and_a_quote_translated_is_escaped(same, known):
    text = '[a][g] b.\n\n[g]: https://x.org "Say \\"hi\\" &amp; go"\n'
    assert translate_markdown(text, same) == text
    pairs = [(0, 0), (1, 1)]
    translator = known({"a b.": ("A B.", pairs), "Say hi.": ('Sag "hallo".', pairs)})
    written = translate_markdown('[a][g] b.\n\n[g]: https://x.org "Say hi."\n', translator)
    assert written == '[A][g] B.\n\n[g]: https://x.org "Sag \\"hallo\\"."\n'


def test_an_inline_html_anchor_the_alignment_leaves_empty_keeps_its_tags_alone_as_a_pages(fixed):
    """``<a name>`` is no link a reader follows: not given its English text back, as a page's is not."""
    translator = fixed("Jetzt klicken.", [(0, 1), (3, 0)])
    assert translate_markdown('Click <a name="x">here</a> now.\n', translator) == 'Jetzt klicken<a name="x"></a>.\n'
    assert translate_markup(['<p>Click <a name="x">here</a> now.</p>'], translator) == \
        ['<p>Jetzt klicken<a name="x"></a>.</p>']


@pytest.mark.parametrize(("translation", "alignment", "written"), [
    ("Siehe Leute.", [(0, 0), (3, 1)], "Siehe [1200](/x) Leute.\n"),
    ("Siehe 1.200 Leute.", [(0, 0), (3, 2)], "Siehe 1.200 [](/x)Leute.\n"),
], ids=["number-lost", "number-written-elsewhere"])
def test_a_link_over_a_number_gets_it_back_once(fixed, translation, alignment, written):
    """Where the model dropped the number, the link holds it again, once (not also after the link, ``[1200](/x) 1200
    Leute``); where the model wrote it outside the link, the link stays around nothing, as a page's
    (``1.200 <a href="/x"></a>Leute``), not with the number a second time (``1.200 [1200](/x)Leute``)."""
    assert translate_markdown("See [1200](/x) more people.\n", fixed(translation, alignment)) == written


@pytest.mark.parametrize("text, given, written", [
    ("A dog runs[^1].\n\n[^1]: A note.\n", "A dog runs.", "RUNS[^1]. DOG A\n\n[^1]: NOTE. A\n"),
    ("Cats purr[^purr], dogs bark.\n", "Cats purr, dogs bark.", "BARK. DOGS PURR[^purr], CATS\n"),
])
def test_a_footnotes_reference_glued_to_a_word_parts_it_from_no_stop(mirror, text, given, written):
    """The model read "A dog runs .", as a page's <sup>1</sup> was read."""
    assert translate_markdown(text, mirror) == written
    assert mirror.given[0] == given
