"""A plain text's hard-wrapped paragraphs (attnmt.documents.hard_wrap): an e-mail's, a book's, a README's and
a man page's are found, translated whole and filled again to their width; lists, code, poems, tables, subtitles'
lines, a file of a sentence a line and tab-separated rows are translated a line at a time, as before."""

import textwrap

import pytest

from attnmt.documents.files import translate_file_bytes
from attnmt.documents.hard_wrap import Wrapped, columns, filled, joined, wrapped_paragraphs
from attnmt.documents.pipeline import DocumentOptions

EMAIL = """\
Hi Anna,

thank you for the report you sent on Friday. I had a look at the numbers
and I think the problem is in the second table, where the totals of the
last quarter were added twice. Could you check it again before Tuesday?

Best regards,
Tom
"""
CHAPTER = """\
    It was a bright cold day in April, and the clocks were striking
thirteen. Winston Smith, his chin nuzzled into his breast in an effort to
escape the vile wind, slipped quickly through the glass doors of Victory
Mansions, though not quickly enough to prevent a swirl of gritty dust from
entering along with him.
"""
MANPAGE = """\
DESCRIPTION
       List information about the files in the current directory, sorted
       alphabetically unless one of the sorting options is given on the
       command line.
"""
QUOTED = """\
> I think we should move the meeting to Thursday, since most of the team
> is away on Wednesday and nobody will take the minutes.
"""


def found(text: str) -> list[Wrapped]:
    return wrapped_paragraphs(text.splitlines())


def test_an_emails_wrapped_paragraph_is_found_and_its_greeting_and_signature_are_not():
    assert found(EMAIL) == [Wrapped(2, 5, "", "", 72)]


def test_a_greeting_a_heading_and_a_signature_on_lines_of_their_own_are_no_part_of_the_paragraph():
    mail = EMAIL.replace("Anna,\n\n", "Anna,\n").replace("Tuesday?\n\n", "Tuesday?\n")
    assert found(mail) == [Wrapped(1, 4, "", "", 72)]
    assert found(MANPAGE + "Written by Richard M. Stallman and David\n") == [Wrapped(1, 4, "       ", "       ", 72)]


def test_a_books_paragraph_keeps_its_deeper_first_line_and_a_man_pages_its_indentation():
    assert found(CHAPTER) == [Wrapped(0, 5, "    ", "", 74)]
    assert found(MANPAGE) == [Wrapped(1, 4, "       ", "       ", 72)]
    assert found(QUOTED) == [Wrapped(0, 2, "> ", "> ", 72)]


@pytest.mark.parametrize("text", [
    # a list's entries, each on a line
    "1. Open the settings page of the application and look for the tab named\n"
    "2. advanced settings, where the proxy can be set up for the whole company.\n",
    # code
    "result = compute_the_totals(first_table, second_table, last_quarter)\n"
    "value = check_the_numbers(result, strict=True, report_errors=False).\n",
    "if (the_count > 0) { print_the_report(the_count, the_table, the_quarter);\n"
    "  return the_count; } and that is all there is to this piece of code.\n",
    # a poem: its lines start in capitals and the next line's first word fits on them
    "Shall I compare thee to a summer's day? Thou art more lovely and\n"
    "More temperate: rough winds do shake the darling buds of May,\n"
    "And summer's lease hath all too short a date.\n",
    # a table, its columns parted by runs of spaces
    "Name of the person     City of birth      Year the person was born in\n"
    "the first of them      a city in Germany  nineteen hundred and fifty.\n",
    # subtitles' lines, narrower than any text is wrapped at
    "I told you never to come back\nhere without me.\n",
    # a sentence a line (Multi30k's)
    "A man in an orange hat starring at something in the distance while he\n"
    "A Boston Terrier is running on lush green grass in front of a white fence.\n",
    "Two young, White males are outside near many bushes and a tall fence.\n"
    "Several men in hard hats are operating a giant pulley system on a ship.\n"
    "A little girl climbing into a wooden playhouse in the middle of a garden.\n",
    # fields parted by tabs
    "The first field of the row goes on in the next line of the file\tand\n"
    "the second field of the row is here, where the file ends with a stop.\n",
    # a paragraph that does not end a sentence (a signature, a URL, a fragment)
    "Please read the whole guide before you write to the list, it is found at\n"
    "https://example.com/guide/index.html\n",
], ids=["numbered", "assignments", "braces", "poem", "table", "subtitles", "sentence-a-line",
        "sentence-a-line-3", "tabs", "unended"])
def test_what_is_no_wrapped_paragraph_is_left_line_by_line(text):
    assert found(text) == []


