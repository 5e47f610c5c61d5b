"""Decoding: from a trained model to text.

    options       Decoding, the search settings, and the limits (MAX_BEAM, MAX_TOKENS)
    state         the rows a search decodes, with their key/value caches
    cache         KVCache, the key/value cache interface the searches hold
    next_tokens   the log-probabilities of the next token (full vocabulary or a shortlist)
    search        greedy and beam search
    beam          beam search's candidates and strategies: plain, or constrained
    constraints   terms a translation must contain (constrained beam search)
    penalties     length and coverage penalties, repetition blocking
    glossary      a user's terminology, matched in the source
    glossary_files  the files it is read from: TSV, CSV
    termbase      and TBX termbases (ISO 30042)
    translate     sentences in, translations out, batched by a token budget
"""

import importlib
from types import ModuleType

from attnmt.decoding.options import DEFAULT, MAX_BEAM, MAX_TOKENS, MOST_SEED, Decoding

__all__ = ["DEFAULT", "MAX_BEAM", "MAX_TOKENS", "MOST_SEED", "Decoding"]


def __getattr__(name: str) -> ModuleType:
    """``attnmt.decoding.quality``, imported where it is first read: translate's annotations name its Assessment
    and Assessor (``typing.get_type_hints`` reads them there), and a job that assesses no translation never
    loads quality estimation (issue 44)."""
    if name != "quality":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return importlib.import_module(f"{__name__}.quality")
