"""A sentence in capitals reaches the model in sentence case and its translation comes back in
capitals (attnmt.decoding.capitals), wherever text is searched: translate, n-best lists, documents,
the server's stream; a lone acronym and a sentence with a prefix are read as given."""

import json

import pytest
from fastapi.testclient import TestClient

from attnmt.checkpoint import load_model_dir
from attnmt.decoding import Decoding
from attnmt.decoding.capitals import read_as, read_pair, recased, written_as
from attnmt.decoding.inputs import reads_whole
from attnmt.decoding.quality import assess
from attnmt.decoding.translate import translate, translate_n_best
from attnmt.documents import translate_text
from attnmt.server.app import ServedModel, ServeSettings, create_app


@pytest.fixture(scope="module")
def loaded(trained_model):
    return load_model_dir(trained_model)


@pytest.mark.parametrize("sentence, read", [
    ("STOP! WHO'S THERE?", "Stop! Who's there?"),
    ("[DOOR SLAMS].", "[Door slams]."),  # wrapped whole, it is read without its brackets (sentence_edges)
    ("I AM HERE. YOU ARE LATE.", "I am here. You are late."),
    ("- ÉCOLE, 2 ÉTÉS!", "- École, 2 étés!"),
])
def test_a_sentence_in_capitals_is_read_in_sentence_case(sentence, read):
    assert read_as(sentence) == read
    assert written_as(sentence, "Halt! Wer ist da?", read) == "HALT! WER IST DA?"


@pytest.mark.parametrize("sentence, read, translation, written", [
    ("A MAN RUNS 5 km IN THE PARK.", "A man runs 5 km in the park.", "Ein Mann läuft 5 km im Park.",
     "EIN MANN LÄUFT 5 km IM PARK."),
    ("TWO DOGS PLAY WITH AN iPhone.", "Two dogs play with an iPhone.", "Zwei Hunde spielen mit einem iPhone.",
     "ZWEI HUNDE SPIELEN MIT EINEM iPhone."),
    ("JOHN LEAVES THE ROOM (cont'd)", "John leaves the room (cont'd)", "John verlässt den Raum (cont'd)",
     "JOHN VERLÄSST DEN RAUM (cont'd)"),
])
def test_a_sentence_in_capitals_with_a_unit_or_a_brand_is_read_in_sentence_case_the_unit_as_written(
        sentence, read, translation, written):
    """One word in lower case ("km") made the whole sentence read in capitals, a piece a letter: the demo
    model wrote "Ein PEAAAAAAAAAAAA…".  Three words in capitals for each word that is not are a sentence in
    capitals; the unit or brand is read, and written back, as given."""
    assert read_as(sentence) == read
    assert written_as(sentence, translation, read) == written


@pytest.mark.parametrize("sentence", ["NASA and ESA", "I met the NATO and UN leaders.", "UN and EU"])
def test_acronyms_among_words_in_lower_case_are_read_as_given(sentence):
    assert read_as(sentence) == sentence


@pytest.mark.parametrize("sentence", ["NATO", "EXIT!", "The US team won.", "a dog runs", "12 345", "A dog, I think."])
def test_a_lone_word_in_capitals_or_a_sentence_in_lower_case_is_read_as_given(sentence):
    assert read_as(sentence) == sentence
    assert written_as(sentence, "Ein Hund.", sentence) == "Ein Hund."


def test_a_lone_word_is_read_in_sentence_case_where_the_model_reads_it_in_fewer_pieces():
    """"STOP!", split from "STOP! WHO'S THERE?", reached the model in capitals, a piece a letter: it
    wrote "Ein T-T-T-T-T-T-T-T-T-".  An acronym its vocabulary holds whole stays in capitals."""
    vocabulary = {"▁Stop", "▁NATO", "!"}

    def pieces(text: str) -> int:  # a piece for each word the vocabulary holds, else one a letter
        return sum(1 if "▁" + word.strip("!") in vocabulary else len(word) for word in text.split())

    assert read_as("STOP!", None, pieces) == "Stop!" and read_as("NATO!", None, pieces) == "NATO!"
    assert written_as("STOP!", "Halt!", "Stop!") == "HALT!"


def test_a_lone_word_is_read_in_lower_case_where_the_source_vocabulary_holds_it_so_in_fewer_pieces():
    """"EXIT" was read "Exit", three pieces, where the vocabulary holds "exit" whole; a word it holds as
    whole in both cases is read in sentence case, one it holds in neither as before."""
    vocabulary = {"▁exit", "▁Stop", "▁stop", "▁NATO"}

    def pieces(text: str) -> int:  # a piece for each word the vocabulary holds, else one a letter
        return sum(1 if "▁" + word.strip("!.") in vocabulary else len(word) for word in text.split())

    assert read_as("EXIT", None, pieces) == "exit" and read_as("EXIT.", None, pieces) == "exit."
    assert read_as("STOP!", None, pieces) == "Stop!" and read_as("NATO", None, pieces) == "NATO"
    assert read_as("EXIT") == "EXIT"
    assert written_as("EXIT", "ausgang", "exit") == "AUSGANG"


