"""How attnmt score finds the parts of a sentence translate parted (attnmt.documents.parted_lines)."""

from attnmt.documents.paragraphs import line_pairs
from attnmt.documents.parted_lines import own_joined, parted_references, runs_like, sentence_parts
from attnmt.documents.pipeline import DocumentOptions


def test_each_run_is_the_one_closest_to_its_guide_the_last_the_rest():
    text = "ein hund  rennt eine katze schläft"
    assert runs_like(text, ["ein hund rennt", "eine katze schläft"]) == ["ein hund  rennt", "eine katze schläft"]
    assert runs_like(text, ["ein hund", "rennt", "eine katze schläft"]) == ["ein hund", "rennt",
                                                                            "eine katze schläft"]


def test_a_text_of_fewer_words_than_guides_has_no_runs():
    assert runs_like("hund", ["ein hund", "rennt"]) is None


def test_the_parts_of_each_sentence_in_order_none_where_they_do_not_line_up():
    assert sentence_parts(["a dog runs, and a cat sleeps", "Hi."], ["a dog runs,", "and a cat sleeps", "Hi."]) == [
        ["a dog runs,", "and a cat sleeps"], ["Hi."]]
    assert sentence_parts(["a dog runs"], ["a dog", "walks"]) is None
    assert sentence_parts(["a dog"], ["a dog", "runs"]) is None


def test_a_text_that_is_not_the_own_translations_joined_is_not_cut():
    owns = ["ein hund rennt", "eine katze schläft"]
    assert own_joined("ein hund rennt eine katze schläft", owns) == owns
    assert own_joined("ein hund rennt eine katze schläft nicht", owns) is None
    assert own_joined("ein hund rennt", ["ein hund rennt", ""]) is None


def test_a_translation_longer_than_the_model_reads_is_not_parted_by_the_sources_limit():
    """Each source sentence fits the model; its translation "Zwei Mädchen spielen." does not, and was
    parted into two by the source's limit: three sentences against two, and the line read whole."""
    def fits(sentence: str) -> bool:
        return len(sentence) <= 16

    pairs = line_pairs("Two girls play. A dog runs.", "Zwei Mädchen spielen. Ein Hund rennt.", DocumentOptions(),
                       "de", fits=fits)
    assert pairs == [("Two girls play.", "Zwei Mädchen spielen."), ("A dog runs.", "Ein Hund rennt.")]


def test_calibrate_reads_a_source_too_long_for_the_model_part_by_part_with_its_run_of_the_reference():
    owns = {"a dog runs,": "ein hund rennt", "and a cat sleeps": "eine katze schläft"}
    asked: list[list[str]] = []

    def own(parts: list[str]) -> list[str]:
        asked.append(parts)
        return [owns[part] for part in parts]

    sources = ["a dog runs, and a cat sleeps", "Hi there.", "a dog runs, and a cat sleeps"]
    references = ["ein hund rennt, und eine katze schläft", "Hallo.", "hund"]  # one word: no run for each part
    assert parted_references(sources, references, lambda s: len(s) <= 16, None, own) == (
        ["a dog runs,", "and a cat sleeps", "Hi there.", "a dog runs, and a cat sleeps"],
        ["ein hund rennt,", "und eine katze schläft", "Hallo.", "hund"])
    assert asked == [["a dog runs,", "and a cat sleeps"]]  # each part translated once, in one call
