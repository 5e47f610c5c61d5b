"""A translation that drops a number its source writes in digits is searched again with it required
(attnmt.decoding.numbers_kept)."""

import importlib.util
from pathlib import Path

import pytest
import torch
from support import NamedPieces, ScriptedModel, ending_model

from attnmt.decoding import Decoding
from attnmt.decoding.numbers_kept import WORSE_BY, dropped, number_terms, with_numbers_kept, written_forms
from attnmt.decoding.search import Hypothesis, beam_search, length_penalty


@pytest.mark.parametrize(("source", "translation", "numbers"), [
    ("The river is 12 km long.", "Der Fluss.", ["12"]),
    ("The man paid 1,000 dollars.", "Der Mann zahlte Dollar.", ["1,000"]),
    ("The shirt costs $19.99.", "Das Hemd kostet 19 Dollar.", ["19.99"]),
    ("The team won 3:1 at 8 pm.", "Die Mannschaft gewann um 20 Uhr.", ["3:1"]),
    ("Bus 42 leaves at 9 or 10.", "Der Bus fährt um 9.", ["42", "10"]),
    ("Room ６ is free.", "Das Zimmer ist frei.", ["6"]),
    ("Il coûte 1 000 euros.", "Es kostet Euro.", ["1 000"]),  # thousands parted by a space: one number
    ("It is -5 °C outside.", "Es ist draußen kalt.", ["-5"]),  # with its minus
])
def test_a_number_the_translation_says_in_no_way_is_dropped(source, translation, numbers):
    assert dropped(source, translation) == numbers


@pytest.mark.parametrize(("source", "translation"), [
    ("The tent is 2.5 m high.", "Das Zelt ist 2,5 m hoch."),  # German's decimal comma
    ("The man paid 1,000 dollars.", "Der Mann zahlte 1.000 Dollar."),  # German's thousands
    ("Two children eat 12 eggs.", "Zwei Kinder essen zwölf Eier."),  # in words
    ("We meet at 2:30 pm.", "Wir treffen uns um 14.30 Uhr."),
    ("He came in 1st place.", "Er wurde Erster."),  # an ordinal said in a word
    ("She lives on the 3rd floor.", "Sie wohnt im 3. Stock."), ("He came 21st.", "Er wurde einundzwanzigster."),
    ("COVID-19 tests and A4 paper.", "Tests und Papier."),  # a code's part, the model's to copy
    ("Call 555-1234 now.", "Ruf jetzt an."), ("He is 5'11\" tall.", "Er ist groß."),  # a telephone's, feet, inches
    ("Add ¾ l of milk.", "Füge Milch hinzu."), ("Add 1/2 cup.", "Füge eine Tasse hinzu."),  # a fraction's digits
])
def test_a_number_said_otherwise_or_inside_a_word_is_not(source, translation):
    assert dropped(source, translation) == []


@pytest.mark.parametrize(("source", "translation", "numbers"), [
    ("He finished 1st in the race.", "Er wurde im Rennen.", ["1st"]),
    ("He finished 1st in the race.", "Ein Mann im Rennen.", ["1st"]),  # "Ein", an article, says no "first"
    ("She lives on the 3rd floor.", "Sie wohnt im Stock.", ["3rd"]),
    ("The 2nd and the 21st runner.", "Der 2. Läufer.", ["21st"]),
    ("He came 4th of 12.", "Er kam.", ["4th", "12"]),  # in the source's order
])
def test_an_ordinal_in_digits_the_translation_says_in_no_way_is_dropped(source, translation, numbers):
    assert dropped(source, translation) == numbers


@pytest.mark.parametrize(("ordinal", "german", "english", "french"), [
    ("1st", ["1."], ["1st"], []), ("3rd", ["3."], ["3rd"], []), ("21st", ["21."], ["21st"], []),
])
def test_an_ordinal_is_required_as_the_target_language_writes_it(ordinal, german, english, french):
    """German writes "1.", English "1st"; French writes "1er", which is not offered, so the number is not required."""
    assert written_forms(ordinal, "de") == german
    assert written_forms(ordinal, "en-GB") == english
    assert written_forms(ordinal, "fr") == french
    assert written_forms(ordinal, None) == []