def test_a_label_in_capitals_is_read_in_title_case_where_the_model_reads_it_in_fewer_pieces():
    """"JOHN: Where are you going?" reached the model with "JOHN" a piece a letter, and "MARY JANE:" in a line
    in capitals as "Mary jane:"; a name the vocabulary holds with its capital is read so, an acronym it holds
    in capitals as given.  The translation's label comes back in capitals, the rest as the model wrote it."""
    vocabulary = {"▁John", "▁Note", "▁Mary", "▁Jane", "▁NASA", "▁where"}

    def pieces(text: str) -> int:  # a piece for each word the vocabulary holds, else one a letter
        return sum(1 if "▁" + word.strip(":.?") in vocabulary else len(word) for word in text.split())

    assert read_as("JOHN: Where are you going?", None, pieces) == "John: Where are you going?"
    assert read_as("NOTE: Do not open the door.", None, pieces) == "Note: Do not open the door."
    assert read_as("JOHN (V.O.): Where are you going?", None, pieces) == "John (V.O.): Where are you going?"
    assert read_as("MARY JANE: COME HERE.", None, pieces) == "Mary Jane: come here."
    assert read_as("NASA: The rocket is launched.", None, pieces) == "NASA: The rocket is launched."
    assert read_as("The US team: the best.", None, pieces) == "The US team: the best."
    read = "John: Where are you going?"
    assert written_as("JOHN: Where are you going?", "John: Wohin gehst du?", read) == "JOHN: Wohin gehst du?"
    assert written_as("JOHN: Where are you going?", "Wohin gehst du, John?", read) == "Wohin gehst du, John?"
    assert written_as("JOHN (V.O.): Where?", "John (V.O.): Wohin?", "John (V.O.): Where?") == "JOHN (V.O.): Wohin?"
    assert written_as("MARY JANE: COME HERE.", "Mary Jane: komm her.", "Mary Jane: come here.") == (
        "MARY JANE: KOMM HER.")


def test_a_word_in_capitals_in_a_sentence_is_read_in_the_case_the_model_reads_in_far_fewer_pieces():
    """"a RED shirt" reached the model with "RED" a piece a letter: the demo model wrote "AD-T-Shirt", and
    "Quarterback" for "Two DOGS".  A word, or a run of them, read two pieces fewer in lower case (or in title
    case, a name) is read so; one read hardly better ("OK"), an acronym the vocabulary holds ("NASA") and a word without
    ``pieces`` as given."""
    vocabulary = {"▁red", "▁dogs", "▁not", "▁John", "▁Smith", "▁ok", "▁NASA", "▁park", "▁Do", "▁The", "▁dog",
                  "▁runs", "▁touch"}

    def pieces(text: str) -> int:  # a piece for each word the vocabulary holds, else one a letter
        return sum(1 if "▁" + word.strip(".,:") in vocabulary else len(word.strip(".,:")) for word in text.split())

    assert read_as("A man in a RED shirt, two DOGS.", None, pieces) == "A man in a red shirt, two dogs."
    assert read_as("Do NOT tell JOHN SMITH.", None, pieces) == "Do not tell John Smith."
    assert read_as("DO NOT TOUCH. THE DOG RUNS. The cat is OK.", None, pieces) == (
        "Do not touch. The dog runs. The cat is OK.")  # a run of them read as one, each sentence's first capital
    assert read_as("The NASA team is OK.", None, pieces) == "The NASA team is OK."
    assert read_as("See https://RED.org/Path, A4 or MP3.", None, pieces) == "See https://RED.org/Path, A4 or MP3."
    assert read_as("Do NOT tell JOHN.") == "Do NOT tell JOHN."
    assert written_as("Do NOT go IN.", "Geh nicht in.", "Do not go in.") == "Geh nicht in."  # "in": by chance


@pytest.mark.parametrize("sentence, read, translation, written", [
    ("I met JOHN in the PARK.", "I met John in the park.", "Ich traf John im Park.", "Ich traf JOHN im PARK."),
    ("A man in a RED shirt.", "A man in a red shirt.", "Ein Mann in einem roten Hemd.",
     "Ein Mann in einem roten Hemd."),
    ("Do NOT open: it is hot.", "Do not open: it is hot.", "Hinweis: nicht öffnen.", "Hinweis: nicht öffnen."),
])
def test_a_word_read_in_another_case_comes_back_in_capitals_where_the_translation_copies_it(
        sentence, read, translation, written):
    """The translation's copy of a word read in another case (a name, a word both languages write alike) is
    the only word of it known to be that one's; a label the source had not in capitals is left as written."""
    assert written_as(sentence, translation, read) == written


