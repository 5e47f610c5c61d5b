"""The numbers in digits a sentence with glossary terms keeps as digits (attnmt.decoding.inputs.Guides.terms).

A sentence with terms is searched with constraints, and round a term it cannot place well a small model spells a
number out, drops it or writes it twice: "Take Route 66 to the city." with "route" -> "Route" came out "Ein Route
Conner, …", the 66 gone, and "Route 66" as "Sechs Sechs Route" (the search with no piece twice, which drops the
second "Sechs", scored 1.3 nats lower and was not taken).  A number the source writes in digits is the user's, as a
term is: each such number is required in the translation as written, as one more target term, so the search places
it where the model finds it likely ("Route 66", "250 Laptops") and never spells it out.

Only a whole number standing as a word of its own is required: after a space, the sentence's start or an opening
bracket or quote, before a space, the end or a closing mark ("66", "2019", "3" in "3 bottles"; not "4'", feet); not
one German writes otherwise ("1,000" is "1.000", "3.5" "3,5"), nor one inside a word or a code ("COVID-19", "A4",
"3D", "#7", "v2"), which the model copies or the documents' rules carry (attnmt.decoding.protected).
"""

from __future__ import annotations

import re
import unicodedata

# A whole number of digits after a space, the start or an opening mark, before a space or the end, closing marks
# between, but for the straight quotes and the apostrophe, which are feet and inches after a number ("4' in
# diameter", '12" screen': the foot's 4 was placed as "in der Nähe 4")
NUMBER = re.compile(r"(?<![^\s(\[{\"'“‘„«¿¡])\d+(?=[.,;:!?)\]}”»]*(?:\s|$))")


def source_numbers(sentence: str) -> list[str]:
    """The numbers in digits ``sentence`` writes as words of their own (NUMBER), each once, in order: "Route 66 is
    long." -> ["66"]; "Two bottles of 1,000 ml." -> [] (German writes "1.000")."""
    return list(dict.fromkeys(NUMBER.findall(unicodedata.normalize("NFKC", sentence))))


def with_numbers(tokenizer, targets: list[str], sentence: str, unk_id: int) -> list[str]:
    """A sentence's target terms ``targets`` and, where it has any, its ``source_numbers`` the target vocabulary
    writes exactly (as the search would force them: term_ids.target_ids), to be required as terms; ``targets`` alone
    where it has none (a sentence without terms is searched freely)."""
    if not targets:
        return targets
    return [*targets, *(number for number in source_numbers(sentence) if writable(tokenizer, number, unk_id))]


def writable(tokenizer, number: str, unk_id: int) -> bool:
    """Whether the target vocabulary writes ``number`` as it is, with no unknown piece."""
    ids = tokenizer.encode_target(number)
    return unk_id not in ids and tokenizer.decode(ids).strip() == number
