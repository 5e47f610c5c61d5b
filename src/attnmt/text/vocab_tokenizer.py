"""The tokenizer of models imported from Marian (OPUS-MT): SentencePiece segmentation and an
explicit piece -> id vocabulary."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import sentencepiece as spm

from attnmt.errors import DataError, json_value
from attnmt.files import write_bytes, write_text
from attnmt.text.id_layout import load_proto
from attnmt.text.tokenizer import check_ids, check_text_list, language_token, piece_spans, read_text, spans_after

WORD_START = "\u2581"  # "▁": SentencePiece's mark of a word's start, a space in the text


class VocabTokenizer:
    """SentencePiece segmentation plus an explicit piece -> id vocabulary: how Marian (OPUS-MT) models tokenize.

    The model's ids are not SentencePiece's own: ``vocab.json`` gives each piece its
    id, and a piece it lacks becomes ``<unk>``.  Source and target have their own
    SentencePiece models and may have their own vocabularies.  Marian's conventions,
    kept here so that an imported model reads what it was trained on: the source
    ends with ``</s>`` (unless ``source_eos`` is false: an export of one of attnmt's
    first models, see ``attnmt.interop.export``); a leading language token such as
    ``>>fra<<`` stays whole; there is no BOS (the decoder starts from ``<pad>``).

    Files, the same names as in a Hugging Face Marian directory::

        source.spm  target.spm  vocab.json  [target_vocab.json, when the vocabularies differ]
    """

    FILES = ("source.spm", "target.spm", "vocab.json")
    TARGET_VOCAB = "target_vocab.json"

    def __init__(
        self, source_spm: bytes, target_spm: bytes, vocab: dict[str, int],
        target_vocab: dict[str, int] | None = None, files: Sequence[str | Path] = (), source_eos: bool = True,
    ) -> None:
        """``files``: where source_spm, target_spm, vocab [, target_vocab] were read from, which the
        errors name (default: the file names above).  Raises ValueError, naming the file, for a
        SentencePiece model that is none or a vocabulary without ``<pad>``, ``<unk>`` or ``</s>``."""
        names = [*files] or [*self.FILES, self.TARGET_VOCAB]
        self._protos = (bytes(source_spm), bytes(target_spm))
        self._source = named_proto(self._protos[0], names[0])
        # OPUS-MT's models mostly have one SentencePiece model for both sides: loaded once.
        same = self._protos[1] == self._protos[0]
        self._target = self._source if same else named_proto(self._protos[1], names[1])
        self.source_vocab = dict(vocab)
        self.target_vocab = dict(target_vocab) if target_vocab is not None else self.source_vocab
        self._target_pieces = {i: piece for piece, i in self.target_vocab.items()}
        target_name = names[3] if target_vocab is not None else names[2]
        for pieces, name in ((self.source_vocab, names[2]), (self.target_vocab, target_name)):
            if missing := [piece for piece in ("<pad>", "<unk>", "</s>") if piece not in pieces]:
                raise ValueError(f"{name}: has no {missing[0]!r} entry; Marian vocabularies need <pad>, <unk> and </s>")
        self.pad_id, self.unk_id, self.eos_id = (self.target_vocab[p] for p in ("<pad>", "<unk>", "</s>"))
        self.bos_id = self.pad_id  # Marian's decoder starts from <pad>
        self.source_eos = source_eos

    @classmethod
    def load(cls, folder: str | Path, separate: bool | None = None, source_eos: bool = True) -> VocabTokenizer:
        """Reads the files listed in the class docstring from ``folder``.

        ``separate``: whether target_vocab.json is read; None: when it is there (attnmt's own
        directories write it only for separate vocabularies).  A Hugging Face directory says so in
        its tokenizer_config.json (``attnmt.interop.marian_import``).
        """
        folder = Path(folder)
        source, target, vocab = (folder / name for name in cls.FILES)
        target_vocab = folder / cls.TARGET_VOCAB
        separate = target_vocab.is_file() if separate is None else separate
        return cls(source.read_bytes(), target.read_bytes(), _read_vocab(vocab),
                   _read_vocab(target_vocab) if separate else None,
                   files=[source, target, vocab, *([target_vocab] if separate else [])], source_eos=source_eos)

    @classmethod
    def stored_in(cls, folder: str | Path) -> bool:
        """Whether ``folder`` holds a Marian vocabulary (rather than attnmt's spm.model)."""
        return (Path(folder) / "vocab.json").is_file()

    def save(self, folder: str | Path) -> None:
        """Writes the files into ``folder``, each atomically (target_vocab.json only for separate
        vocabularies)."""
        folder = Path(folder)
        for name, proto in zip(self.FILES[:2], self._protos, strict=True):
            write_bytes(folder / name, proto)
        write_text(folder / "vocab.json", json.dumps(self.source_vocab, ensure_ascii=False))
        if self.separate_vocabs:
            write_text(folder / self.TARGET_VOCAB, json.dumps(self.target_vocab, ensure_ascii=False))

    @property
    def model_protos(self) -> tuple[bytes, bytes]:
        """The serialized source and target SentencePiece models."""
        return self._protos

    @property
    def separate_vocabs(self) -> bool:
        return self.target_vocab is not self.source_vocab

    @property
    def vocab_size(self) -> int:
        """Target ids are 0 .. vocab_size - 1."""
        return max(self.target_vocab.values()) + 1

    @property
    def source_vocab_size(self) -> int:
        return max(self.source_vocab.values()) + 1

    def pieces(self, text: str) -> list[str]:
        """Source pieces as the model reads them, ``</s>`` included (with ``source_eos``); one text
        (``read_text``)."""
        code, text = language_token(read_text(text))
        end = ["</s>"] if self.source_eos else []
        return ([code] if code else []) + self._source.encode(text, out_type=str) + end

    def source_spans(self, text: str) -> list[tuple[int, int]]:
        """Where each of `pieces(text)`'s pieces stands in `text` (attnmt.text.tokenizer.piece_spans), a leading
        language token included, the closing ``</s>`` aside."""
        return spans_after(*language_token(read_text(text)), self._source)

    def encode(self, text: str) -> list[int]:
        """Source ids of `text`, ending with ``</s>`` (with ``source_eos``); one text (``read_text``)."""
        unk = self.source_vocab["<unk>"]
        return [self.source_vocab.get(piece, unk) for piece in self.pieces(text)]

    def encode_batch(self, texts: list[str]) -> list[list[int]]:
        check_text_list(texts)
        return [self.encode(text) for text in texts]

    def encode_target(self, text: str) -> list[int]:
        """Target ids of `text` (the target SentencePiece model and vocabulary), without ``</s>``."""
        unk = self.target_vocab["<unk>"]
        return [self.target_vocab.get(piece, unk) for piece in self._target.encode(read_text(text), out_type=str)]

    def encode_target_batch(self, texts: list[str]) -> list[list[int]]:
        check_text_list(texts)
        return [self.encode_target(text) for text in texts]

    def target_spans(self, text: str) -> list[tuple[int, int]]:
        """Where each of `encode_target(text)`'s pieces stands in `text` (attnmt.text.tokenizer.piece_spans),
        a piece the vocabulary lacks (``<unk>``) included."""
        return piece_spans(self._target, read_text(text))

    def decode(self, ids: Sequence[int]) -> str:
        """Target text of `ids` up to the first ``</s>``, as ``MarianTokenizer.decode(ids,
        skip_special_tokens=True)`` writes it: ``<pad>`` and ``<unk>`` are left out, the target
        SentencePiece model joins the pieces, every "▁" left becomes a space, and no space is left
        at either end.

        OPUS-MT's vocab.json holds the pieces of both sides: target.spm passes one it does not know
        (a source piece the model wrote) through as it is, "▁" included, so the spaces are made here.
        An id vocab.json lacks is left out too (MarianTokenizer would write target.spm's piece of
        that number, which has nothing to do with the vocabulary's ids).
        """
        kept = []
        for i in check_ids(ids):
            if i == self.eos_id:
                break
            if i not in (self.pad_id, self.unk_id) and i in self._target_pieces:
                kept.append(self._target_pieces[i])
        return self._target.decode_pieces(kept).replace(WORD_START, " ").strip()

    def id_to_piece(self, i: int) -> str:
        """The target piece with id `i` (``<unk>`` for an id the vocabulary lacks)."""
        return self._target_pieces.get(i, "<unk>")


def named_proto(proto: bytes, name: str | Path) -> spm.SentencePieceProcessor:
    """``load_proto``, its ValueError naming the file ``name``."""
    try:
        return load_proto(proto)
    except ValueError as error:
        raise ValueError(f"{name}: {error}") from None


def _read_vocab(path: Path) -> dict[str, int]:
    try:
        vocab = json_value(path.read_text(encoding="utf-8"))
    except ValueError as error:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise DataError(f"{path}: not a JSON vocabulary ({error})") from None
    if not isinstance(vocab, dict):
        raise DataError(f"{path}: expected a JSON object mapping pieces to integer ids")
    # type(...) is int: a bool is an int to isinstance, and a negative id would index the embeddings from the end
    if bad := next(((piece, i) for piece, i in vocab.items() if type(i) is not int or i < 0), None):
        raise DataError(f"{path}: the piece {bad[0]!r} has id {json.dumps(bad[1])}; ids are whole numbers from 0")
    return vocab
