"""Subword tokenizers: SentencePiece, one joint model for source and target or one per side.

A joint vocabulary lets the model share (tie) the source embedding, the target
embedding and the output projection, as in "Attention Is All You Need" (sec. 3.4).
The four special ids are fixed so that every other module can rely on them:

    PAD_ID = 0   padding, ignored by attention masks and the loss
    UNK_ID = 1   a character the model never saw
    BOS_ID = 2   start of the target sentence (the decoder's first input)
    EOS_ID = 3   end of sentence (the decoder's last output; with source_eos also the source's)

Any SentencePiece model can be used: ``attnmt_layout`` (attnmt.text.id_layout, which holds the
ids) renumbers its pieces into this layout (segmentation does not depend on the ids).  Models
imported from Marian (OPUS-MT) keep their own ids and special pieces:
``attnmt.text.vocab_tokenizer.VocabTokenizer`` reads them from the model's vocabulary file.  Which
files hold a model's tokenizer, and writing and reading them: attnmt.text.tokenizer_files; training a
SentencePiece model on a corpus: attnmt.text.tokenizer_training.

Both tokenizers read text the same way: ``encode`` is the source as the encoder reads
it, ``encode_target`` the target without BOS/EOS, ``decode`` turns target ids into text, and
``target_spans`` says where each of ``encode_target``'s pieces stands in the text as given, and
``source_spans`` where each of ``pieces``' does.  A language token that starts a source (``>>de<<``)
is read alone, as MarianTokenizer reads it (``language_token``), by ``VocabTokenizer`` always, by
``Tokenizer`` for one of its pieces with ``language_token_alone`` (new trainings: attnmt.training.start).
"""

from __future__ import annotations

import functools
import operator
import warnings
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from itertools import accumulate
from pathlib import Path

import numpy as np
import sentencepiece as spm
import torch

from attnmt.errors import ConfigError
from attnmt.files import write_bytes
from attnmt.text.encodings import given_text
from attnmt.text.id_layout import BOS_ID, EOS_ID, PAD_ID, UNK_ID, attnmt_layout, load_proto, protobuf_messages
from attnmt.text.id_layout import SPECIAL_PIECES as SPECIAL_PIECES  # its home was here
from attnmt.text.invisible import spaced

# Two threads: training and batch encoding stay fast and friendly to a shared machine.
NUM_THREADS = 2


