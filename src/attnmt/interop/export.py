"""Export to Hugging Face Marian and CTranslate2 (importing from Marian: ``attnmt.interop.marian_import``).

    attnmt export --model DIR --format marian --out OUT
    attnmt export --model DIR --format ctranslate2 --out OUT [--quantization int8]

The maps (ids, parameter names, features) are in ``attnmt.interop.marian``; this module reads
and writes the directories, with ``transformers`` and ``ctranslate2`` imported only
when needed (``pip install 'attnmt[export]'``).

A Marian export holds what ``MarianMTModel.from_pretrained`` and
``MarianTokenizer.from_pretrained`` read: config.json, generation_config.json,
model.safetensors, source.spm, target.spm (both attnmt's SentencePiece model),
vocab.json (piece -> Marian id) and tokenizer_config.json.  Where the model folder records the
longest source its training kept (lengths.json: attnmt.trained_lengths), both exports carry it,
which other tools pass over and ``attnmt import --from-marian`` reads back.

Models read sources ending with ``</s>``, as ``MarianTokenizer`` writes them by default
(and as CTranslate2's documentation tokenises for Marian models).  attnmt's first models
read them without it (config.json: ``source_eos: false``, or no such key); for those, call
``MarianTokenizer`` with ``add_special_tokens=False`` and give CTranslate2 the pieces
alone: ``reading_notes`` says so when such a model is exported.  The Marian export's
config.json then holds ``"attnmt_source_eos": false``, which transformers ignores and
``attnmt import --from-marian`` honours.

``MarianTokenizer`` reads a leading language tag (``>>de<<``) alone, before SentencePiece reads the
rest; so do attnmt's models trained with such a tag among their pieces since ``language_token_alone``
came (config.json: true), while those trained before read it after a "▁", as SentencePiece does:
``reading_notes`` warns that their exports read such a line with other ids.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import tempfile
import warnings
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import torch
from torch import Tensor

from attnmt.checkpoint import load_model_config, load_model_dir, load_tokenizer
from attnmt.files import atomic_folder, umask
from attnmt.interop import QUANTIZATIONS
from attnmt.interop.marian import ConversionError, marian_config, marian_order, marian_weights
from attnmt.model import TransformerConfig
from attnmt.orphans import remove_orphaned_inside
from attnmt.text.tokenizer import Tokenizer
from attnmt.text.vocab_tokenizer import VocabTokenizer
from attnmt.trained_lengths import LENGTHS, write_longest_source

INSTALL_HINT = "install it with: pip install 'attnmt[export]'  (or: pip install transformers ctranslate2)"


def require(module: str, purpose: str) -> ModuleType:
    """Imports an optional dependency, or says how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise ConversionError(f"{purpose} needs the '{module}' package; {INSTALL_HINT}") from None


def check_empty(out: str | Path) -> None:
    """Refuses an --out that is a file or a folder holding anything: the new files would mix with
    others.  An empty one is refused before it becomes Path's "." (the working folder).  The hidden
    folder a killed export or import left in --out (attnmt.files.fill_inside) is deleted first, with
    the files it had moved up (attnmt.orphans.undo_moves)."""
    if not str(out):
        raise ConversionError("--out is empty: give the name of a new folder")
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ConversionError(f"{out} is a file, not a folder: choose a new --out")
    if out.is_dir():
        remove_orphaned_inside(out)
    if out.exists() and any(out.iterdir()):
        raise ConversionError(f"{out} already exists and is not an empty directory; choose a new --out")


@dataclass
class MarianVocab:
    """The Marian side of the vocabulary: which attnmt id each Marian id comes from, and its piece."""

    src_order: list[int]
    tgt_order: list[int]
    src_tokens: list[str]
    tgt_tokens: list[str]
    spm_protos: tuple[bytes, bytes]  # source.spm, target.spm
    pad_id: int  # Marian's ids
    eos_id: int

    @property
    def separate(self) -> bool:
        return self.src_tokens != self.tgt_tokens


