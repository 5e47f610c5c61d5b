"""The ``negation`` rule (attnmt.decoding.quality): one side is negated and the other is not, a negation
dropped (``The dog is not running.`` as ``Der Hund läuft.``) or added, which changes what a sentence says
while the model, reading fluent text, may find it as likely as the faithful one.

Each language of NEGATIONS is known by its words of negation: English's "not", "no", "never", "nothing" and
every "n't" (``don't``), German's "nicht", "nie", "nichts" and every form of "kein", French's "ne" (``n'est``),
"pas", "jamais", "aucun", Spanish's, Italian's and Portuguese's "no", "non", "não", Dutch's "niet" and "geen".
A side is negated where it holds one of its language's, outside the phrases that negate nothing the other
side must say (NOT_NEGATING: "whether or not", "no matter", "not only"); the rule fires where one side is
and the other is not, and only where that is clear: both languages are known and in NEGATIONS
(``Languages``), each side is in its language (quality_language.in_other_language: a French source given
to an English model is not read by English words), and neither side holds a word that says "without" or
negates by its meaning, prefix or suffix (UNCLEAR): ``a man with no shirt`` is ``ein Mann ohne Hemd`` and
``mit nacktem Oberkörper``, ``unseen`` ``nicht sichtbar``, ``missing the ball`` ``den Ball nicht trifft``; nor
a phrase whose negation says something else (UNCLEAR_PHRASES: ``not bad`` is ``ganz gut``, ``nothing but``
``nur``, ``not until`` ``erst``).
How many negations each side holds is not compared (``nobody ... nothing``, ``weder ... noch``).
Multi30k's validation and test references, en-de and de-en: 0 of 2,014 pairs flagged (its 29,000 training
pairs: 24, most a negation the reference dropped, added or said by another word); a "nicht" added to a
German reference: 92-95 % flagged (the others hold a word of UNCLEAR), and each of the 4 references negated
on both sides with its German negation deleted.
"""

from __future__ import annotations

import re

from attnmt.decoding.quality_language import Languages, in_other_language
from attnmt.text.invisible import folded
from attnmt.text.language_codes import primary_subtag