class Tokenizer:
    """attnmt's SentencePiece tokenization: a joint model, or a source and a target model.

    Every model is in attnmt's id layout (0..3 = pad, unk, bos, eos).  With ``source_eos``
    the source ends with ``</s>``, as in Marian and fairseq: new models are trained so,
    and their exports then read text with those tools' default tokenization.  With
    ``language_token_alone`` a leading language token is read as Marian reads it (``split_language_token``).
    """

    pad_id, unk_id, bos_id, eos_id = PAD_ID, UNK_ID, BOS_ID, EOS_ID

    def __init__(self, model_proto: bytes, target_proto: bytes | None = None, source_eos: bool = True,
                 files: Sequence[str | Path] = (), language_token_alone: bool = False) -> None:
        """Wraps serialized SentencePiece models (the target's when the vocabularies are separate);
        ``files``: where they were read from, which its repr names.

        Raises ValueError if one is unusable."""
        source = attnmt_layout(model_proto)
        target = attnmt_layout(target_proto) if target_proto is not None else source
        self._protos = (source, target)
        self._source = load_proto(source)
        self._target = load_proto(target) if target_proto is not None else self._source
        self.source_eos = source_eos
        self.files = tuple(Path(file) for file in files)
        self.language_token_alone = language_token_alone

    def __repr__(self) -> str:
        """``<Tokenizer runs/demo/spm.model: 8000 pieces>``; two files and two counts where the
        vocabularies are separate; "in memory" for one read from no file (trained, or given bytes)."""
        where = " + ".join(map(str, self.files)) or "in memory"
        sizes = f"{self.source_vocab_size} + {self.vocab_size}" if self.separate_vocabs else f"{self.vocab_size}"
        return f"<Tokenizer {where}: {sizes} pieces>"

    @classmethod
    def train(
        cls,
        sentences: Iterable[str],
        vocab_size: int = 8000,
        model_type: str = "unigram",
        character_coverage: float = 1.0,
        seed: int = 0,
        source_eos: bool = True,
        language_token_alone: bool = False,
        **options,
    ) -> Tokenizer:
        """A joint model trained on `sentences` (source and target mixed); see
        ``attnmt.text.tokenizer_training.train_sentencepiece``."""
        from attnmt.text.tokenizer_training import train_sentencepiece  # which imports this module

        proto = train_sentencepiece(sentences, vocab_size, seed, model_type=model_type,
                                    character_coverage=character_coverage, **options)
        return cls(proto, source_eos=source_eos, language_token_alone=language_token_alone)

    @classmethod
    def load(cls, path: str | Path, source_eos: bool = True) -> Tokenizer:
        """A joint tokenizer from one SentencePiece `.model` file (attnmt's, or any other)."""
        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"{path}: tokenizer model file not found")
        try:
            return cls(path.read_bytes(), source_eos=source_eos, files=[path])
        except ValueError as err:
            raise ValueError(f"{path}: cannot load tokenizer: {err}") from None

    def save(self, path: str | Path) -> None:
        """Writes the joint `.model` file atomically (attnmt.files)."""
        if self.separate_vocabs:
            raise ValueError("this tokenizer has a source and a target model: save its model_protos")
        write_bytes(Path(path), self._protos[0])

    @property
    def model_proto(self) -> bytes:
        """The serialized (source, or joint) SentencePiece model."""
        return self._protos[0]

    @property
    def model_protos(self) -> tuple[bytes, bytes]:
        """The serialized source and target SentencePiece models (the same one when joint)."""
        return self._protos

    @functools.cached_property
    def language_tokens(self) -> frozenset[str]:
        """The source pieces that are language tokens (``>>de<<``, from ``user_defined_symbols``)."""
        pieces = (self._source.id_to_piece(i) for i in range(self._source.get_piece_size()))
        return frozenset(piece for piece in pieces if language_token(piece)[0] == piece)

    @property
    def separate_vocabs(self) -> bool:
        return self._target is not self._source

    @property
    def vocab_size(self) -> int:
        """Number of target pieces, special ones included; ids are 0 .. vocab_size - 1."""
        return self._target.get_piece_size()

    @property
    def source_vocab_size(self) -> int:
        return self._source.get_piece_size()

    def encode(self, text: str) -> list[int]:
        """Source ids of `text` as the encoder reads them: no BOS; ``</s>`` last with source_eos
        (a text with no pieces stays empty: nothing to translate).

        SentencePiece normalizes first (NFKC, runs of whitespace collapsed, ends
        trimmed), so `decode(encode_target(s)) == s` holds for text already in that form.
        With ``language_token_alone``, a leading language token that is one of the source model's
        pieces is read whole and alone (``split_language_token``).

        One text (``read_text``): a list was SentencePiece's batch, ``[[9, 70], 3]``.
        """
        code, text = self.split_language_token(read_text(text))
        return self._with_end(self._code_ids(code) + self._source.encode(text, out_type=int))

    def encode_batch(self, texts: list[str]) -> list[list[int]]:
        """`encode` for many texts at once (SentencePiece batches them in C++)."""
        check_text_list(texts)
        if not self.language_token_alone:  # SentencePiece reads them, after one C-level regex pass a line (spaced)
            rows = self._source.encode(list(map(spaced, texts)), out_type=int, num_threads=NUM_THREADS)
            return [self._with_end(ids) for ids in rows]
        split = [self.split_language_token(spaced(text)) for text in texts]
        rows = self._source.encode([text for _, text in split], out_type=int, num_threads=NUM_THREADS)
        return [self._with_end(self._code_ids(code) + ids) for (code, _), ids in zip(split, rows, strict=True)]

    def encode_target(self, text: str) -> list[int]:
        """Target ids of `text`, without BOS/EOS (one text, as ``encode`` takes)."""
        return self._target.encode(read_text(text), out_type=int)

    def encode_target_batch(self, texts: list[str]) -> list[list[int]]:
        check_text_list(texts)
        return self._target.encode(list(map(spaced, texts)), out_type=int, num_threads=NUM_THREADS)

    def split_language_token(self, text: str) -> tuple[str, str]:
        """(the language token `text` starts with where it is one of the source model's pieces, or "";
        the rest of `text`).  MarianTokenizer reads a leading ``>>de<<`` apart from the text after it
        (``language_token``): ``[">>de<<", "▁A"]``, where SentencePiece reads ``["▁", ">>de<<", "▁A"]``;
        so does attnmt with ``language_token_alone``.  Else, or for a token the model lacks, SentencePiece."""
        code, rest = language_token(text)
        return (code, rest) if self.language_token_alone and code in self.language_tokens else ("", text)

    def _code_ids(self, code: str) -> list[int]:
        return [self._source.piece_to_id(code)] if code else []

    def _with_end(self, ids: list[int]) -> list[int]:
        return [*ids, EOS_ID] if ids and self.source_eos else ids

    def decode(self, ids: Sequence[int]) -> str:
        """Target text of `ids` up to the first EOS; PAD and BOS are skipped; no space at either end
        (a lone "▁" piece last would leave one, which MarianTokenizer, reading an export, strips too).

        Accepts any sequence of ints, a 1-D tensor of a decoder's output included (``check_ids``).
        """
        kept = []
        for i in check_ids(ids):
            if i == EOS_ID:
                break
            if i not in (PAD_ID, BOS_ID):
                kept.append(i)
        try:
            return self._target.decode(kept).strip()
        except IndexError:  # SentencePiece's "OUT_OF_RANGE: piece id is out of range." names no id
            for i in kept:
                self.check_id(i)
            raise

    def target_spans(self, text: str) -> list[tuple[int, int]]:
        """Where each of `encode_target(text)`'s pieces stands in `text` (``piece_spans``)."""
        return piece_spans(self._target, read_text(text))

    def source_spans(self, text: str) -> list[tuple[int, int]]:
        """Where each of `pieces(text)`'s pieces stands in `text` (``piece_spans``), the closing "</s>" aside."""
        return spans_after(*self.split_language_token(read_text(text)), self._source)

    def pieces(self, text: str) -> list[str]:
        """Source pieces of `text` as the encoder reads them, e.g. ["▁Ein", "▁Mann", "</s>"]; one text
        (``read_text``): a list was SentencePiece's batch, its pieces' lists with "</s>" after them."""
        code, text = self.split_language_token(read_text(text))
        pieces = ([code] if code else []) + self._source.encode(text, out_type=str)
        return [*pieces, "</s>"] if pieces and self.source_eos else pieces

    def id_to_piece(self, i: int) -> str:
        """The target piece with id `i`."""
        self.check_id(i)
        return self._target.id_to_piece(i)

    def check_id(self, i: int) -> None:
        """IndexError naming `i` where it is not the id of a target piece."""
        if not 0 <= i < self.vocab_size:
            raise IndexError(f"token id {i} is outside the vocabulary 0..{self.vocab_size - 1}")

    def piece_to_id(self, piece: str) -> int:
        """The target id of `piece` (unk_id for a piece outside the vocabulary)."""
        return self._target.piece_to_id(piece)