def marian_vocab(config: TransformerConfig, tokenizer: Tokenizer | VocabTokenizer) -> MarianVocab:
    """attnmt's vocabulary in Marian's order (see ``marian_order``); separate vocabularies keep their ids."""
    if tokenizer.separate_vocabs:
        if isinstance(tokenizer, VocabTokenizer):
            return separate_marian_vocab(config, tokenizer)
        return two_marian_vocabs(config, tokenizer)
    order = marian_order(config)
    tokens = marian_tokens(config, tokenizer, order)
    return MarianVocab(order, order, tokens, tokens, tokenizer.model_protos,
                       pad_id=order.index(config.bos_id), eos_id=order.index(config.eos_id))


def marian_tokens(config: TransformerConfig, tokenizer: Tokenizer | VocabTokenizer, order: list[int]) -> list[str]:
    """The piece of each Marian id (attnmt id ``order[m]``), special ones named as Marian names them.

    An id that an imported vocab.json gives no piece (``id_to_piece`` says <unk> there) is written
    ``<unused{m}>``, as ``separate_marian_vocab`` writes it: vocab.json needs one piece per id."""
    special = {config.eos_id: "</s>", config.unk_id: "<unk>", config.bos_id: "<pad>"}
    pieces = (special.get(i) or tokenizer.id_to_piece(i) for i in order)
    tokens = [f"<unused{m}>" if piece == "<unk>" and order[m] != config.unk_id else piece
              for m, piece in enumerate(pieces)]
    if len(set(tokens)) < len(tokens):
        repeated = sorted(t for t, n in Counter(tokens).items() if n > 1)
        raise ConversionError(f"the vocabulary has repeated pieces {repeated[:5]}; vocab.json needs unique ones")
    return tokens


def two_marian_vocabs(config: TransformerConfig, tokenizer: Tokenizer) -> MarianVocab:
    """attnmt's source and target vocabularies (shared_vocab: false), each in Marian's order but with
    <pad> (attnmt's BOS row) at id 2, so that both sides agree on Marian's one pad_token_id."""
    def order(size: int) -> list[int]:
        special = [config.eos_id, config.unk_id, config.bos_id]
        return [*special, *(i for i in range(size) if i not in {config.pad_id, *special})]

    src_order, tgt_order = order(config.src_vocab_size or config.vocab_size), order(config.vocab_size)
    source, target = (Tokenizer(proto) for proto in tokenizer.model_protos)
    return MarianVocab(src_order, tgt_order, marian_tokens(config, source, src_order),
                       marian_tokens(config, target, tgt_order), tokenizer.model_protos, pad_id=2, eos_id=0)


def separate_marian_vocab(config: TransformerConfig, tokenizer: VocabTokenizer) -> MarianVocab:
    """A model imported with two vocabularies goes back with its ids unchanged."""
    if config.bos_id != config.pad_id:
        raise ConversionError("separate vocabularies export only for models imported from Marian "
                              f"(bos_id == pad_id), but bos_id={config.bos_id}, pad_id={config.pad_id}")

    def tokens(vocab: dict[str, int], size: int) -> list[str]:
        pieces = {i: piece for piece, i in vocab.items()}
        return [pieces.get(i, f"<unused{i}>") for i in range(size)]

    src_size = config.src_vocab_size or config.vocab_size
    return MarianVocab(list(range(src_size)), list(range(config.vocab_size)),
                       tokens(tokenizer.source_vocab, src_size), tokens(tokenizer.target_vocab, config.vocab_size),
                       tokenizer.model_protos, pad_id=config.pad_id, eos_id=config.eos_id)