NEGATIONS = {
    "en": frozenset("not no never nobody nothing none nowhere neither nor cannot".split()),
    "de": frozenset("nicht nichts nie niemals niemand nirgends nirgendwo weder kein keine keinen keinem keiner "
                    "keines nein".split()),
    "fr": frozenset("ne pas jamais rien aucun aucune ni non nullement".split()),
    "es": frozenset("no nunca jamás nadie ninguno ninguna ningún ni tampoco".split()),
    "it": frozenset("non no mai niente nulla nessuno nessuna nessun né".split()),
    "pt": frozenset("não nunca jamais ninguém nenhum nenhuma nem".split()),
    "nl": frozenset("niet geen nooit niemand niets nergens noch nee".split()),
}
# A negation's word that a contraction writes: English's "n't" at a word's end, French's "n'" at its start.
CONTRACTED = {"en": re.compile(r".n't$"), "fr": re.compile(r"^n'.")}
# Phrases with a negation's word that negate nothing the other side must say: "whether or not", "no matter",
# "not only ... but also" (``sowohl ... als auch``), "never mind", a question's tag ("isn't it?", "nicht wahr?",
# "n'est-ce pas ?": "oder?", "right?"), the answer to thanks ("de rien", "keine Ursache": "you're welcome"),
# French's "n'importe" (any) and "ne ... que" (only), Italian's "non ho ... che" (only: not "non credo che", that).
NOT_NEGATING = {
    "en": r"or (?:\w+ )?not|no matter|not only|not just|never mind|\w+n't (?:it|i|you|he|she|we|they|there)(?=\s*\?)",
    "de": r"oder (?:\w+ )?nicht|nicht nur|nicht wahr(?=\s*\?)|keine ursache|nichts zu danken",
    "fr": r"ou non|ou pas|non seulement|n'importe|n'est-ce pas|de rien|"
          r"n(?:e\s+|')(?:(?!(?:pas|jamais|plus|rien|personne|aucune?|ni)\b)\w+['\s]+){1,3}qu(?:e\b|')",  # only
    "es": r"o no|no solo|no sólo|no importa|no hay de qué",
    "it": r"o no|o meno|non solo|non importa|non c'è di che|di niente|"
          r"non (?:(?:mi|ti|ci|vi|gli|le) )?(?:ho|hai|ha|abbiamo|avete|hanno|resta|restano|rimane|rimangono|fa|fanno|"
          r"faccio|posso|puoi|può|possiamo|potete|possono|c'è|ci sono|(?:\w+ )?altro) che",  # only
    "pt": r"ou não|não só|não apenas|não importa",
    "nl": r"of niet|niet alleen|niet enkel|geen dank",
}
# Words that say "without", forbid, or negate by their meaning, a prefix or a suffix: a side with one may hold
# the other side's negation in it ("Do not enter" is "Betreten verboten"), and the rule does not judge the pair.
# English's "in-", "im-", "il-", "ir-" and "dis-" only before the stems listed ("invalid", "disabled": "nicht
# gültig", "nicht aktiviert"; "install", "display" negate nothing), and a program's states German says with a
# negation ("offline", "expired", "denied", "timed out": "nicht verbunden", "nicht mehr gültig", "kein Zugriff"):
# of 24 good software and travel lines written to probe it, 12 were flagged, none now (UNCLEAR_PHRASES reads "The
# server is down." as "Der Server ist nicht erreichbar."); Multi30k's references as before (0 of 2,014 flagged,
# a "nicht" added caught as often).
UNCLEAR = {
    "en": r"without|lack\w*|absent|miss\w*|avoid\w*|fail\w*|refus\w*|instead|rather|unless|hardly|barely|"
          r"scarcely|seldom|rarely|off|forbid\w*|prohibit\w*|ban|banned|prevent\w*|non-\w+|\w{3,}less|"
          r"un(?!der|til|i(?:form|on|t|que|vers|cycl|corn|son))\w{3,}|"  # not under, until, unit, uniform ...
          r"in(?:valid|correct|active|compatible|complete|accessible|appropriate|sufficient|visible|secure|accurate|"
          r"consistent|capable|audible|definite)\w*|im(?:possible|passable|proper|patient|precise|mobile)\w*|"
          r"il(?:legal|legible|logical)\w*|ir(?:regular|relevant|responsible|reversible)\w*|"
          r"dis(?:abl|allow|connect|continu|approv|agree|like|honest)\w*|offline|expired|denied|timed",
    "de": r"ohne|nackt\w*|barfuß\w*|\w*frei(?:e[mnrs]?)?|\w{2,}los(?:e[mnrs]?)?|fehl\w*|verfehl\w*|verpass\w*|"
          r"vermeid\w*|statt|anstatt|kaum|selten|egal|\w*verbot\w*|untersagt|"
          r"un(?!d$|ter|ten$|s$|ser)\w{3,}",  # not und, unter, unten, uns, unser ...
    "fr": r"sans|manqu\w*|évit\w*|sauf|peine|guère|nu|nue|nus|nues|torse|interdi\w*",
    "es": r"sin|falt\w*|evit\w*|apenas|desnud\w*|prohib\w*",
    "it": r"senza|manc\w*|evit\w*|appena|nud\w*|viet\w*",
    "pt": r"sem|falt\w*|evit\w*|mal|nu|nua|nus|nuas|proib\w*",
    "nl": r"zonder|mis\w*|ontbre\w*|vermijd\w*|nauwelijks|\w+loos|bloot\w*|verbo\w*",
}
# Phrases whose negation says something else than "not": a litotes ("not bad", ``pas mal``, ``niente male``:
# "ganz gut", "quite a lot"), "nothing but" and "not ... until" (``nur``, ``erst``), "no problem" ("gern
# geschehen"), Italian's "non è che" (only, or "it is not that"); and English's "out of" for what is used up or
# not working (no article after it: "out of the house" is a place), which German says with a negation ("The
# printer is out of paper.": "Der Drucker hat kein Papier mehr."), and a thing "down" or "broken" ("The server is
# down.": "Der Server ist nicht erreichbar.", "The lift is broken.": "Der Aufzug funktioniert nicht."; 0 of
# Multi30k's 31,014 English references say so): the other side may or may not write a
# negation for it, and the pair is not judged, as with a word of UNCLEAR.
UNCLEAR_PHRASES = {
    "en": r"not (?:too |so |that |half |at all )?bad|nothing (?:but|else but)|not (?:\w+ ){0,3}until|"
          r"no problem|no sooner|(?:can't|cannot|can not) (?:help but|wait)|none other|"
          r"(?:is|are|was|were|be|been|being|'s|'re|run|runs|ran|running) out of "  # "kein Papier mehr"
          r"(?!the |a |an |this |that |these |those |my |your |his |her |its |our |their )|"  # a place: "aus dem"
          r"out of (?:stock|order|service|memory|range|date|reach|print)|"
          r"(?:is|are|was|were|be|been|being|'s|'re) (?:still |currently |again |now )?(?:down|broken)\b"  # "ist nicht
          r"(?! (?:the|a|an|on|in|to|from|by|into|onto|with|at)\b)",  # erreichbar", "funktioniert nicht"; not a place
    "de": r"nicht (?:so |zu |ganz |mal )?(?:schlecht|übel)|nichts (?:anderes )?als|kein problem|nicht umsonst",
    "fr": r"pas (?:si |trop |très )?mal|rien (?:d'autre )?que|pas de (?:problème|souci)",
    "es": r"no (?:está |es |estuvo |fue )?(?:tan )?mal|nada mal|no (?:\w+ ){1,2}(?:sino|más que)|no hay problema",
    "it": r"non (?:è |era |sono |erano |c'è )?(?:tanto |così )?male|niente male|non (?:è|era|sono|erano) che|"
          r"nessun problema",
    "pt": r"não (?:é |está |foi )?(?:tão )?mau|nada mau|não (?:\w+ ){1,2}(?:senão|mais que)|sem problema",
    "nl": r"niet (?:zo |te |eens )?slecht|niets (?:anders )?dan|geen probleem",
}
NOT_NEGATING_PHRASE = {code: re.compile(rf"\b(?:{phrase})\b") for code, phrase in NOT_NEGATING.items()}
UNCLEAR_PHRASE = {code: re.compile(rf"\b(?:{phrase})\b") for code, phrase in UNCLEAR_PHRASES.items()}
UNCLEAR_WORD = {code: re.compile(rf"(?:{words})") for code, words in UNCLEAR.items()}
# A word with its apostrophes and hyphens ("don't", "n'est", "non-fumeurs": no "non" of its own), in the
# case-folded text with a typographic apostrophe as a straight one.
TOKEN = re.compile(r"\w+(?:['-]\w+)*")
NUMBER_SIGN = re.compile(r"\bn[o°º]\.\s*\d")  # "No. 5", "nº. 5": a number, no negation
QUOTED = re.compile(r"[\"“”„«»]([^\"“”„«»]+)[\"“”„«»]")  # a sign's, a poster's words: kept as they are


