"""The numbers in digits a sentence with glossary terms keeps as digits (attnmt.decoding.inputs.Guides.terms).

A sentence with terms is searched with constraints, and round a term it cannot place well a small model spells a
number out, drops it or writes it twice: "Take Route 66 to the city." with "route" -> "Route" came out "Ein Route
Conner, …", the 66 gone, and "Route 66" as "Sechs Sechs Route" (the search with no piece twice, which drops the
second "Sechs", scored 1.3 nats lower and was not taken).  A number the source writes in digits is the user's, as a
term is: each such number is required in the translation as written, as one more target term, so the search places
it where the model finds it likely ("250 Laptops") and never spells it out; one right after a term is required with
it, as one term ("Route 66", "Gate 7": ``numbered_targets``).

Only a whole number standing as a word of its own is required: after a space, the sentence's start or an opening
bracket or quote, before a space, the end or a closing mark ("66", "2019", "3" in "3 bottles"; not "4'", feet); not
one German writes otherwise ("1,000" is "1.000", "3.5" "3,5"), nor one inside a word or a code ("COVID-19", "A4",
"3D", "#7", "v2"), which the model copies or the documents' rules carry (attnmt.decoding.protected).
"""

from __future__ import annotations

import re
import unicodedata

from attnmt.decoding.glossary import Glossary

# A whole number of digits after a space, the start or an opening mark, before a space or the end, closing marks
# between, but for the straight quotes and the apostrophe, which are feet and inches after a number ("4' in
# diameter", '12" screen': the foot's 4 was placed as "in der Nähe 4")
NUMBER = re.compile(r"(?<![^\s(\[{\"'“‘„«¿¡])\d+(?=[.,;:!?)\]}”»]*(?:\s|$))")


# A number right after a term, spaces between, standing as NUMBER does
AFTER_TERM = re.compile(r"[ \t\u00a0]+(\d+)(?=[.,;:!?)\]}”»]*(?:\s|$))")


def source_numbers(sentence: str) -> list[str]:
    """The numbers in digits ``sentence`` writes as words of their own (NUMBER), each once, in order: "Route 66 is
    long." -> ["66"]; "Two bottles of 1,000 ml." -> [] (German writes "1.000")."""
    return list(dict.fromkeys(NUMBER.findall(unicodedata.normalize("NFKC", sentence))))


def with_numbers(tokenizer, glossary: Glossary, sentence: str, unk_id: int) -> list[str]:
    """The target terms of ``glossary`` a sentence needs (Glossary.matches) and, where it has any, its
    ``source_numbers`` the target vocabulary writes exactly (as the search would force them: term_ids.target_ids), to
    be required as terms, a term's number right after it joined to it (``numbered_targets``); none where it has no
    term (a sentence without terms is searched freely)."""
    targets = glossary.matches(sentence)
    if not targets:
        return targets
    numbers = [number for number in source_numbers(sentence) if writable(tokenizer, number, unk_id)]
    joined = numbered_targets(glossary, sentence, numbers)
    apart = [number for number in numbers if number not in {number for _, number in joined.values()}]
    return [*(" ".join(joined.get(target, (target,))) for target in targets), *apart]


def numbered_targets(glossary: Glossary, sentence: str, numbers: list[str]) -> dict[str, tuple[str, str]]:
    """Target term -> (it, the number of ``numbers`` right after its source term in ``sentence``, but for spaces),
    to be required as one term: a number after a noun names the thing ("Gate 7", "Route 66", "platform 9":
    "Bahnsteig 9"), and German writes it so, where the number required alone came out apart ("Gate 7 is closed."
    came out "Ein 7 aussehendes Gate.").  Not a term in another number than given (Glossary.inflected: "rooms 12
    and 13"), whose form the model chooses; of a term found twice so, the first ("Gate 7 or gate 8": "Gate 7")."""
    inflected = glossary.inflected(sentence)
    joined: dict[str, tuple[str, str]] = {}
    for _, end, target in glossary.found_in(sentence):
        after = AFTER_TERM.match(unicodedata.normalize("NFKC", sentence[end:]))
        if after and after.group(1) in numbers and target not in inflected:
            joined.setdefault(target, (target, after.group(1)))
    return joined


def writable(tokenizer, number: str, unk_id: int) -> bool:
    """Whether the target vocabulary writes ``number`` as it is, with no unknown piece."""
    ids = tokenizer.encode_target(number)
    return unk_id not in ids and tokenizer.decode(ids).strip() == number