BODY = """\
the new timetable for the trains between the two cities starts on Monday
and some of them leave a few minutes earlier than they did before, so
please check your train.
"""


@pytest.mark.parametrize("above", [
    "Subject: Changes to the train timetable between the two cities next week\n",
    "From: Anna Schmidt <anna.schmidt@example.com>, the office in Berlin\n"
    "Date: Monday, 3 March 2025 at 09:15 in the morning, Central European time\n",
    "> Betreff: Neue Fahrpläne für die Züge zwischen den beiden Städten ab Montag\n",
    "Objet : Changement des horaires des trains entre les deux villes la semaine\n",
    "Version: 2.4.1 of the timetable for the trains between the two cities\n"
    "Status: approved by the board of the railway company on the 3rd of May\n",
    "Chapter One: In Which the Travellers Arrive at the House by the River\n",
    "IMPORTANT CHANGES TO THE TRAIN TIMETABLE BETWEEN THE TWO CITIES NOW\n",
], ids=["subject", "from-date", "quoted-german", "french", "fields", "title-case", "capitals"])
def test_a_long_header_field_or_heading_right_above_a_paragraph_is_no_part_of_it(above):
    quoted = above.startswith(">")
    text = above + (textwrap.indent(BODY, "> ") if quoted else BODY)
    lines = above.count("\n")
    assert [(w.start, w.end) for w in found(text)] == [(lines, lines + 3)]


@pytest.mark.parametrize("text", [
    "Note: the committee has agreed on the following points after a long talk\n"
    "that lasted most of the afternoon, and the minutes will be sent out.\n",
    "Anna: I think we should move the meeting to Thursday, since most of the\n"
    "team is away on Wednesday and nobody will take the minutes of it.\n",
    "We met Anna Schmidt, Thomas Müller, Peter Wagner and Maria Fischer at\n"
    "the station in the morning, and they told us that the trains were late.\n",
], ids=["note", "speaker", "names"])
def test_a_line_of_one_field_names_or_a_label_opening_a_paragraph_under_a_heading_is_part_of_it(text):
    heading = "Minutes of the Meeting of the Committee Held on the Friday Afternoon\n"
    assert [(w.start, w.end) for w in found(heading + text)] == [(1, 3)]


@pytest.mark.parametrize("text, wrapped", [
    ("- Install the package\n  before you go on.\n", Wrapped(0, 2, "", "  ", 21)),
    ("Steps:\n\n2.  Open the settings page of the application and look for the tab\n"
     "    named advanced settings, where the proxy is set.\n3. Save them.\n", Wrapped(2, 4, "", "    ", 66)),
    ("  * Download the archive from the page of the project and unpack\n    it into a folder of your own.\n",
     Wrapped(0, 2, "  ", "    ", 64)),
    ("> - Installieren Sie das Paket mit pip und prüfen Sie, ob das Programm\n>   läuft.\n",
     Wrapped(0, 2, "> ", ">   ", 70)),
    ("a) the first point of the agreement, which both of the parties\n   signed on Friday, and\n"
     "   the second one.\n", Wrapped(0, 3, "", "   ", 62)),
], ids=["dash", "numbered", "nested", "quoted-german", "letter-three-lines"])
def test_a_list_items_lines_hanging_under_its_text_are_joined(text, wrapped):
    assert found(text) == [wrapped]


@pytest.mark.parametrize("text", [
    "1. Run this command in a terminal before you start:\n   pip install attnmt\n",
    "- The Lord of the Rings\n  The Hobbit\n",
    "       -a, --all\n              do not ignore entries starting with .\n",
    "- Install the package\n    before you go on.\n",
], ids=["command", "titles", "option", "deeper"])
def test_a_line_under_an_item_that_does_not_go_on_its_sentence_keeps_its_line(text):
    assert found(text) == []


def test_a_wrapped_items_translation_reaches_the_model_whole_and_hangs_under_its_mark():
    text = "- Install the package with pip and check that it runs\n  before you go on.\n- Next.\n"
    wordy = Wordy()
    out = translate_file_bytes(text.encode(), "steps.txt", wordy, DocumentOptions()).decode()
    assert "Install the package with pip and check that it runs before you go on." in wordy.given
    assert out == ("- Install Install the the package package with with\n"  # 53 columns wide, as its source
                   "  pip pip and and check check that that it it runs\n"
                   "  runs before before you you go go on. on.\n- Next. Next.\n")


def test_lines_are_joined_with_a_space_and_a_word_cut_at_its_hyphen_without_one():
    lines = ["   The well-", "known author wrote the", "book."]
    paragraph = Wrapped(0, 3, "   ", "", 60)
    assert joined(lines, paragraph) == "The well-known author wrote the book."


