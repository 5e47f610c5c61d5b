import pytest
import sacrebleu

from attnmt.errors import ConfigError
from attnmt.evaluate import Scores, bleu, chrf, score

HYPS = ["the cat sat on the mat", "a dog runs through the green park"]
REFS = ["the cat sat on a mat", "a dog is running in the park"]


def test_identical_hypotheses_and_references_score_100():
    result = score(REFS, REFS)
    assert result.bleu == pytest.approx(100.0)
    assert result.chrf == pytest.approx(100.0)


def test_bleu_of_one_sentence_matches_the_hand_computed_value():
    # n-gram precisions 5/6, 3/5, 2/4, 1/3 and no brevity penalty: BLEU = (1/12) ** (1/4)
    assert bleu(HYPS[:1], REFS[:1]) == pytest.approx(100 * (1 / 12) ** 0.25)


def test_scores_match_sacrebleu_called_directly():
    result = score(HYPS, REFS)
    assert result.bleu == pytest.approx(sacrebleu.corpus_bleu(HYPS, [REFS]).score)
    assert result.chrf == pytest.approx(sacrebleu.corpus_chrf(HYPS, [REFS]).score)
    assert bleu(HYPS, REFS) == result.bleu


def test_signatures_name_one_reference_and_13a_tokenization():
    result = score(HYPS, REFS)
    assert "nrefs:1" in result.bleu_signature and "tok:13a" in result.bleu_signature
    assert "nrefs:1" in result.chrf_signature


def test_ter_matches_sacrebleu_and_the_json_is_sacrebleus_own():
    result = score(HYPS, REFS)
    assert result.ter == pytest.approx(sacrebleu.corpus_ter(HYPS, [REFS]).score)
    assert [m["name"] for m in result.sacrebleu_json] == ["BLEU", "chrF2", "TER"]
    assert [m["score"] for m in result.sacrebleu_json] == [29.9, 43.8, 38.5]  # as the sacrebleu command: -w 1
    bleu_json = result.sacrebleu_json[0]
    assert bleu_json["signature"] == result.bleu_signature and "verbose_score" in bleu_json


def test_the_jsons_decimals_are_those_asked_for():
    """sacrebleu's -w: 43.785 and 38.462 are 43.79 and 38.46 with 2 decimals, 44.0 and 38.0 with none."""
    assert [m["score"] for m in score(HYPS, REFS, width=2).sacrebleu_json] == [29.9, 43.79, 38.46]
    assert [m["score"] for m in score(HYPS, REFS, width=0).sacrebleu_json] == [30.0, 44.0, 38.0]


def test_str_shows_the_scores_with_signatures():
    text = str(Scores(bleu=35.123, chrf=60.1, ter=50.0, bleu_signature="sigB", chrf_signature="sigC",
                      ter_signature="sigT"))
    assert text == "BLEU = 35.12 (sigB)\nchrF = 60.10 (sigC)\nTER = 50.00 (sigT)"


def test_length_mismatch_names_both_counts():
    with pytest.raises(ValueError, match="2 hypotheses but 1 references"):
        score(HYPS, REFS[:1])
    with pytest.raises(ValueError, match="1 hypotheses but 2 references"):
        bleu(HYPS[:1], REFS)


def test_empty_corpus_is_an_error():
    with pytest.raises(ValueError, match="no hypotheses"):
        score([], [])


def test_two_references_score_as_sacrebleu_scores_them_and_the_signatures_say_nrefs_2():
    others = ["the cat is sitting on the mat", "a dog runs through a green park"]
    result = score(HYPS, REFS, others)
    assert result.bleu == pytest.approx(sacrebleu.corpus_bleu(HYPS, [REFS, others]).score)
    assert result.chrf == pytest.approx(sacrebleu.corpus_chrf(HYPS, [REFS, others]).score)
    assert result.ter == pytest.approx(sacrebleu.corpus_ter(HYPS, [REFS, others]).score)
    assert result.bleu > score(HYPS, REFS).bleu  # the second reference holds more of the hypotheses' n-grams
    assert all("nrefs:2" in s for s in (result.bleu_signature, result.chrf_signature, result.ter_signature))
    with pytest.raises(ValueError, match="2 hypotheses but 1 references"):
        score(HYPS, REFS, others[:1])


@pytest.mark.parametrize("metric", [bleu, chrf, score])
def test_one_string_is_refused_not_scored_a_character_a_line(metric):
    """bleu("Ein Hund rennt.", "Ein Hund rennt.") was 0.0: each character a line of its own."""
    with pytest.raises(ConfigError, match=r"^hypotheses: expected a list of texts, got str; pass \[text\] for one$"):
        metric("Ein Hund rennt.", "Ein Hund rennt.")
    with pytest.raises(ConfigError, match=r"^references: expected a list of texts, got str; pass \[text\] for one$"):
        metric(["abc"], "abd")


def test_a_line_that_is_no_text_is_named_by_its_index():
    """None was a TypeError from inside sacreBLEU."""
    with pytest.raises(ConfigError, match=r"^hypotheses\[1\]: expected a str, got NoneType$"):
        bleu([HYPS[0], None], REFS)
    with pytest.raises(ConfigError, match=r"^references\[0\]: expected a str, got float$"):
        score(HYPS, [float("nan"), REFS[1]])
    with pytest.raises(ConfigError, match=r"^more_references\[0\]\[1\]: expected a str, got int$"):
        score(HYPS, REFS, [REFS[0], 7])


def test_generators_are_scored_as_the_lists_they_give():
    """A generator "has no len()": a TypeError."""
    others = ["the cat is sitting on the mat", "a dog runs through a green park"]
    assert bleu(iter(HYPS), (r for r in REFS)) == bleu(HYPS, REFS)
    assert score(iter(HYPS), iter(REFS), iter(others)).bleu == score(HYPS, REFS, others).bleu
