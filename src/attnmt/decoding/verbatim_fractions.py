"""Fractions and multiples in words, for the ``verbatim`` rule (attnmt.decoding.verbatim): "Fill the tank half full."
as "Füllen Sie den Tank ganz." keeps every number and loses the half; "Prices have doubled." as "Die Preise haben
sich verdreifacht." changes a multiple no number rule reads.

A part (PARTS: half, quarter, third, double, triple) one side says in a word that reads as a number (``said``)
must be said on the other side in some way (``matched``, read generously: any word of its stem, its number in
words or digits, "double" as "zweimal", "half" as "Halfpipe"), else the rule breaks, as a cardinal dropped does
(attnmt.decoding.verbatim_words).  The words read are those whose number is clear in English and German
(FRACTIONS_IN), and only where both languages are known:

- "half", "halves" and German's "halb" in a word of its own, "Hälfte", "anderthalb", "zweieinhalb" ("half an hour"
  is "eine halbe Stunde"), not "halfway" (as often "mitten") nor German's compounds ("Halbinsel" is a peninsula,
  "halbwegs" fairly);
- "quarter" in lower case ("the French Quarter" is a name), "three quarters", and German's "Viertel" where it is a
  share or a time ("ein Viertel", "drei Viertel", "Viertel nach drei", "Viertelstunde"), not a town's district
  ("ein ruhiges Viertel"), nor "quarterback";
- "third", "thirds" (an ordinal too, which German says with "dritt-" as well) and German's "Drittel", "dritte";
- "double", "doubled" and German's "doppelt", "verdoppelt", not "double-check" ("überprüfen") nor "double bass"
  ("Kontrabass");
- "triple", "tripled", "threefold" and German's "dreifach", "verdreifacht".

Left out: "twice", which German says as "doppelt so" or "noch einmal" as often as "zweimal" (its value, 2, pairs
with "zweimal" among the numbers in words); "once" and "einmal", a time past ("once upon a time", "es war
einmal"), a conjunction ("once it is saved", "sobald") or a filler ("noch einmal", "nicht einmal", "at once")
far more often than a count.  How many times a side says a part is not compared.
"""

from __future__ import annotations

import re

FRACTIONS_IN = ("en", "de")  # the languages PARTS reads
# Each part: the words that say it (whole words, case-insensitive but where marked), and what says it in any way.
_PARTS = {
    "half": (r"half|halves|halb(?:e[mnrs]?)?|hälften?|anderthalb|\w+einhalb",
             r"\w*(?:halb|hälft)\w*|half\w*|halv\w*|semi\w*|mid\w*|mitte\w*|partial\w*|fifty|50"),
    "quarter": (r"(?-i:quarter)|(?:three|two)[\s-]quarters|(?:ein|zwei|drei)\s?viertel\w*"
                r"|viertel(?:stunde|jahr|finale|liter|pfund)\w*|viertel(?=\s+(?:nach|vor)\b)",
                r"\w*viertel\w*|quarter\w*|quartal\w*|fourths?|fifteen|fünfzehn|15|25"),
    "third": (r"thirds?|drittel\w*|dritt(?:e[mnrs]?)?",
              r"third\w*|3rd|three|\w*dritt\w*|drei\w*|3"),
    "double": (r"doubl(?:e|ed|es|ing)(?![\s-](?:check|bass))|(?:ver)?doppel(?:t\w*|n|e)?",
               r"doubl\w*|twice|two|dual|twins?|pairs?|\w*doppel\w*|zweimal|zwei\w*|2"),
    "triple": (r"tripl(?:e|ed|es|ing)|threefold|(?:ver)?dreifach\w*",
               r"tripl\w*|thrice|three\w*|\w*dreifach\w*|dreimal|drei\w*|3"),
}
PARTS = {name: (re.compile(rf"\b(?:{said})\b", re.IGNORECASE), re.compile(rf"\b(?:{matched})\b", re.IGNORECASE))
         for name, (said, matched) in _PARTS.items()}


def parts_said(text: str) -> set[str]:
    """The parts (PARTS) ``text`` says in a word that reads as a number."""
    return {name for name, (said, _) in PARTS.items() if said.search(text)}


def fractions_differ(source: str, translation: str) -> bool:
    """Whether one of ``source`` and ``translation`` says a part (PARTS) the other says in no way (module
    docstring): "half full" as "ganz", "ein Viertel" as "a third"."""
    return any(not PARTS[name][1].search(other) for one, other in ((source, translation), (translation, source))
               for name in parts_said(one))
