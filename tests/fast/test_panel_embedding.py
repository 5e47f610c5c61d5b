"""A float32 inference copy whose embedding is tied to its output layer reads the embedding's rows from
the output layer's panels (attnmt.fast.panels.PanelEmbedding): the matrix held once, the same numbers.
Whole translations with each way of tying: tests/fast/test_fused.py (test_translations_are_the_python_steps)."""

import dataclasses

import pytest
import torch
from safetensors import safe_open
from support import EMBEDDING_TIES, NEEDS_EXTENSION_BUILD

from attnmt.attention import padding_mask
from attnmt.decoding.search import greedy_search
from attnmt.fast import extension, prepare, prepared_file
from attnmt.fast.panels import PanelEmbedding, PanelLinear
from attnmt.fast.step import FusedDecoderStep
from attnmt.model import Transformer, TransformerConfig

pytestmark = [
    *NEEDS_EXTENSION_BUILD,
    pytest.mark.skipif(not (extension.available() and torch.ops.attnmt.panels_available()),
                       reason="needs the float32 panel kernels"),
]

VOCAB = 61  # three whole panels of 16 rows and a last one of 13: ids 61-63 are the panels' zero padding


def small_model(seed: int = 0, **overrides) -> Transformer:
    torch.manual_seed(seed)
    settings = dict(vocab_size=VOCAB, d_model=32, n_heads=4, encoder_layers=2, decoder_layers=2, d_ff=64,
                    max_positions=64) | overrides
    return Transformer(TransformerConfig(**settings)).eval()


@pytest.mark.parametrize("ties", EMBEDDING_TIES.values(), ids=EMBEDDING_TIES.keys())
def test_only_embeddings_tied_to_the_output_layer_read_its_panels_and_give_the_readable_rows(ties):
    model = small_model(**ties)
    fast = prepare(model)
    assert type(fast.output) is PanelLinear
    c = model.config
    tgt_tied = c.tie_embeddings or c.tie_output
    assert (type(fast.tgt_embed) is PanelEmbedding) == tgt_tied
    assert (type(fast.src_embed) is PanelEmbedding) == c.tie_embeddings
    if tgt_tied:
        assert fast.tgt_embed.panels is fast.output.panels  # no second copy of the matrix
        assert not any(name.endswith("tgt_embed.weight") for name in fast.state_dict())
    for table in ("src_embed", "tgt_embed"):
        ids = torch.arange(getattr(model, table).num_embeddings).reshape(-1, 1).repeat(1, 3)  # every id, [V, 3]
        with torch.no_grad():
            assert torch.equal(fast.embed(getattr(fast, table), ids), model.embed(getattr(model, table), ids))


@pytest.mark.parametrize("ties", EMBEDDING_TIES.values(), ids=EMBEDDING_TIES.keys())
def test_the_prepared_copy_stores_no_table_for_them_and_reads_them_from_the_mapped_panels(ties, tmp_path):
    model = small_model(seed=4, **ties)
    fast = prepare(model)
    path = tmp_path / "copy.safetensors"
    prepared_file.save_prepared(fast, path)
    with safe_open(str(path), framework="pt") as file:
        names = set(file.keys())
    c = model.config
    assert ("src_embed.weight" in names) == (not c.tie_embeddings)
    assert ("tgt_embed.weight" in names) == (not (c.tie_embeddings or c.tie_output))
    loaded = prepared_file.load_prepared(path, c)
    assert (type(loaded.src_embed), type(loaded.tgt_embed)) == (type(fast.src_embed), type(fast.tgt_embed))
    if c.tie_embeddings or c.tie_output:
        assert loaded.tgt_embed.panels is loaded.output.panels
    src = torch.randint(4, c.src_vocab_size or VOCAB, (3, 6))
    with torch.no_grad():
        assert torch.equal(loaded(src, src), fast(src, src))
    assert greedy_search(loaded, src) == greedy_search(fast, src)


def test_the_cpp_step_embeds_from_the_panels_as_from_the_table_to_the_bit():
    model = small_model()
    fast = prepare(model)
    assert fast.step.weights.embedding.shape == ((VOCAB + 15) // 16, 32, 16)
    table = dataclasses.replace(fast.step.weights, embedding=model.tgt_embed.weight.detach())
    src = torch.randint(4, VOCAB, (VOCAB, 5))
    tokens = torch.arange(VOCAB).reshape(-1, 1)  # every id once, the last panel's included
    with torch.inference_mode():
        memory = fast.encode(src)
        logits = []
        for weights in (fast.step.weights, table):
            step = FusedDecoderStep.__new__(FusedDecoderStep)
            step.weights, step.positional = weights, fast.positional
            step.kernel = torch.classes.attnmt.DecoderStep(weights.to_cpp())
            logits.append(step.decode(tokens, fast.start_decoding(memory), padding_mask(src, 0)))
    assert torch.equal(*logits)


def test_an_id_in_the_panels_padding_is_refused_as_the_table_refuses_it():
    fast = prepare(small_model())
    with pytest.raises(IndexError, match="outside the embedding's 61 rows"):
        fast.tgt_embed(torch.tensor([[3, VOCAB]]))
    src = torch.randint(4, VOCAB, (1, 4))
    with torch.inference_mode(), pytest.raises(RuntimeError, match="token 61 is outside the vocabulary of 61"):
        memory = fast.encode(src)
        fast.step.decode(torch.tensor([[VOCAB]]), fast.start_decoding(memory), padding_mask(src, 0))


def test_embedding_panels_that_are_not_the_output_layers_shape_are_refused():
    weights = prepare(small_model()).step.weights
    with pytest.raises(ValueError, match=r"embedding is torch.float32 \(3, 32, 16\), expected float32 \(4, 32, 16\)"):
        dataclasses.replace(weights, embedding=weights.embedding[:3])