def read_text(text: object) -> str:
    """One text a caller gives to be tokenized (``given_text``) as both tokenizers read it: each white space
    SentencePiece would leave out a space (attnmt.text.invisible.spaced), so that it parts the words beside it."""
    return spaced(given_text(text))


def check_text_list(texts: object, name: str = "texts") -> Iterable[object]:
    """``texts``, after one clear error for one text where a list of texts is wanted: a str is a
    Sequence[str] to Python's types, and was encoded (or translated) one character a line.  The
    texts themselves are not looked at: a corpus's millions of lines are encoded through here
    (``attnmt.text.data.given_texts`` checks each of a Python caller's sentences too)."""
    if isinstance(texts, (str, bytes)) or not isinstance(texts, Iterable):
        raise ConfigError(f"{name}: expected a list of texts, got {type(texts).__name__}"
                          + ("; pass [text] for one" if isinstance(texts, (str, bytes)) else ""))
    return texts


def check_ids(ids: Sequence[int]) -> list[int]:
    """``ids`` as one sentence's ids, a list of ints, after one clear error where they are not: a
    str's characters were read as ids ("123" decoded as "⁇"), a float was cut to an int (6.7 read as
    6), and a [1, n] or [2, n] tensor failed with torch's "only one element tensors can be converted
    to Python scalars".  A tensor or array with one row or one column ([1, n], or the [n, 1] a greedy
    loop gets by ``torch.cat`` of its [1, 1] steps) holds one sentence: it is read flat.  One id
    alone (a 0-d tensor) is no sentence: iterating it was a TypeError."""
    if isinstance(ids, str | bytes):
        raise ConfigError(f"ids: expected token ids (a list of ints or a 1-D tensor), got {type(ids).__name__}; "
                          "encode_target gives a text's ids")
    if isinstance(ids, torch.Tensor | np.ndarray):
        if ids.ndim == 0:
            raise ConfigError(f"ids: expected a sentence's token ids (a list of ints or a 1-D tensor), got one id, "
                              f"{ids!r}; pass [id] for a sentence of one")
        if ids.ndim > 2 or (ids.ndim == 2 and min(ids.shape) > 1):
            raise ConfigError(f"ids: expected token ids (a list of ints or a 1-D tensor), got a tensor of shape "
                              f"{list(ids.shape)}; decode a batch one row at a time")
        ids = ids.reshape(-1).tolist()
    whole = []
    for i in ids:
        try:
            whole.append(operator.index(i))  # ints of any kind (NumPy's, a 0-d long tensor), never a float
        except TypeError:
            raise ConfigError(f"ids: expected token ids of an integer type, got {i!r} ({type(i).__name__}); "
                              f"a float array of ids needs .astype(int) (NumPy) or .long() (torch)") from None
    return whole


