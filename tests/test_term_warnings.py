"""The warnings about a translation's glossary terms: how often a sentence holds a term and its translation
the term's target, counted as the glossary finds terms."""

import pytest

from attnmt.decoding.glossary import Glossary
from attnmt.decoding.term_warnings import term_counts, times

GLOSSARY = Glossary.of({"router": "Router", "e-mail": "E-Mail", "email": "E-Mail", "access point": "Zugangspunkt",
                         "bank": "Bank", "man": "Mann"})


@pytest.mark.parametrize(("sentence", "translation", "counts"), [
    ("Restart the router, then wait for the router's lights.",
     "Starten Sie den Router neu und warten Sie auf die Lichter des Geräts.", [("router", "Router", 2, 1)]),
    ("Restart the router, then wait for the (router).", "Starten Sie den Router neu, dann warten Sie auf den "
     "(Router).", []),
    ("Send an e-mail or an email.", "Senden Sie eine E-Mail.", [("e-mail", "E-Mail", 2, 1)]),
    ("The access point and the Access Point.", "Der Zugangspunkt fällt aus.", [("access point", "Zugangspunkt", 2, 1)]),
    ("Router one and router two.", "Erster und zweiter Routerkabel.", [("Router", "Router", 2, 0)]),
    ("The access points and the access point.", "Die Zugangspunkte und der Zugangspunkt.", []),  # inflected
    ("The banks and the bank.", "Das Bankett und die Bank.", [("banks", "Bank", 2, 1)]),  # no inflection
    ("The banks and the bank.", "Die Banken und die Bank.", []),
    ("The man and two men.", "Der Mann und zwei Männer.", []),  # an umlaut
    ("Restart the router.", "Starten Sie das Gerät neu.", []),  # once: the search writes it, or tells it is missed
])
def test_a_translation_holding_a_target_term_fewer_times_than_its_sentence_its_source_term_is_counted(
        sentence, translation, counts):
    assert term_counts(GLOSSARY, sentence, translation) == counts


@pytest.mark.parametrize(("count", "said"), [(0, "never"), (1, "once"), (3, "3 times")])
def test_a_count_is_said_in_words(count, said):
    assert times(count) == said