def without_kept_quotes(source: str, translation: str) -> tuple[str, str]:
    """``source`` and ``translation`` case-folded (``folded``), without the quotations the translation keeps
    as the source writes them (``„No Skiing“`` for ``"no skiing"``), which are read in neither language."""
    source, translation = folded(source), folded(translation)
    for kept in {quote.strip() for quote in QUOTED.findall(translation)}:
        if kept and kept in source:
            source, translation = source.replace(kept, " "), translation.replace(kept, " ")
    return source, translation


def tokens(text: str, language: str) -> list[str]:
    """The words of ``text`` (case-folded) as the rule reads them (TOKEN), in ``language`` (a key of
    NEGATIONS): "No. 5" and the phrases of NOT_NEGATING left out."""
    text = NUMBER_SIGN.sub(" ", text.replace("\u2019", "'"))
    return TOKEN.findall(NOT_NEGATING_PHRASE[language].sub(" ", text))


def negated(words: list[str], language: str) -> bool:
    """Whether ``words`` (``tokens``) of ``language`` (a key of NEGATIONS) hold a negation."""
    contracted = CONTRACTED.get(language)
    return any(word in NEGATIONS[language] or contracted is not None and contracted.search(word) for word in words)


def unclear(words: list[str], language: str) -> bool:
    """Whether ``words`` (``tokens``) of ``language`` hold a word of UNCLEAR or a phrase of UNCLEAR_PHRASES."""
    return (any(UNCLEAR_WORD[language].fullmatch(word) for word in words)
            or UNCLEAR_PHRASE[language].search(" ".join(words)) is not None)


def negation_differs(source: str, translation: str, languages: Languages) -> bool:
    """Whether one of ``source`` and ``translation`` is negated and the other is not, where that is clear
    (module docstring); False where a language is not known or not in NEGATIONS."""
    codes = [primary_subtag(code) if code else "" for code in languages]
    if not all(code in NEGATIONS for code in codes) or any(
            in_other_language(text, code) for text, code in zip((source, translation), codes, strict=True)):
        return False
    sides = [tokens(text, code) for text, code in zip(without_kept_quotes(source, translation), codes, strict=True)]
    if not all(sides) or any(unclear(words, code) for words, code in zip(sides, codes, strict=True)):
        return False
    return negated(sides[0], codes[0]) != negated(sides[1], codes[1])