@pytest.mark.parametrize(("number", "german", "english"), [
    ("2.5", ["2.5", "2,5"], ["2.5"]), ("1,000", ["1,000", "1.000"], ["1,000"]),
    ("1,000.5", ["1,000.5", "1.000,5"], ["1,000.5"]), ("0,75", ["0,75"], ["0,75"]), ("1.000", ["1.000"], ["1.000"]),
    ("3:1", ["3:1"], ["3:1"]), ("1 000", ["1 000", "1000"], ["1 000", "1000"]),
    ("01.05.2024", ["01.05.2024"], ["01.05.2024"]), ("12", ["12"], ["12"]),
])
def test_a_number_may_be_written_as_a_decimal_comma_language_writes_it(number, german, english):
    assert written_forms(number, "de") == german
    assert written_forms(number, "en") == english


class RiverPieces(NamedPieces):
    """Whole words after a space, a number among them, and the decimal as German writes it."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁Der", "▁Fluss.", "▁12", "▁km", "▁2,5", "▁3."]


DER, FLUSS, TWELVE, KM, TWO_AND_A_HALF, THIRD = 4, 5, 6, 7, 8, 9


def searched(table: dict, rows_terms: list) -> list[list[Hypothesis]]:
    """``table``'s sentence searched as the retry searches it: beam search with the numbers as terms."""
    return beam_search(ScriptedModel(table), torch.tensor([[4, 5]]), Decoding(beam_size=3, alpha=0.0),
                       use_cache=False, terms=rows_terms)


def first_and_retry(table: dict, source: str) -> list[Hypothesis]:
    """The hypotheses ``with_numbers_kept`` keeps for ``source`` where the free search wrote ``table``'s best."""
    codec = RiverPieces()
    [first] = beam_search(ScriptedModel(table), torch.tensor([[4, 5]]), Decoding(beam_size=3, alpha=0.0),
                          use_cache=False)
    [chosen], _ = with_numbers_kept(codec, [source], [first], [[]], "de",
                                    lambda rows, terms: searched(table, terms), lambda rows: [first[0].score])
    return chosen


def test_a_dropped_number_is_placed_by_searching_the_sentence_again_with_it_required():
    """"The river is 12 km long." came out "Der Fluss." from the demo model; the retry writes the 12."""
    table = {(): {DER: 1.0}, (DER,): {FLUSS: 0.6, TWELVE: 0.4}, (DER, TWELVE): {KM: 1.0},
             (DER, TWELVE, KM): {FLUSS: 1.0}}
    assert codec_text(first_and_retry(table, "The river is 12 km long.")) == "Der 12 km Fluss."


def test_a_decimal_is_required_as_the_target_language_writes_it():
    table = {(): {DER: 1.0}, (DER,): {FLUSS: 0.7, TWO_AND_A_HALF: 0.3}, (DER, TWO_AND_A_HALF): {FLUSS: 1.0}}
    assert codec_text(first_and_retry(table, "The tent is 2.5 m high.")) == "Der 2,5 Fluss."


def test_an_ordinal_is_required_as_german_writes_it():
    """"She lives on the 3rd floor." came out "Sie auf dem Boden." from the demo model; German writes "3."."""
    table = {(): {DER: 1.0}, (DER,): {FLUSS: 0.7, THIRD: 0.3}, (DER, THIRD): {FLUSS: 1.0}}
    assert codec_text(first_and_retry(table, "She lives on the 3rd floor.")) == "Der 3. Fluss."


