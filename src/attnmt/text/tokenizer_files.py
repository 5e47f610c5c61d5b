"""Which files hold a model's tokenizer, and writing and reading them: the one place that knows.

    spm.model                          one joint SentencePiece model (attnmt.text.tokenizer.Tokenizer)
    spm.source.model spm.target.model  separate source and target models
    source.spm target.spm vocab.json   a model imported from Marian (attnmt.text.vocab_tokenizer)
      [target_vocab.json]

A model directory and a prepared-data directory hold the same files.  Each is written
atomically (attnmt.files).
"""

from __future__ import annotations

from pathlib import Path

from attnmt.errors import ModelDirError
from attnmt.files import write_bytes
from attnmt.text.tokenizer import Tokenizer
from attnmt.text.vocab_tokenizer import VocabTokenizer

TOKENIZER = "spm.model"
SEPARATE_TOKENIZERS = ("spm.source.model", "spm.target.model")


def save_tokenizer(tokenizer: Tokenizer | VocabTokenizer, folder: Path) -> None:
    """The tokenizer's files (see above), each written atomically."""
    if isinstance(tokenizer, VocabTokenizer):
        tokenizer.save(folder)
        return
    names = SEPARATE_TOKENIZERS if tokenizer.separate_vocabs else (TOKENIZER,)
    for name, proto in zip(names, tokenizer.model_protos, strict=False):
        write_bytes(Path(folder) / name, proto)


def tokenizer_paths(folder: Path) -> list[Path]:
    """The SentencePiece files of ``folder``: spm.model, or the source and target models when
    both are there."""
    separate = all((folder / name).is_file() for name in SEPARATE_TOKENIZERS)
    return [folder / name for name in (SEPARATE_TOKENIZERS if separate else (TOKENIZER,))]


def holds_marian_vocabulary(folder: Path) -> bool:
    """Whether ``folder``'s tokenizer is a Marian vocabulary (VocabTokenizer): its vocab.json, or,
    where that is missing, its source.spm or target.spm with none of attnmt's SentencePiece models
    beside them, so that the vocab.json an imported model lacks is named, not an spm.model it never had."""
    if VocabTokenizer.stored_in(folder):
        return True
    own = any((folder / name).is_file() for name in (TOKENIZER, *SEPARATE_TOKENIZERS))
    return not own and any((folder / name).is_file() for name in VocabTokenizer.FILES[:2])


def read_tokenizer(folder: Path, source_eos: bool, language_token_alone: bool = False) -> Tokenizer | VocabTokenizer:
    """The tokenizer ``save_tokenizer`` wrote into ``folder`` (a model or a prepared directory), reading
    sources as its model does (TransformerConfig's ``source_eos`` and ``language_token_alone``; a Marian
    vocabulary reads a leading language token alone whatever the latter says)."""
    if holds_marian_vocabulary(folder):
        try:
            return VocabTokenizer.load(folder, source_eos=source_eos)
        except FileNotFoundError as error:
            raise ModelDirError(f"{error.filename}: not found; a model imported from Marian needs "
                                f"{', '.join(VocabTokenizer.FILES)}") from None
        except (OSError, ValueError, RuntimeError) as error:
            raise ModelDirError(f"{folder}: cannot load the Marian vocabulary ({error})") from None
    paths = tokenizer_paths(folder)
    try:
        protos = [path.read_bytes() for path in paths]
        return Tokenizer(protos[0], protos[1] if len(protos) > 1 else None, source_eos=source_eos, files=paths,
                         language_token_alone=language_token_alone)
    except (OSError, ValueError, RuntimeError) as error:
        raise ModelDirError(f"{paths[-1]}: cannot load the SentencePiece model ({error})") from None
