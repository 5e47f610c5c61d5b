"""Module paths of earlier versions, kept importable for one release with a deprecation warning.

Version 0.2 moved modules into folders named after their subsystems (text/, decoding/, training/,
server/, cli/).  ``import attnmt.search`` still works: a finder on ``sys.meta_path`` answers
each old path below with the module that now lives at the new one (the same object, so
attributes set on either are seen by both) and warns once per path.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
import warnings

MOVED = {
    "attnmt.tokenizer": "attnmt.text.tokenizer",
    "attnmt.vocab_tokenizer": "attnmt.text.vocab_tokenizer",
    "attnmt.tokenizer_files": "attnmt.text.tokenizer_files",
    "attnmt.data": "attnmt.text.data",
    "attnmt.search": "attnmt.decoding.search",
    "attnmt.decoder_state": "attnmt.decoding.state",
    "attnmt.next_tokens": "attnmt.decoding.next_tokens",
    "attnmt.constraints": "attnmt.decoding.constraints",
    "attnmt.penalties": "attnmt.decoding.penalties",
    "attnmt.glossary": "attnmt.decoding.glossary",
    "attnmt.translate": "attnmt.decoding.translate",
    "attnmt.batching": "attnmt.training.batching",
    "attnmt.corpus": "attnmt.training.corpus",
    "attnmt.prepare": "attnmt.training.tokenize_corpora",
    "attnmt.training.corpora": "attnmt.training.training_data",
    "attnmt.app.serve": "attnmt.server.app",
    "attnmt.app.served": "attnmt.server.models",
    "attnmt.app.native": "attnmt.server.v1_api",
    "attnmt.app.libretranslate": "attnmt.server.libretranslate",
    "attnmt.app.streaming": "attnmt.server.streaming",
    "attnmt.app.request_batcher": "attnmt.server.batcher",
    "attnmt.app.guards": "attnmt.server.guards",
    "attnmt.app.access": "attnmt.server.access",
    "attnmt.app.metrics": "attnmt.server.metrics",
    "attnmt.app.context": "attnmt.server.context",
    "attnmt.app.detect": "attnmt.server.detect",
    "attnmt.app.page": "attnmt.server.page",
    "attnmt.app.paragraphs": "attnmt.documents.paragraphs",
    "attnmt.app.cli": "attnmt.cli.main",
    "attnmt.app.commands": "attnmt.cli.commands",
    "attnmt.app.options": "attnmt.cli.options",
    "attnmt.app.lines": "attnmt.cli.lines",
    "attnmt.app.document_files": "attnmt.cli.document_files",
    "attnmt.app.demo": "attnmt.cli.demo",
    "attnmt.app": "attnmt.cli",
}


def _outside_import_system() -> int:
    """The ``stacklevel`` that names the line doing the import, past importlib's own frames."""
    frame, level = sys._getframe(1), 1
    while frame is not None and (frame.f_code.co_filename.startswith("<frozen importlib")
                                 or frame.f_code.co_filename in (__file__, importlib.__file__)):
        frame, level = frame.f_back, level + 1
    return level


class _Alias(importlib.abc.Loader):
    def __init__(self, new: str):
        self.new = new

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        warnings.warn(f"{spec.name} moved to {self.new}; the old path goes in the next release",
                      DeprecationWarning, stacklevel=_outside_import_system())
        return importlib.import_module(self.new)

    def exec_module(self, module: types.ModuleType) -> None:
        """The module was run when it was imported under its new path."""


class MovedFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        new = MOVED.get(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Alias(new), is_package=new in ("attnmt.cli",
                                                                                          "attnmt.cli.commands"))


def install() -> None:
    if not any(isinstance(finder, MovedFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, MovedFinder())