def language_token(text: str) -> tuple[str, str]:
    """(the language token ``text`` starts with, such as ``>>fra<<``, which is read whole, or "";
    the rest of ``text``): MarianTokenizer's rule (its ``remove_language_code``), which takes only a
    token at the very start of the text (after a space, it is the text's like any other word)."""
    if text.startswith(">>") and (end := text.find("<<")) != -1:
        return text[: end + 2], text[end + 2 :]
    return "", text


def spans_after(code: str, rest: str, processor: spm.SentencePieceProcessor) -> list[tuple[int, int]]:
    """The spans (``piece_spans``) of a text that starts with the language token ``code`` ("" for none)
    read alone: the token's own, then those of the ``rest`` of the text moved past it."""
    spans = piece_spans(processor, rest)
    return ([(0, len(code))] if code else []) + [(begin + len(code), end + len(code)) for begin, end in spans]


def piece_spans(processor: spm.SentencePieceProcessor, text: str) -> list[tuple[int, int]]:
    """(begin, end) of each piece ``processor`` cuts ``text`` into, in characters of ``text`` as
    given: the pieces are of the normalised text ("™" is read as "TM", a run of spaces as one "▁"),
    and these offsets are how a piece is found in what the user wrote.  A piece made up by
    normalisation has an empty span where it starts ("T" of "™": (k, k)); a "▁" piece of its own
    spans the space before the word it starts.

    SentencePiece gives byte offsets into the UTF-8 text in its serialised result, which every 0.2
    release writes (newer ones no longer offer "immutable_proto", whose offsets are characters)."""
    found = protobuf_messages()[1].SentencePieceText()
    found.ParseFromString(processor.encode(text, out_type="serialized_proto"))
    starts = list(accumulate((len(ch.encode()) for ch in text), initial=0))  # [len(text) + 1]: each character's byte
    return [(bisect_left(starts, piece.begin), bisect_left(starts, piece.end)) for piece in found.pieces]


# Training moved to attnmt.text.tokenizer_training: its names are importable from here, with a
# warning, for one more release.
MOVED = ("train_sentencepiece", "sentencepiece_options", "symbol_list", "sample_sentences", "MAX_TRAINING_SENTENCES")


def __getattr__(name: str) -> object:
    if name in MOVED:
        import attnmt.text.tokenizer_training as training  # which imports this module

        warnings.warn(f"attnmt.text.tokenizer.{name} is now attnmt.text.tokenizer_training.{name}; the old path goes "
                      "in the next release", DeprecationWarning, stacklevel=2)
        return getattr(training, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
