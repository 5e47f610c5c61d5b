"""A document's review lists a sentence a rule flags (a negation dropped, a number changed, another
language) even where its quality is over the threshold; ``source_below`` still acts on the threshold
alone (attnmt.documents.review.needs_review, under_threshold)."""


from support import review_rows

from attnmt.decoding.quality import Assessment
from attnmt.documents.files import translate_file_bytes
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.review import Review

OPTIONS = DocumentOptions()
TEXT = b"A dog runs.\nThe dog does not sleep.\nA bad cat sits.\nThe boy laughs.\n"


def flagging(sources, translations):
    """0.9 and a dropped negation where the source says "not", 0.2 (low_quality) where it says
    "bad", else 0.9 and no flag; as a model's Assessor gives them at the threshold 0.5."""
    return [Assessment(0.9, ["negation"], False) if "not" in s else Assessment(0.2, ["low_quality"], False)
            if "bad" in s else Assessment(0.9, [], False) for s in sources]


def test_a_sentence_a_rule_flags_over_the_threshold_is_listed_in_document_order(same, tmp_path):
    review = Review(flagging, 0.5)
    translate_file_bytes(TEXT, "notes.txt", same, OPTIONS, review=review)
    assert review_rows(review)[1:] == [
        ["2", "0.9000", "negation", "The dog does not sleep.", "The dog does not sleep."],
        ["3", "0.2000", "low_quality", "A bad cat sits.", "A bad cat sits."]]
    assert [row["flags"] for row in review.rows()] == [["negation"], ["low_quality"]]
    assert review.summary("notes.review.tsv") == ("2 of 4 sentences need review (1 with quality under 0.5 or empty, "
                                                  "1 flagged by a rule alone): listed in notes.review.tsv")


def test_at_a_threshold_of_zero_a_flagged_sentence_is_still_listed(same):
    review = Review(lambda sources, texts: [Assessment(0.2, [], False) if "bad" in s else a
                                            for s, a in zip(sources, flagging(sources, texts), strict=True)], 0.0)
    translate_file_bytes(TEXT, "notes.txt", same, OPTIONS, review=review)
    assert [segment.place.number for segment in review.segments] == [2]


def test_source_below_keeps_the_source_only_under_the_threshold_not_for_a_flag(mirror):
    review = Review(flagging, 0.5, source_below=True)
    out = translate_file_bytes(TEXT, "notes.txt", mirror, OPTIONS, review=review)
    assert out.decode().splitlines() == ["RUNS. DOG A", "SLEEP. NOT DOES DOG THE", "A bad cat sits.",
                                         "LAUGHS. BOY THE"]
    assert [(s.place.number, s.translation) for s in review.segments] == [(2, "SLEEP. NOT DOES DOG THE"),
                                                                          (3, "SITS. CAT BAD A")]
