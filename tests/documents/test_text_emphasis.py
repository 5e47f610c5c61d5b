"""Markdown's emphasis in a plain text line (attnmt.documents.text_emphasis) is an element around its words: the
model reads the words alone, and the marks wrap the translation of the words they wrapped."""

import pytest

from attnmt.documents.pipeline import translate_lines, translate_paragraphs
from attnmt.documents.whole_sentence import model_reads, with_symbols


def test_emphasis_marks_wrap_the_translation_of_their_words(mirror):
    """"**A dog** runs in the park." came back "Ein flauschiger Hund rennt im Park." from the demo model."""
    lines = ["**big dog** runs", "a *red* car", "~~old~~ new price", "a _very good_ dog", "- **cats** sleep"]
    assert translate_lines(lines, mirror) == ["RUNS **DOG BIG**", "CAR *RED* A", "PRICE NEW ~~OLD~~",
                                              "DOG _GOOD VERY_ A", "- SLEEP **CATS**"]
    assert mirror.given == ["big dog runs", "a red car", "old new price", "a very good dog", "cats sleep"]
    code = ["a*b*c is x", "2 * 3 * 4 is big", "call __init__ first", "my_var_name is set"]  # no emphasis
    translate_lines(code, mirror)
    assert mirror.given[5:] == code


def test_emphasis_in_a_servers_text_and_nested_emphasis_keep_their_marks(mirror):
    out = translate_paragraphs(["Hi Tom,\n\n**a *big* dog** runs."], mirror)[0]
    assert out.split("\n")[2] == "RUNS. **DOG *BIG* A**" and "big" not in "".join(mirror.given).replace("a big dog", "")


def test_a_links_brackets_and_target_wrap_the_translation_of_its_text(mirror):
    """"See [the docs](https://example.com) for more." came back "Ein(https://example.com) Dema..." from the demo
    model: the brackets lost and the target glued to a word."""
    lines = ["see [the docs](https://example.com/a?b=1) now", "![a dog](dog.png \"Rex\") runs", "a[0](x) is set"]
    assert translate_lines(lines, mirror) == ["NOW [DOCS THE](https://example.com/a?b=1) SEE",
                                              "RUNS ![DOG A](dog.png \"Rex\")", "SET IS A[0](X)"]
    assert mirror.given[:2] == ["see the docs now", "a dog runs"]  # code's index and call are no link


@pytest.mark.parametrize("text", ["**big dog** runs", "she has a _very good_ dog",
                                  "see [the docs](https://x.org/a) now", "~~old~~ *new* price"])
def test_a_text_read_whole_gets_the_marks_a_text_line_gets(mirror, text):
    """attnmt.translate and a JSONL line's text gave the model the marks as words ("**A dog** runs in the park." came
    back "Ein flauschiger Hund rennt im Park.", where the same text in a .txt file kept its bold): both entry points
    now read and write them alike."""
    read = model_reads(text, None, lambda _: True)
    [translation], _ = mirror.translate([read], [True])
    whole = with_symbols(text, read, translation, None, lambda _: True, mirror.weights)
    assert whole == translate_lines([text], mirror)[0] and mirror.given[0] == mirror.given[1]
