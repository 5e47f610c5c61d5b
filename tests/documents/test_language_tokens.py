"""A paragraph that starts with a language token (``>>de<<``: a multi-target model's) is read with it in
every sentence (attnmt.documents.language_tokens), where the translator knows the token; what a sentence
stands for in the text, and the words its alignment numbers, stay as they are."""

from attnmt.documents.markup import translate_markup
from attnmt.documents.paragraphs import line_pairs
from attnmt.documents.pipeline import DocumentOptions, translate_lines


class Tagged:
    """A multi-target model's stand-in: ``>>de<<`` is its language token; each sentence written with
    its words upper-cased in reverse order, the token left out ("a red car" -> "CAR RED A"), word k of
    n aligned to the source's word n - 1 - k (the token's column, where it read one, gets nothing);
    records what it was sent."""

    glossary = None

    def __init__(self) -> None:
        self.sent: list[str] = []

    def language_token(self, text: str) -> str:
        return ">>de<<" if text.startswith(">>de<<") else ""

    def translate(self, sentences: list[str], weighed: list[bool]) -> tuple[list[str], list]:
        self.sent += sentences
        texts, found = [], []
        for sentence, wanted in zip(sentences, weighed, strict=True):
            words = sentence.split()
            token = int(words[0] == ">>de<<")  # read as the model's token, whoever sent it
            n = len(words) - token
            texts.append(" ".join(word.upper() for word in reversed(words[token:])))
            found.append([[float(s == token + n - 1 - k) for s in range(len(words))] for k in range(n)]
                         if wanted else None)
        return texts, found


class Untagged(Tagged):
    """The same model without language tokens: a translator written without ``language_token``."""

    language_token = None


def test_each_sentence_after_the_first_is_sent_with_the_lines_language_token():
    translator = Tagged()
    assert translate_lines([">>de<< a dog runs. a cat sleeps."], translator) == ["RUNS. DOG A SLEEPS. CAT A"]
    assert translator.sent == [">>de<< a dog runs.", ">>de<< a cat sleeps."]


def test_a_sentence_without_letters_after_the_token_still_passes_through_untranslated():
    translator = Tagged()
    assert translate_lines([">>de<< a dog runs. 2012. a cat sleeps."], translator) == [
        "RUNS. DOG A 2012. SLEEPS. CAT A"]
    assert translator.sent == [">>de<< a dog runs.", ">>de<< a cat sleeps."]


def test_only_a_token_the_translator_knows_is_given_to_the_later_sentences():
    translator = Tagged()
    translate_lines([">>fr<< a dog runs. a cat sleeps.", "a dog. a cat."], translator)
    assert translator.sent == [">>fr<< a dog runs.", "a cat sleeps.", "a dog.", "a cat."]


def test_a_translator_without_language_tokens_is_sent_the_sentences_as_they_stand():
    translator = Untagged()
    translate_lines([">>de<< a dog runs. a cat sleeps."], translator)
    assert translator.sent == [">>de<< a dog runs.", "a cat sleeps."]


def test_a_mark_in_a_later_sentence_lands_on_its_word_the_tokens_column_left_out():
    # "a <b>cat</b> sleeps." is read ">>de<< a cat sleeps.": the mark's word is its word 1, the read's word 2.
    html = "<p>&gt;&gt;de&lt;&lt; a dog runs. a <b>cat</b> sleeps.</p>"
    assert translate_markup([html], Tagged())[0] == "<p>RUNS. DOG A SLEEPS. <b>CAT</b> A</p>"


def test_a_mark_in_the_first_sentence_is_placed_with_the_token_its_first_word_as_before():
    html = "<p>&gt;&gt;de&lt;&lt; a <b>dog</b> runs. a cat sleeps.</p>"
    assert translate_markup([html], Tagged())[0] == "<p>RUNS. <b>DOG</b> A SLEEPS. CAT A</p>"


def test_a_lines_translation_is_scored_sentence_by_sentence_each_with_the_token():
    pairs = line_pairs(">>de<< a dog runs. a cat sleeps.", "Ein Hund rennt. Eine Katze schläft.", DocumentOptions(),
                       "de", language_token=Tagged().language_token)
    assert pairs == [(">>de<< a dog runs.", "Ein Hund rennt."), (">>de<< a cat sleeps.", "Eine Katze schläft.")]