def test_a_translation_is_filled_to_the_width_after_the_indentation():
    text = "Es war ein heller, kalter Tag im April, und die Uhren schlugen dreizehn."
    lines = filled(text, Wrapped(0, 2, "  ", "", 31))
    assert lines == ["  Es war ein heller, kalter Tag", "im April, und die Uhren", "schlugen dreizehn."]
    assert lines == textwrap.wrap(text, 31, initial_indent="  ", break_long_words=False, break_on_hyphens=False)


def test_a_fill_never_cuts_at_a_no_break_space_and_a_long_word_stands_alone():
    lines = filled("Seite 12\u00a0345 von https://example.com/a/very/long/address/indeed ok", Wrapped(0, 2, "", "", 20))
    assert lines == ["Seite 12\u00a0345 von", "https://example.com/a/very/long/address/indeed", "ok"]


def test_wide_characters_take_two_columns():
    assert columns("日本語") == 6 and columns("e\u0301") == 1


def wide(sentences: list[str]) -> tuple[list[str], list]:
    """A stand-in for a German translation, longer than its source: each word written twice."""
    return [" ".join(word for word in s.split() for _ in range(2)) for s in sentences], [None] * len(sentences)


class Wordy:
    glossary = None

    def __init__(self) -> None:
        self.given: list[str] = []

    def translate(self, sentences: list[str], weighed: list[bool]) -> tuple[list[str], list]:
        self.given += sentences
        return wide(sentences)


def test_a_text_files_wrapped_paragraph_is_translated_whole_and_filled_to_its_width(upper):
    out = translate_file_bytes(EMAIL.encode(), "mail.txt", upper, DocumentOptions()).decode()
    assert out == EMAIL.upper()  # filled as the source was: the same lines, the same breaks
    assert [s for s in upper.given if s.startswith("I had")] == [
        "I had a look at the numbers and I think the problem is in the second table, where the totals of the "
        "last quarter were added twice."]


def test_a_longer_translation_takes_more_lines_of_the_same_width_and_keeps_the_blank_lines():
    out = translate_file_bytes(EMAIL.replace("\n", "\r\n").encode(), "mail.txt", Wordy(),
                               DocumentOptions()).decode()
    lines = out.split("\r\n")
    assert lines[:2] == ["Hi Hi Anna, Anna,", ""] and out.count("\n") == out.count("\r\n")
    paragraph = lines[2:lines.index("", 2)]
    assert len(paragraph) > 3 and all(len(line) <= 72 for line in paragraph) and len(paragraph[0]) > 62
    assert lines[lines.index("", 2):] == ["", "Best Best regards, regards,", "Tom Tom", ""]


def test_each_line_is_translated_alone_where_the_options_keep_the_lines(upper):
    out = translate_file_bytes(EMAIL.encode(), "mail.txt", upper, DocumentOptions(rewrap=False)).decode()
    assert out == EMAIL.upper() and "thank you for the report you sent on Friday." in upper.given
    assert "I had a look at the numbers" in upper.given


def test_a_paragraph_whose_translation_is_its_text_keeps_its_lines_as_written(same):
    text = MANPAGE.replace("sorted\n", "sorted  \n")  # its spaces at a line's end too
    assert translate_file_bytes(text.encode(), "ls.txt", same, DocumentOptions()).decode() == text


FLOWED = ("the new timetable for the trains between the two cities starts on \n"
          "Monday, and some of them leave a few minutes earlier than before, so \n"
          "please check your train.\n")


def test_a_flowed_paragraphs_soft_breaks_end_each_filled_line_but_its_last():
    out = translate_file_bytes(FLOWED.encode(), "mail.txt", Wordy(), DocumentOptions()).decode().split("\n")
    assert len(out) > 4 and out[-1] == ""  # longer: more lines, each a soft break but the paragraph's last
    assert all(line.endswith(" ") and not line.endswith("  ") for line in out[:-2]) and out[-2].endswith("train.")


def test_lines_that_all_end_in_two_spaces_keep_them_and_mixed_ends_are_dropped(upper):
    spaced = FLOWED.replace(" \n", "  \n").replace(".\n", ".  \n")
    assert translate_file_bytes(spaced.encode(), "mail.txt", upper, DocumentOptions()).decode() == spaced.upper()
    mixed = FLOWED.replace("on \n", "on\n")
    assert translate_file_bytes(mixed.encode(), "mail.txt", upper, DocumentOptions()).decode() == (
        FLOWED.upper().replace(" \n", "\n"))
