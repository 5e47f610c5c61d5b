"""A fenced code block in a plain text (attnmt.documents.code_fences) is code, kept whole with its fences, in a .txt
file and the servers' text alike; a fence no other closes makes no block."""

import pytest

from attnmt.documents.code_fences import fenced_lines
from attnmt.documents.files import translate_file_bytes
from attnmt.documents.pipeline import DocumentOptions, translate_paragraphs

README = """\
Install it:

```bash
pip install attnmt
cat notes | sort
```

Then translate a text.
~~~~
done = run(job)
~~~
still code
~~~~
it prints nothing."""


def test_a_fenced_blocks_code_is_kept_and_the_words_around_it_translated(upper):
    """Read as words, ``ls -l`` between its fences came back ``Auf diesem Firme`` from the demo model."""
    lines = README.split("\n")
    for out in (translate_paragraphs([README], upper)[0],
                translate_file_bytes(README.encode(), "readme.txt", upper, DocumentOptions()).decode()):
        written = out.split("\n")
        assert written[2:6] == lines[2:6] and written[8:13] == lines[8:13]  # the closing fence as long or longer
        assert [written[k] for k in (0, 7, 13)] == ["INSTALL IT:", "THEN TRANSLATE A TEXT.", "IT PRINTS NOTHING."]
    assert not any("pip" in given or "run(" in given or "still" in given for given in upper.given)


@pytest.mark.parametrize("quote", ["> ", "> > "])
def test_a_block_quoted_in_a_reply_is_closed_by_a_fence_as_deep(upper, quote):
    reply = [f"{quote}```", f"{quote}x = total(items)", f"{quote}```", f"{quote}a dog runs."]
    out = translate_paragraphs(["\n".join(reply)], upper)[0].split("\n")
    assert out == [*reply[:3], f"{quote}A DOG RUNS."]
    assert fenced_lines(["> ```", "x = 1", "```", "a dog runs."]) == set()  # its fence quoted, the other not


def test_a_fence_no_other_closes_and_backticks_in_a_sentence_make_no_block():
    lines = ["Use ``` to open a block.", "```python", "a dog runs.", "Inline ```code``` here.", "a cat sleeps."]
    assert fenced_lines(lines) == set()