def test_the_first_translation_stays_where_the_number_costs_more_than_the_margin():
    """The model writes the number only at a cost past WORSE_BY (nats): the first translation stays."""
    unlikely = float(torch.tensor(-WORSE_BY - 0.5).exp())
    table = {(): {DER: 1.0}, (DER,): {FLUSS: 1.0 - unlikely, TWELVE: unlikely}, (DER, TWELVE): {FLUSS: 1.0}}
    assert codec_text(first_and_retry(table, "The river is 12 km long.")) == "Der Fluss."


def test_a_translation_that_keeps_its_numbers_is_not_searched_again():
    def never(rows, terms):
        raise AssertionError("searched again")

    first = [Hypothesis([DER, TWELVE, FLUSS], -1.0, -1.0)]
    assert with_numbers_kept(RiverPieces(), ["The 12 rivers."], [first], [[]], "de", never, never) == ([first], [()])


def test_a_number_the_first_search_was_handed_already_is_not_searched_again():
    """A sentence with glossary terms requires its whole numbers from the start (term_numbers): a translation that
    missed one at the length limit would miss it again."""
    def never(rows, terms):
        raise AssertionError("searched again")

    first = [Hypothesis([DER, FLUSS], -1.0, -1.0, missed=1)]
    kept = with_numbers_kept(RiverPieces(), ["The 12 rivers."], [first], [[[TWELVE]]], "de", never, never)
    assert kept == ([first], [()])


def test_a_number_the_vocabulary_cannot_write_is_not_required():
    assert number_terms(RiverPieces(), ["12", "80"], "de") == [[TWELVE]]


def codec_text(hypotheses: list[Hypothesis]) -> str:
    return RiverPieces().decode(hypotheses[0].tokens)


class RiverWords(RiverPieces):
    """RiverPieces as a tokenizer ``translate`` reads a source with, its English words too (a vocabulary of 40)."""

    PIECES = [*RiverPieces.PIECES, "▁The", "▁river", "▁is", "▁long.", *(f"<{k}>" for k in range(26))]
    source_eos = False

    def encode(self, text: str) -> list[int]:
        return self.encode_target(text)


def test_translate_searches_a_sentence_that_dropped_a_number_again_with_it_as_a_term(monkeypatch):
    """Through attnmt.decoding.translate: the search's first translation drops the 12, the second is handed it."""
    import attnmt.decoding.translate as translating

    handed = []

    def scripted(model, src, decoding, scored, prefixes, terms, *rest):
        handed.append([list(term) for term in terms[0]])
        tokens = [DER, TWELVE, FLUSS] if any(terms[0]) else [DER, FLUSS]
        return [[Hypothesis(tokens, -2.0 if terms[0] else -1.0, -1.0)]]

    monkeypatch.setattr(translating, "run_search", scripted)
    model = ending_model()
    assert translating.translate(model, RiverWords(), ["The river is 12 km long."]) == ["Der 12 Fluss."]
    assert handed == [[], [[TWELVE]]]


@pytest.mark.parametrize(("retry_score", "dictated"), [(-2.0, ("12",)), (-1.0 - WORSE_BY - 1.0, ())])
def test_the_number_a_taken_retry_required_is_dictated(monkeypatch, retry_score, dictated):
    """SearchedBatch.dictated, what quality and review read as the user's words, not the model's, holds the number a
    retry was made to write where it was taken, and none where the first translation stayed."""
    import attnmt.decoding.translate as translating
    from attnmt.decoding import MAX_TOKENS
    from attnmt.decoding.inputs import Guides

    def scripted(model, src, decoding, scored, prefixes, terms, *rest):
        tokens = [DER, TWELVE, FLUSS] if any(terms[0]) else [DER, FLUSS]
        return [[Hypothesis(tokens, retry_score if terms[0] else -1.0, -1.0)]]

    monkeypatch.setattr(translating, "run_search", scripted)
    sentences = ["The river is 12 km long."]
    [batch] = translating.searched_batches(ending_model(), RiverWords(), sentences, Decoding(), MAX_TOKENS, None,
                                           True, Guides.of(1, None, None))
    assert batch.dictated_in(0).terms == dictated