def test_a_sentence_with_a_prefix_is_read_as_given():
    assert read_as("STOP! WHO'S THERE?", "Halt") == "STOP! WHO'S THERE?"


def test_translate_gives_the_model_a_line_in_capitals_in_sentence_case(loaded, reached):
    model, tokenizer = loaded
    [sentence_case] = translate(model, tokenizer, ["A dog runs"])
    reached.clear()
    assert translate(model, tokenizer, ["A DOG RUNS", "a dog runs"]) == [sentence_case.upper(), "ein hund rennt"]
    assert sorted(reached) == ["A dog runs", "a dog runs"]


def test_n_best_translations_of_a_line_in_capitals_are_in_capitals(loaded):
    model, tokenizer = loaded
    decoding = Decoding(beam_size=3, n_best=3)
    [expected] = translate_n_best(model, tokenizer, ["A dog runs"], decoding)
    [found] = translate_n_best(model, tokenizer, ["A DOG RUNS"], decoding)
    assert [t.text for t in found] == [t.text.upper() for t in expected]
    assert [t.score for t in found] == pytest.approx([t.score for t in expected])


def test_a_line_in_capitals_with_a_prefix_is_read_as_given(loaded, reached):
    model, tokenizer = loaded
    [found] = translate(model, tokenizer, ["A DOG RUNS"], prefix="ein")
    assert reached == ["A DOG RUNS"] and found.startswith("ein")


def test_a_glossary_acronym_is_matched_in_the_capitals_given(loaded, reached):
    """The glossary reads the sentence as written, where "DOG", all capitals, is an acronym that only
    capitals hold; its target is written in capitals with the rest."""
    model, tokenizer = loaded
    [found] = translate(model, tokenizer, ["A DOG RUNS"], glossary={"DOG": "katze"})
    assert reached == ["A dog runs"] and "KATZE" in found.split()


def test_plain_text_in_capitals_is_translated_sentence_by_sentence_in_capitals(loaded, reached):
    model, tokenizer = loaded
    lines = ["A DOG RUNS. A CAT SLEEPS.", "the boy laughs"]
    found = translate_text(model, tokenizer, lines)
    assert reached == ["A dog runs.", "A cat sleeps.", "the boy laughs"]
    first, second = translate_text(model, tokenizer, ["A dog runs.", "A cat sleeps."])
    assert found == [f"{first} {second}".upper(), "der junge lacht"]


def test_the_servers_stream_reads_capitals_as_translate_does(loaded):
    with TestClient(create_app([ServedModel(*loaded, "en-de", "en", "de")])) as client:
        asked = {"q": "A DOG RUNS", "source": "en", "target": "de"}
        with client.stream("POST", "/translate/stream", json=asked) as answer:
            last = "".join(answer.iter_text()).strip().split("\n\n")[-1]
        done = client.post("/v1/translate", json={"text": "A DOG RUNS"}).json()["translations"][0]
    assert last.startswith("event: done") and f'"translatedText": "{done}"' in last
    assert done == translate(*loaded, ["A dog runs"])[0].upper()


def test_a_sentence_in_capitals_is_measured_as_the_model_reads_it():
    """Counted in capitals, a piece a letter, "A DOG RUNS FAST" was parted for a model that reads it
    whole in sentence case: the demo model's validation set in capitals lost a BLEU point by it."""
    class Pieces:  # a piece a capital after a word's first letter, and one a word
        source_eos = False

        def encode(self, text: str) -> list[int]:
            return [1] * sum(1 + sum(c.isupper() for c in word[1:]) for word in text.split())

    fits = reads_whole(Pieces(), 4)
    assert fits("A DOG RUNS FAST") and fits("A dog runs fast") and not fits("A dOG RUNS")


def test_the_servers_stream_assesses_a_sentence_in_capitals_as_the_model_read_it(loaded):
    """The done event's quality was the forced reading of the capitals pair, "A MAN RIDES A BIKE"
    and "EIN MANN …" in capitals, which the model reads as rare pieces: far below the quality of its
    own translation of the sentence it read, "A man rides a bike"."""
    def done(client, text):
        body = {"q": text, "source": "en", "target": "de", "beam": 1}
        with client.stream("POST", "/translate/stream", json=body) as answer:
            last = "".join(answer.iter_text()).strip().split("\n\n")[-1]
        return json.loads(last.split("data: ", 1)[1])

    with TestClient(create_app([ServedModel(*loaded, "en-de", "en", "de")], ServeSettings(quality=True))) as client:
        shouted, said = done(client, "A MAN RIDES A BIKE"), done(client, "A man rides a bike")
    assert shouted["translatedText"] == said["translatedText"].upper()
    assert shouted["quality"] == pytest.approx(said["quality"], abs=1e-6) and shouted["flags"] == said["flags"]


