"""Markdown's emphasis in a plain text line (attnmt.documents.text_emphasis) is an element around its words: the
model reads the words alone, and the marks wrap the translation of the words they wrapped."""

import pytest

from attnmt.documents.pipeline import translate_lines, translate_paragraphs
from attnmt.documents.translators import FoundTranslations
from attnmt.documents.whole_sentence import model_reads, with_symbols

#              A     man   swims in    the   swim  pool.  (the demo model's, rounded)
POOL_WEIGHTS = [[0.76, 0.24, 0.00, 0.00, 0.00, 0.00, 0.00],  # Ein
                [0.11, 0.81, 0.04, 0.00, 0.01, 0.00, 0.02],  # Mann
                [0.00, 0.00, 0.95, 0.03, 0.00, 0.02, 0.00],  # schwimmt
                [0.02, 0.01, 0.06, 0.51, 0.06, 0.05, 0.12],  # im
                [0.01, 0.00, 0.01, 0.03, 0.01, 0.03, 0.58]]  # Schwimmbecken.


def test_emphasis_marks_wrap_the_translation_of_their_words(mirror):
    """"**A dog** runs in the park." came back "Ein flauschiger Hund rennt im Park." from the demo model."""
    lines = ["**big dog** runs", "a *red* car", "~~old~~ new price", "a _very good_ dog", "- **cats** sleep"]
    assert translate_lines(lines, mirror) == ["RUNS **DOG BIG**", "CAR *RED* A", "PRICE NEW ~~OLD~~",
                                              "DOG _GOOD VERY_ A", "- SLEEP **CATS**"]
    assert mirror.given == ["big dog runs", "a red car", "old new price", "a very good dog", "cats sleep"]
    code = ["a*b*c is x", "2 * 3 * 4 is big", "call __init__ first", "my_var_name is set"]  # no emphasis
    assert translate_lines(code, mirror) == ["X IS A*B*C", "BIG IS 4 * 3 * 2", "__init__ FIRST CALL",
                                             "my_var_name SET IS"]
    assert mirror.given[5:] == code[:2] + ["call first", "is set"]  # a program's names kept whole (protected)


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


def test_quotes_inside_a_sentence_wrap_the_translation_of_their_words(mirror):
    """'"A dog runs," she said.' came back "Ein großer Hund rennt mit seinem Hund." from the demo model: its quotes
    were lost (only a pair around the whole sentence was read apart)."""
    lines = ['"big dog," she said', "he said “hello there” to me", "a „kleiner Hund“ sleeps",
             "she saw « le chien » today", "a man reads 'The Times' now", "他说「你好」了",
             'the "smart **red** phone" works']
    assert translate_lines(lines, mirror) == [
        'SAID SHE "DOG, BIG"', "ME TO “THERE HELLO” SAID HE", "SLEEPS „HUND KLEINER“ A",
        "TODAY « CHIEN LE » SAW SHE", "NOW 'TIMES THE' READS MAN A", "他说「你好」了",
        'WORKS "PHONE **RED** SMART" THE']
    assert mirror.given == ["big dog, she said", "he said hello there to me", "a kleiner Hund sleeps",
                            "she saw le chien today", "a man reads The Times now", "他说你好了",
                            "the smart red phone works"]
    unquoted = ["it's the dogs' bowl", "he is 5' 10\" tall", "the '90s and the '80s"]
    translate_lines(unquoted, mirror)
    assert mirror.given[len(lines):] == unquoted  # apostrophes and inches are no quotes (a call: kept whole, below)
    assert model_reads(lines[0], None, lambda _: True) == "big dog, she said"  # attnmt.translate's and JSONL's too


@pytest.mark.parametrize("line", ["I love Rock ‘n’ Roll music", "Rock 'n' Roll is great", "fish ‘N’ chips"])
def test_the_shortened_and_between_two_words_is_no_quote(mirror, line):
    """``Rock ‘n’ Roll`` was read as a quote of ``n``: the model read ``Rock n Roll``, and the marks came back in
    German's form, ``ROLL ‚N‘ ROCK``; the demo model wrote ``Ein bereitet ‚sich‘.``.  Its apostrophes are the
    word's own."""
    assert translate_lines([line], mirror) == [" ".join(word.upper() for word in reversed(line.split()))]
    assert mirror.given == [line]