@pytest.mark.parametrize(("piece", "german", "counted"), [
    ("19.99", "Das Hemd kostet 19,99 Dollar.", True), ("1,000", "Der Mann zahlte 1.000 Dollar.", True),
    ("3:1", "Die Mannschaft gewann 3:1.", True), ("4.5%", "Die Arbeitslosigkeit sank auf 4,5 %.", False),
    ("180 °C", "Bei 180°C backen.", False),  # a piece of more than a number: as written
])
def test_the_numbers_benchmark_counts_a_number_as_the_target_language_writes_it(piece, german, counted):
    """benchmarks/numbers_units.py counted German's right "19,99" for "$19.99" as lost."""
    spec = importlib.util.spec_from_file_location(
        "numbers_units", Path(__file__).resolve().parents[1] / "benchmarks" / "numbers_units.py")
    benchmark = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(benchmark)
    assert any(form in german for form in benchmark.forms(piece, "de")) == counted


class GreedyPieces(NamedPieces):
    """A number in several pieces, as SentencePiece writes "3:1": "▁3" ":" "1"; a text is its longest pieces."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁Die", "▁Mannschaft", "▁3", ":", "1", ".", "▁1"]

    def encode_target(self, text: str) -> list[int]:
        rest, ids = "▁" + text.replace(" ", "▁"), []
        while rest:
            piece = max((p for p in self.PIECES[4:] if rest.startswith(p)), key=len, default=None)
            ids.append(self.PIECES.index(piece) if piece else 1)
            rest = rest[len(piece):] if piece else rest[1:]
        return ids


DIE, MANNSCHAFT, THREE, COLON, ONE, STOP, ONE_ALONE = range(4, 11)


def retried(source: str, tokens: list[int], log_probs: list[float], first_score: float = -4.0) -> list[int]:
    """The tokens ``with_numbers_kept`` keeps where the first translation, "Die Mannschaft." (``first_score``),
    dropped the number and the retry wrote ``tokens`` at ``log_probs`` (then EOS's), scored as beam search scores
    them (length penalty, alpha 0.6)."""
    first = Hypothesis([DIE, MANNSCHAFT, STOP], first_score, first_score)
    retry = Hypothesis(tokens, sum(log_probs) / length_penalty(len(log_probs), 0.6), sum(log_probs),
                       token_log_probs=log_probs)
    [chosen], _ = with_numbers_kept(GreedyPieces(), [source], [[first]], [[]], "de", lambda rows, terms: [[retry]],
                                    lambda rows: [first_score])
    return chosen[0].tokens


def test_a_number_of_several_pieces_costs_the_retry_its_first_piece_only():
    """"The game ended 3:1." came out "Der Basketballspieler spielen." (-6.48) from the demo model, its retry "Der
    Basketballspieler 3:1." -19.02, past WORSE_BY: the model gave ":" and "1" 7.7 and 9.0 nats, which a number of
    one piece never costs.  Counted as the model's other pieces, the retry is 4.9 below, and taken."""
    tokens = [DIE, MANNSCHAFT, THREE, COLON, ONE, STOP]
    assert retried("The team won 3:1.", tokens, [-1.0, -1.0, -8.0, -9.0, -9.0, -1.0, -0.1]) == tokens


def test_the_first_piece_of_a_number_is_the_models_choice_and_still_costs():
    tokens = [DIE, MANNSCHAFT, THREE, COLON, ONE, STOP]
    assert retried("The team won 3:1.", tokens, [-1.0, -1.0, -20.0, -9.0, -9.0, -1.0, -0.1]) == [DIE, MANNSCHAFT, STOP]


def test_a_retry_of_its_numbers_alone_is_no_translation():
    """"He finished 1st in the race." was searched again with "1." required, and the demo model wrote "1." alone."""
    assert retried("He finished 1st in the race.", [ONE_ALONE, STOP], [-1.0, -1.0, -0.1]) == [DIE, MANNSCHAFT, STOP]