def reading_notes(model_dir: str | Path) -> list[str]:
    """What a user of the export must know to feed it text, a line each: nothing unless the model predates
    source_eos, or has a language tag among its pieces that it reads after a "▁" (``language_token_alone``
    false: trained before it came), which MarianTokenizer and CTranslate2's users read alone."""
    config = load_model_config(Path(model_dir))
    notes = []
    if not config.source_eos:
        notes.append("note: this model was trained without a </s> at the end of the source: "
                     "call MarianTokenizer with add_special_tokens=False, and give CTranslate2 the pieces without </s>")
    tokenizer = load_tokenizer(Path(model_dir), config)
    if isinstance(tokenizer, Tokenizer) and tokenizer.language_tokens and not tokenizer.language_token_alone:
        tag = min(tokenizer.language_tokens)
        notes.append(f"warning: this model was trained reading a leading language tag ({tag}) after a '▁'; "
                     "MarianTokenizer and CTranslate2's users read it without one, so a line that starts with it "
                     "may translate differently there")
    return notes


def load_marian_weights(hf_model: torch.nn.Module, weights: dict[str, Tensor]) -> None:
    """Copies ``weights`` into a MarianMTModel; every parameter but the positional tables must be covered."""
    state = hf_model.state_dict()
    with torch.no_grad():
        for name, tensor in weights.items():
            if state[name].shape != tensor.shape:
                raise ConversionError(f"{name}: shape {tuple(tensor.shape)} does not fit {tuple(state[name].shape)}")
            state[name].copy_(tensor)
    written = {state[name].data_ptr() for name in weights}
    left = [name for name, t in state.items() if "embed_positions" not in name and t.data_ptr() not in written]
    if left:
        raise ConversionError(f"no attnmt weights for Marian's {', '.join(left[:5])}")


@contextlib.contextmanager
def no_progress_bars(transformers: ModuleType) -> Iterator[None]:
    """Without transformers' progress bars (save_pretrained's "Writing model shards", from_pretrained's
    "Loading weights"), so that a command prints its own lines alone.  The switch is transformers'
    (and huggingface_hub's) for the whole process: it is put back as it was found."""
    shown = transformers.utils.logging.is_progress_bar_enabled()
    transformers.utils.logging.disable_progress_bar()
    try:
        yield
    finally:
        if shown:
            transformers.utils.logging.enable_progress_bar()


@contextlib.contextmanager
def no_sacremoses_hint() -> Iterator[None]:
    """Silences MarianTokenizer's "Recommended: pip install sacremoses": sacremoses normalises the
    punctuation of text to translate, which neither the export nor CTranslate2's converter reads."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Recommended: pip install sacremoses")
        yield


def write_marian_tokenizer(out: Path, vocab: MarianVocab, transformers: ModuleType) -> None:
    """source.spm, target.spm, vocab.json [, target_vocab.json] and the tokenizer's own config."""
    (out / "source.spm").write_bytes(vocab.spm_protos[0])
    (out / "target.spm").write_bytes(vocab.spm_protos[1])
    files = {"vocab": vocab.src_tokens}
    if vocab.separate:
        files["target_vocab_file"] = vocab.tgt_tokens
    names = {"vocab": "vocab.json", "target_vocab_file": "target_vocab.json"}
    for key, tokens in files.items():
        ids = {token: i for i, token in enumerate(tokens)}
        (out / names[key]).write_text(json.dumps(ids, ensure_ascii=False, indent=1), encoding="utf-8")
    with no_sacremoses_hint():
        tokenizer = transformers.MarianTokenizer(
            source_spm=str(out / "source.spm"), target_spm=str(out / "target.spm"),
            **{key: str(out / names[key]) for key in files}, separate_vocabs=vocab.separate,
        )
    tokenizer.save_pretrained(str(out))