def test_a_pair_in_capitals_is_assessed_in_sentence_case_as_translate_reads_it(loaded):
    """``attnmt score`` read "A DOG RUNS." and "EIN HUND RENNT." in capitals, a piece a letter or two: the
    demo model's own translation, which translate (reading "A dog runs.", writing "Ein Hund rennt.") gave
    0.895, scored 0.0 and low_quality.  Both are read in sentence case; the words are reported as written."""
    model, tokenizer = loaded
    shouted, said = assess(model, tokenizer, ["A DOG RUNS", "A dog runs"], ["EIN HUND RENNT", "Ein hund rennt"])
    assert shouted.quality == pytest.approx(said.quality, abs=1e-6) and shouted.flags == said.flags
    assert shouted.words == [(word.upper(), p) for word, p in said.words]
    [mixed] = assess(model, tokenizer, ["A DOG RUNS"], ["Ein hund rennt"])  # a translation not in capitals: as given
    assert mixed.quality == pytest.approx(said.quality, abs=1e-6) and mixed.words == said.words


def test_a_translation_in_capitals_is_read_in_the_case_the_vocabulary_knows_best():
    """German writes its nouns with a capital: sentence case read "EIN HUND RENNT." as "Ein hund rennt.", a
    noun the model writes otherwise.  A word takes a capital where that is fewer pieces, or as many more
    frequent ones (lower ids)."""
    vocabulary = {"▁Hund": 7, "▁rennt": 8, "▁Park": 9, "▁park": 30, "▁im": 5, "▁Im": 40}

    def ids(text: str) -> list[int]:  # one id a word the vocabulary holds, else one a letter
        return [vocabulary.get("▁" + text, 100)] if "▁" + text in vocabulary else [100] * len(text)

    assert recased("EIN HUND RENNT IM PARK. ER SPIELT.", ids) == "Ein Hund rennt im Park. Er spielt."
    assert read_pair("A DOG RUNS.", "EIN HUND RENNT.", None, ids) == ("A dog runs.", "Ein Hund rennt.")
    assert read_pair("A dog runs.", "EIN HUND RENNT.", None, ids) == ("A dog runs.", "EIN HUND RENNT.")


def test_a_translations_ss_in_capitals_is_read_as_the_eszett_the_vocabulary_writes():
    """German's capitals write "ß" as "SS": "GROSSE HUNDE" read "Grosse Hunde" was a word the demo model gives 0.0
    ("Große Hunde" 0.90); "KLASSE" is "Klasse", the vocabulary's own "ss"."""
    vocabulary = {"▁große": 3, "▁Hunde": 4, "▁Straße": 6, "▁Klasse": 7}

    def ids(text: str) -> list[int]:  # one id a word the vocabulary holds, else one a letter
        return [vocabulary["▁" + text]] if "▁" + text in vocabulary else [100] * len(text)

    assert recased("GROSSE HUNDE", ids) == "Große Hunde"
    assert recased("STRASSE", ids) == "Straße" and recased("KLASSE", ids) == "Klasse"
    assert read_pair("BIG DOGS", "GROSSE HUNDE", None, ids) == ("Big dogs", "Große Hunde")


def test_a_pair_with_a_stressed_word_reads_the_translation_s_copy_of_it_as_the_model_wrote_it():
    """translate read "I met JOHN in the PARK." as "I met John in the park.", and wrote the model's "John" and
    "Park" back in capitals; ``attnmt score`` read those in capitals, a piece a letter, and scored the model's
    own translation lower than translate had.  A word translated ("roten" for "RED") is read as written."""
    vocabulary = {"▁I": 4, "▁met": 6, "▁John": 10, "▁in": 11, "▁the": 12, "▁park": 13, "▁Park": 9, "▁red": 14}

    def ids(text: str) -> list[int]:  # one id a word the vocabulary holds, else one a letter
        return [vocabulary.get("▁" + text, 100)] if "▁" + text in vocabulary else [100] * len(text)

    def pieces(text: str) -> int:
        return sum(len(ids(word.strip("."))) for word in text.split())

    assert read_pair("I met JOHN in the PARK.", "Ich traf JOHN im PARK.", pieces, ids) == (
        "I met John in the park.", "Ich traf John im Park.")
    assert read_pair("I met the RED man.", "Ich traf den ROTEN Mann.", pieces, ids) == (
        "I met the red man.", "Ich traf den ROTEN Mann.")
