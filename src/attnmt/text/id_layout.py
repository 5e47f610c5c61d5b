"""attnmt's id layout, which every SentencePiece model it reads is put in (attnmt.text.tokenizer's
docstring): the four special ids and their pieces, a model renumbered into the layout
(``attnmt_layout``) and loaded (``load_proto``), and SentencePiece's protobuf messages that read and
write a serialised model, imported when first needed (``protobuf_messages``)."""

from __future__ import annotations

import functools
import types

import sentencepiece as spm
from google.protobuf.message import DecodeError

from attnmt.errors import ConfigError

PAD_ID, UNK_ID, BOS_ID, EOS_ID = 0, 1, 2, 3
SPECIAL_PIECES = {PAD_ID: "<pad>", UNK_ID: "<unk>", BOS_ID: "<s>", EOS_ID: "</s>"}


@functools.cache
def protobuf_messages() -> tuple[types.ModuleType, types.ModuleType]:
    """SentencePiece's generated protobuf modules (sentencepiece_model_pb2, sentencepiece_pb2),
    imported when first needed.  Each sentencepiece release's generated code needs a protobuf at
    least as new as the one that generated it, which its package does not require (pip sees no
    conflict): a program holding an older protobuf met a traceback at ``import attnmt``, even for
    ``attnmt --version``.  One ConfigError saying what to do instead."""
    try:
        from sentencepiece import sentencepiece_model_pb2, sentencepiece_pb2
    except Exception as error:  # ImportError, or protobuf's VersionError (an Exception of its own)
        from google.protobuf import __version__ as protobuf_version

        raise ConfigError(f"sentencepiece {getattr(spm, '__version__', '?')} cannot read its models with protobuf "
                          f"{protobuf_version} ({' '.join(str(error).split())}): install a newer protobuf "
                          "(pip install -U protobuf), or a sentencepiece as old as your protobuf") from None
    return sentencepiece_model_pb2, sentencepiece_pb2


def attnmt_layout(proto: bytes) -> bytes:
    """``proto`` with its pieces renumbered so that ids 0..3 are <pad>, <unk>, <s>, </s>.

    For SentencePiece models made elsewhere, e.g. by ``spm_train`` with its defaults
    (unk=0, bos=1, eos=2, no pad): special pieces it lacks are added, the others keep
    their order after them.  Text is segmented exactly as before: segmentation depends
    on the pieces and their scores, not on their ids.  A model already in the layout
    comes back unchanged.
    """
    messages = protobuf_messages()[0]
    model = messages.ModelProto()
    try:
        model.ParseFromString(proto)
    except DecodeError as err:
        raise ValueError(f"not a SentencePiece model ({err})") from None
    spec, kind = model.trainer_spec, messages.ModelProto.SentencePiece
    head = [(p.piece, p.type) for p in model.pieces[:4]]
    layout = [(SPECIAL_PIECES[i], kind.UNKNOWN if i == UNK_ID else kind.CONTROL) for i in range(4)]
    if head == layout and (spec.pad_id, spec.unk_id, spec.bos_id, spec.eos_id) == (PAD_ID, UNK_ID, BOS_ID, EOS_ID):
        return bytes(proto)
    unknown = [i for i, p in enumerate(model.pieces) if p.type == kind.UNKNOWN]
    if len(unknown) != 1:
        raise ValueError(f"not a SentencePiece model (it has {len(unknown)} unknown pieces, not 1)")
    special = {*unknown, *(i for i in (spec.pad_id, spec.bos_id, spec.eos_id)
                           if 0 <= i < len(model.pieces) and model.pieces[i].type == kind.CONTROL)}
    rest = [p for i, p in enumerate(model.pieces) if i not in special]
    clash = [p.piece for p in rest if p.piece in SPECIAL_PIECES.values()]
    if clash:
        raise ValueError(f"{clash[0]!r} is an ordinary piece of this model, but attnmt reserves it for a special id")
    del model.pieces[:]
    for name, piece_type in layout:
        model.pieces.add(piece=name, score=0.0, type=piece_type)
    model.pieces.extend(rest)
    spec.pad_id, spec.unk_id, spec.bos_id, spec.eos_id = PAD_ID, UNK_ID, BOS_ID, EOS_ID
    spec.pad_piece, spec.unk_piece, spec.bos_piece, spec.eos_piece = SPECIAL_PIECES.values()
    return model.SerializeToString()


def load_proto(proto: bytes) -> spm.SentencePieceProcessor:
    """A SentencePiece processor for the serialised model ``proto``; ValueError for bytes that are none."""
    sp = spm.SentencePieceProcessor()
    try:
        sp.LoadFromSerializedProto(proto)
    except RuntimeError as err:
        raise ValueError(f"not a SentencePiece model ({err})") from None
    return sp
