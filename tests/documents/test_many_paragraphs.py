"""A Markdown file of thousands of paragraphs, most of them without letters (``> 42`` or ``| - |``
5,000 times, among thematic breaks, empty list items and ordinary paragraphs), is translated with
work in proportion to its paragraphs, and written as the readable code below, kept here as the
reference, writes it: each run's fragment parsed, and each translation written into the lines a
run at a time."""

import random
import warnings

import pytest
from support import lines_run

from attnmt.documents import markdown
from attnmt.documents.markdown import translate_markdown
from attnmt.documents.markdown_text import Region, all_replaced


def readable_all_replaced(lines, changes):
    """markdown_text.all_replaced as it was: each region replaced in turn, last first (so that the
    columns of those before it stay where they were), every line copied each time."""
    for region, text in reversed(changes):
        (first, start, _), (last, _, end) = region.spans[0], region.spans[-1]
        lines = [*lines[:first], lines[first][:start] + text + lines[last][end:], *lines[last + 1:]]
    return "".join(lines)


def some_changes(rng: random.Random) -> tuple[list[str], list[tuple[Region, str]]]:
    """Up to 12 lines of up to 8 characters (any ending, the last maybe none) and regions in them in
    order, none overlapping: on one line (several on one, as a row's cells), or over several."""
    lines = ["".join(rng.choices("ab |>", k=rng.randrange(9))) + rng.choice(["\n", "\r\n"]) for _ in range(12)]
    lines = lines[:rng.randrange(13)]
    if lines and rng.random() < 0.5:
        lines[-1] = lines[-1].rstrip("\r\n")
    changes, line, column = [], 0, 0
    while line < len(lines) and rng.random() < 0.8:
        first = rng.randrange(line, min(line + 3, len(lines)))
        width = len(lines[first].rstrip("\r\n"))
        start = rng.randint(column if first == line else 0, width)
        last = rng.choice([first, first, min(first + rng.randrange(3), len(lines) - 1)])
        end = rng.randint(start if last == first else 0, len(lines[last].rstrip("\r\n")))
        spans = [(first, start, end)] if last == first else [(first, start, width), (last, 0, end)]
        changes.append((Region(spans), rng.choice(["", "X", "Y Z"])))
        line, column = last, end
    return lines, changes


@pytest.mark.parametrize("seed", range(50))
def test_translations_are_written_into_the_lines_as_one_run_at_a_time_wrote_them(seed):
    lines, changes = some_changes(random.Random(seed))
    assert all_replaced(lines, changes) == readable_all_replaced(lines, changes)


class Counted(list):
    """Lines that count how many of them are read (one at a time or in slices)."""

    reads = 0

    def __getitem__(self, index):
        found = super().__getitem__(index)
        Counted.reads += len(found) if isinstance(index, slice) else 1
        return found


def test_the_lines_are_read_once_however_many_runs_are_written_into_them():
    """A run at a time, each translation copied every line of the file: 2,000 one-line paragraphs
    meant 8 million lines copied; now each is read once, and each run's first line once more."""
    lines = Counted(["A dog runs.\n", "\n"] * 2_000)
    changes = [(Region([(2 * k, 0, 11)]), "EIN HUND LÄUFT.") for k in range(2_000)]
    Counted.reads = 0
    assert all_replaced(lines, changes) == "EIN HUND LÄUFT.\n\n" * 2_000
    assert Counted.reads <= len(lines) + len(changes)