@pytest.mark.parametrize(("line", "given", "expected"), [
    ("‘Rock ‘n’ roll,’ he said", "Rock ‘n’ roll, he said", "SAID HE ‘ROLL, ‘N’ ROCK’"),
    ("he said ‘let ‘em go’ now", "he said let ‘em go now", "NOW ‘GO ‘EM LET’ SAID HE"),
    ("‘Let ’em go,’ he said", "Let ’em go, he said", "SAID HE ‘GO, ’EM LET’"),
    ("talkin' 'bout nothin'", "talkin' 'bout nothin'", "NOTHIN' 'BOUT TALKIN'"),
    ("songs of the ‘90s and ‘til now", "songs of the ‘90s and ‘til now", "NOW ‘TIL AND ‘90S THE OF SONGS"),
])
def test_a_word_shortened_at_its_start_opens_no_quote_and_a_quote_may_hold_it(mirror, line, given, expected):
    """``‘em go’`` was read as a quote of ``em go``, and ``‘Rock ‘n’ roll,’`` as a quote of ``n``: the quote around
    them was cut apart, its marks went to the model as words."""
    assert translate_lines([line], mirror) == [expected]
    assert mirror.given == [given]


@pytest.mark.parametrize(("line", "given", "expected"), [
    ("‘Cause I said so,’ she said", "Cause I said so, she said", "SAID SHE ‘SO, SAID I CAUSE’"),
    ("‘Round midnight,’ he sang", "Round midnight, he sang", "SANG HE ‘MIDNIGHT, ROUND’"),
    ("‘cause I said so, she said", "‘cause I said so, she said", "SAID SHE SO, SAID I ‘CAUSE"),
    ("‘Cause I said so, she said", "‘Cause I said so, she said", "SAID SHE SO, SAID I ‘CAUSE"),
])
def test_a_quote_opening_with_a_capital_shortened_word_is_a_quote_and_the_word_in_lower_case_none(
        mirror, line, given, expected):
    """``‘Cause I said so,’`` was read as the word ``‘Cause`` and a closing mark left alone: the model read the marks
    as words.  Its opening mark stands where the word's apostrophe was; in lower case, or with no closing mark after
    it, the word is an elision, no quote."""
    assert translate_lines([line], mirror) == [expected]
    assert mirror.given == [given]


def test_emphasis_left_around_nothing_is_dropped():
    """The model dropped "swimming" (no word of the translation attends to it), and the emphasis went around nothing:
    its two marks showed glued to the next word, ``im **Schwimmbecken.``."""
    dropped = [[0.0 if k == 5 else weight for k, weight in enumerate(row)] for row in POOL_WEIGHTS]  # "swimming"'s
    translator = FoundTranslations({"A man swims in the swimming pool.": "Ein Mann schwimmt im Schwimmbecken."},
                                   weigh=lambda source, translation: dropped)
    lines = ["A man swims in the *swimming* pool.", "A man swims in the ~~swimming~~ pool."]
    assert translate_lines(lines, translator) == ["Ein Mann schwimmt im Schwimmbecken."] * 2


def test_a_sentences_stop_closes_after_a_quote_whose_words_had_none(known):
    """'> "It works on my machine," Tom wrote.' came back '> Es "arbeitet an einer Maschine."' from the demo model:
    the model dropped "Tom wrote", and the quote, around its last words, took in the sentence's stop."""
    translator = known({
        "It works on my machine, Tom wrote.": ("Es arbeitet an einer Maschine.", [(0, 0), (1, 1), (3, 3), (4, 4)]),
        "The boy shouted stop and ran!": ("Der Junge rief halt!", [(0, 0), (1, 1), (2, 2), (3, 3)]),
        "He said I am here.": ("Er sagte ich bin hier.", [(k, k) for k in range(5)]),
        "She wrote Wait... and left.": ("Sie schrieb Warte...", [(0, 0), (1, 1), (2, 2)])})
    lines = ['"It works on my machine," Tom wrote.', "The boy shouted 'stop' and ran!", 'He said "I am here."',
             'She wrote "Wait..." and left.']
    assert translate_paragraphs(lines, translator) == ['"Es arbeitet an einer Maschine".', "Der Junge rief 'halt'!",
                                                       'Er sagte "ich bin hier."', 'Sie schrieb "Warte..."']
    read = model_reads(lines[0], None, lambda _: True)
    [translation], _ = translator.translate([read], [True])
    assert with_symbols(lines[0], read, translation, None, lambda _: True, translator.weights) == (
        '"Es arbeitet an einer Maschine".')


def test_a_programs_call_is_kept_whole_in_a_text_line_and_a_text_read_whole(mirror):
    """``print("hi")`` came back ``Auf diesem Baue`` from the demo model, which read its quotes as prose's; in
    ``attnmt.translate``'s sentence too.  A word's bracket in prose is no call."""
    calls = ['print("hi there")', "console.log('all done')", 'input("Your name: ")', "os.getcwd()"]
    lines = [f"now {call} runs" for call in calls]
    assert translate_lines(lines, mirror) == [f"{call} RUNS NOW" for call in calls]  # before the word after it
    assert mirror.given == ["now runs"]  # one sentence, read once
    assert [model_reads(line, None, lambda _: True) for line in lines] == ["now runs"] * 4
    prose = ["the word(s) here", 'she said ("yes") then', "f(x, y) is a sum"]
    translate_lines(prose, mirror)
    assert mirror.given[1:] == prose
