"""attnmt: the Transformer of "Attention Is All You Need", from scratch in PyTorch.

The paper's parts are the top-level modules, in reading order: ``attention`` (masks,
scaled dot-product attention, multi-head attention), ``layers`` (positional encoding,
feed-forward, encoder and decoder layers), ``model`` (the Transformer), ``config`` (its shape)
and ``checkpoint`` (model directories); ``evaluate`` (BLEU), ``errors``, ``files``,
``hardware`` and ``threads`` serve them all.  Around them, one folder per subsystem:

    text/       tokenizers, the Marian vocabulary, reading text into batches
    decoding/   search options, greedy and beam search, constraints, glossaries, translate
    training/   the trainer, its objective, corpora prepared as token arrays, batching
    fast/       the fast inference copy: C++ decoder step, panels, int8, shortlists
    inspect/    attention traces, alignments, figures, the attention viewer
    documents/  markup, subtitles and paragraphs carried through translation
    interop/    Marian and CTranslate2 import and export
    server/     the HTTP server: attnmt's API, LibreTranslate's, streaming, the page
    cli/        the ``attnmt`` command line
"""

# ruff: noqa: E402 (the imports below come after the process defaults, which must precede torch)

from attnmt.interrupt_hold import START

START.begin()  # first: a Ctrl-C from here to the command's own handling is its one line (attnmt.interrupt_hold)

try:
    import sys
    import types

    from attnmt import hardware
    from attnmt import threads as threads  # on import, the first reading of CPU time: the first choice sees start-up
    from attnmt.errors import command_line_interrupts, is_the_command_line
except BaseException:
    START.end()  # an import that failed leaves Ctrl-C as it found it (a program's handler, not the hold)
    raise

if not is_the_command_line():
    START.end()  # a program's import: its Ctrl-C is its KeyboardInterrupt again, one noted till now raised here

hardware.set_process_defaults()  # before anything imports torch: OpenMP reads them when it loads

import gc
import importlib
from typing import TYPE_CHECKING

# Importing torch makes some 170,000 objects that live as long as the process.  With the cyclic
# collector on, it goes over them again and again while they load (a full pass takes about
# 0.07 s).  So the collector waits until the imports are done.  In the ``attnmt`` command (issue
# 44: a one-line job's start-up) it then leaves every object alive by then out of its passes
# (gc.freeze): reference counting still frees them, but a reference cycle among them would never
# be collected.  A program that imports attnmt is not frozen: there the objects alive by then are
# also the program's own, and a cycle of them dropped later would leak.  Where the collector was
# off, it stays off and nothing is frozen.
_collecting = gc.isenabled()
gc.disable()
try:
    # Ctrl-C while torch loads (a second or more): the command's one line, not this import's traceback
    with command_line_interrupts():
        from attnmt import _moved
        from attnmt.attention import (
            MultiHeadAttention,
            causal_mask,
            padding_mask,
            scaled_dot_product_attention,
        )
        from attnmt.checkpoint import load_model_dir
        from attnmt.config import TransformerConfig
        from attnmt.decoding import Decoding
        from attnmt.errors import UserError
        from attnmt.layers import DecoderLayer, EncoderLayer, FeedForward, PositionalEncoding
        from attnmt.model import AttentionTrace, Transformer
finally:
    if _collecting:
        if is_the_command_line():
            gc.freeze()
        gc.enable()

__version__ = "0.1.0"

# Public names imported where first used (issue 44: a one-line job starts in a second): their modules
# load quality estimation, glossary files and the documents' sentence placing, which a job of the
# command line that needs none of them (``attnmt translate`` of plain text) does not load.
_ON_USE = {
    "Assessor": "attnmt.decoding.quality",
    "assess": "attnmt.decoding.quality",
    "Glossary": "attnmt.decoding.glossary",
    "read_glossary": "attnmt.decoding.glossary",
    "translate": "attnmt.documents.sentence_translate",
    "translate_n_best": "attnmt.documents.sentence_translate",
}
if TYPE_CHECKING:
    from attnmt.decoding.glossary import Glossary, read_glossary
    from attnmt.decoding.quality import Assessor, assess
    from attnmt.documents.sentence_translate import translate, translate_n_best


def __getattr__(name: str) -> object:
    """One of the public names of ``_ON_USE``, imported now and kept: ``attnmt.translate``."""
    if name not in _ON_USE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_ON_USE[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_ON_USE})


class _Package(types.ModuleType):
    """The package's module: ``attnmt.translate`` stays the function when the old module path
    ``attnmt.translate`` (now attnmt.decoding.translate) is imported, which would rebind it."""

    def __setattr__(self, name: str, value: object) -> None:
        if not (name == "translate" and isinstance(value, types.ModuleType)):
            super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
_moved.install()

__all__ = [
    "Assessor",
    "AttentionTrace",
    "Decoding",
    "DecoderLayer",
    "EncoderLayer",
    "FeedForward",
    "Glossary",
    "MultiHeadAttention",
    "PositionalEncoding",
    "Transformer",
    "TransformerConfig",
    "UserError",
    "assess",
    "causal_mask",
    "load_model_dir",
    "padding_mask",
    "read_glossary",
    "scaled_dot_product_attention",
    "translate",
    "translate_n_best",
]