PIECES = [
    "---\n\n", "1.\n\n", "| - |\n\n", "***\n\n", "> 42\n\n", "A red car.\n\n", "# 42\n\n", "# A title\n\n",
    "| 1 | 2 |\n|---|---|\n| 3 | a b |\n\n", "*1* **2** ~~3~~ [4](5)\n\n", "&#65;&#66;\n\n", "&#233;t&#233;\n\n",
    "&amp; &copy; 1\n\n", "![1](x.png)\n\n", "![A dog](x.png)\n\n", "`1` and `a`\n\n", "`abc`\n\n",
    "<1@2.3> <http://a.b>\n\n", "1  \n2\\\n3\n\n", "1<br>2\n\n", "$1 + 2$\n\n", ":+1: 3\n\n", "[^1] 2\n\n",
    "٣ — € 5\n\n", "A\n\n", "2012\n\n", "12/05/2012 and 2012\n\n", "- 1\n- two\n\n", "> 1\n> 2\n\n",
    "1\x012\n\n", "1\x002\n\n", "\ufeff1\n\n", "<span>1</span>\n\n", "Term\n: 1\n\n", "   \n\n", "1\r\n2\r\n\r\n",
]


def translated_twice(text, translator, monkeypatch):
    """``text`` translated as the file is now and as the readable code did it: (output or error, warnings)."""
    outcomes = []
    for readable in (False, True):
        if readable:
            monkeypatch.setattr(markdown, "nothing_to_translate", lambda children, glossary: False)
            monkeypatch.setattr(markdown, "all_replaced", readable_all_replaced)
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            try:
                out = translate_markdown(text, translator)
            except ValueError as error:  # a DataError
                out = f"{type(error).__name__}: {error}"
        outcomes.append((out, [str(warning.message) for warning in seen]))
    monkeypatch.undo()
    return outcomes


@pytest.mark.parametrize("seed", range(50))
def test_a_file_of_letterless_and_ordinary_paragraphs_is_translated_as_the_readable_code_did(
        seed, upper, termed, monkeypatch):
    rng = random.Random(seed)
    text = "".join(rng.choices(PIECES, k=rng.randrange(1, 12)))
    fast, readable = translated_twice(text, rng.choice([upper, termed]), monkeypatch)
    assert fast == readable


@pytest.mark.parametrize("depth, inner", [(1, "1"), (100, "`1`"), (511, "`1`"), (512, "1"), (600, "1")])
def test_letterless_markup_nested_too_deep_is_refused_as_before(depth, inner, upper, monkeypatch):
    """A letterless run is judged without its fragment only where its marks nest shallowly: one nested
    past pages.MAX_DEPTH (``*1 *1 … 1* 1*``, its innermost atom a level more) is refused, naming its line."""
    text = "*1 " * depth + inner + " 1*" * depth + "\n"
    fast, readable = translated_twice(text, upper, monkeypatch)
    assert fast == readable


def test_a_letterless_paragraph_nested_hundreds_deep_is_kept(upper):
    """Its fragment parsed, 300 nested marks were a RecursionError (shown.shown_text, from about 250 deep,
    as one with letters was); not parsed, it is kept as it is."""
    text = "*1 " * 300 + "1" + " 1*" * 300 + "\n"
    assert translate_markdown(text, upper) == text


def test_a_letterless_paragraph_is_kept_without_parsing_an_html_tree_for_it(upper, monkeypatch):
    """``> 42`` and ``| - |`` 500 times each, among 5 ordinary paragraphs, were 1,005 HTML trees: now 5."""
    parsed = []
    parse = markdown.parse
    monkeypatch.setattr(markdown, "parse", lambda *args: parsed.append(args) or parse(*args))
    text = "".join("> 42\n\n| - |\n\n" + ("A red car.\n\n" if k % 100 == 0 else "") for k in range(500))
    assert translate_markdown(text, upper) == text.replace("A red car.", "A RED CAR.")
    assert len(parsed) == 5  # the ordinary ones'


def test_a_file_of_letterless_paragraphs_takes_steps_in_proportion_to_its_paragraphs(upper):
    def steps(n: int) -> int:
        text = "".join(piece + ("A red car.\n\n" if k % 10 == 0 else "")
                       for k in range(n) for piece in ("---\n\n", "1.\n\n", "| - |\n\n", "***\n\n", "> 42\n\n"))
        return lines_run(lambda: translate_markdown(text, upper))

    assert steps(1_000) < 11 * steps(100)