def export_marian(model_dir: str | Path, out: str | Path, weights: str | Path | None = None) -> Path:
    """Writes a Hugging Face Marian directory computing the same function as the attnmt model."""
    transformers = require("transformers", "exporting to Marian")
    check_empty(out)
    out = Path(out)
    model, tokenizer = load_model_dir(model_dir, weights)
    vocab = marian_vocab(model.config, tokenizer)
    settings = marian_config(model.config, len(vocab.src_order), len(vocab.tgt_order), vocab.pad_id, vocab.eos_id)
    hf_model = transformers.MarianMTModel(transformers.MarianConfig(**settings))
    load_marian_weights(hf_model, marian_weights(model, vocab.src_order, vocab.tgt_order))
    # Like OPUS-MT: never generate <pad> (here it holds attnmt's BOS, which attnmt never generates either).
    # min_new_tokens=1: no empty output, as attnmt (min_len=1) and CTranslate2 (min_decoding_length=1) rule out;
    # a beam search allowed it returns it for a long sentence now and then (docs/interop.md).
    hf_model.generation_config.update(bad_words_ids=[[vocab.pad_id]], num_beams=4, min_new_tokens=1,
                                      max_length=model.config.max_positions)

    def fill(folder: Path) -> None:
        with no_progress_bars(transformers):
            hf_model.save_pretrained(str(folder))
        write_marian_tokenizer(folder, vocab, transformers)
        if model.longest_trained is not None:  # read and checked by load_model_dir
            write_longest_source(folder, model.longest_trained)
        for path in folder.iterdir():  # save_pretrained writes model.safetensors privately (0600)
            if path.is_file() and not path.is_symlink():
                path.chmod(0o666 & ~umask())

    # Written beside a new --out and renamed into place, or moved up from a hidden folder in an empty one:
    # an interrupted export leaves no half a model there.
    return atomic_folder(out, fill, replace=False)


def zero_start_converter(ctranslate2: ModuleType) -> type:
    """CTranslate2's Transformers converter, with Marian's decoder start folded into position 0.

    CTranslate2 starts Marian decoders from a zero vector instead of the ``<pad>`` row
    (which is zero in OPUS-MT models, but holds attnmt's BOS embedding in an export).
    The first decoder position always holds the start token, so adding its scaled
    embedding to the decoder's positional encoding at position 0 gives CTranslate2
    the same first input.  For a model whose ``<pad>`` row is zero nothing changes.
    """

    converter: Any = ctranslate2.converters.TransformersConverter  # the module is imported by the caller, untyped

    class ZeroStartConverter(converter):
        def load_model(self, model_class, model_name_or_path, **kwargs):
            model = super().load_model(model_class, model_name_or_path, **kwargs)
            decoder = model.model.decoder
            with torch.no_grad():
                start = decoder.embed_tokens.weight[model.config.decoder_start_token_id]
                decoder.embed_positions.weight[0] += start * decoder.embed_scale
            return model

    return ZeroStartConverter


def export_ctranslate2(
    model_dir: str | Path, out: str | Path, quantization: str | None = None, weights: str | Path | None = None
) -> Path:
    """Writes a CTranslate2 model: a Marian export, converted by CTranslate2's own converter.

    The SentencePiece models travel along (source.spm, target.spm) for tokenising, and so does
    lengths.json where the model has one.
    """
    ctranslate2 = require("ctranslate2", "exporting to CTranslate2")
    transformers = require("transformers", "exporting to CTranslate2")
    check_empty(out)
    out = Path(out)
    if quantization not in (None, *QUANTIZATIONS):
        raise ConversionError(f"unknown quantization {quantization!r}; choose one of {', '.join(QUANTIZATIONS)}")
    with tempfile.TemporaryDirectory() as tmp:
        marian_dir = export_marian(model_dir, Path(tmp) / "marian", weights)
        if (marian_dir / "target_vocab.json").exists():
            raise ConversionError("CTranslate2's Marian converter needs one vocabulary shared by source and target")
        carried = ["source.spm", "target.spm", *([LENGTHS] if (marian_dir / LENGTHS).is_file() else [])]
        converter = zero_start_converter(ctranslate2)(str(marian_dir), copy_files=carried)
        with no_sacremoses_hint(), no_progress_bars(transformers):  # it loads the export's model and tokenizer again
            # force: the converter's own check refuses the temporary folder atomic_folder has made
            atomic_folder(out, lambda folder: converter.convert(str(folder), quantization=quantization, force=True),
                          replace=False)
    return out
