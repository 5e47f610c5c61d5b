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

from attnmt.decoding.options import DEFAULT, MAX_BEAM, MAX_TOKENS, MOST_SEED, Decoding

__all__ = ["DEFAULT", "MAX_BEAM", "MAX_TOKENS", "MOST_SEED", "Decoding"]
