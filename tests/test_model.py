"""The whole Transformer: shapes, tying, masking, the permutation experiment, gradients."""

import pytest
import torch

from attnmt.attention import padding_mask
from attnmt.errors import ConfigError
from attnmt.model import Transformer, TransformerConfig


def tiny_config(**changes) -> TransformerConfig:
    values = dict(vocab_size=30, d_model=16, n_heads=4, encoder_layers=2, decoder_layers=2,
                  d_ff=32, dropout=0.0, max_positions=32)
    values.update(changes)
    return TransformerConfig(**values)


def tiny_model(**changes) -> Transformer:
    torch.manual_seed(0)
    return Transformer(tiny_config(**changes)).eval()


def test_forward_shapes_and_attention_trace():
    model = tiny_model()
    src, tgt = torch.randint(4, 30, (2, 7)), torch.randint(4, 30, (2, 5))
    logits, trace = model(src, tgt, return_attention=True)
    assert logits.shape == (2, 5, 30)
    assert [w.shape for w in trace.encoder] == [(2, 4, 7, 7)] * 2
    assert [w.shape for w in trace.decoder_self] == [(2, 4, 5, 5)] * 2
    assert [w.shape for w in trace.cross] == [(2, 4, 5, 7)] * 2
    torch.testing.assert_close(model(src, tgt), logits)


@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("target_length", [1, 5])
@pytest.mark.parametrize("layer", [0, -1])
def test_a_layers_cross_attention_alone_is_the_traces(norm_first, target_length, layer):
    model = tiny_model(norm_first=norm_first)
    src, tgt = torch.randint(4, 30, (3, 7)), torch.randint(4, 30, (3, target_length))
    src[1, 4:] = 0  # padding
    with torch.no_grad():
        _, trace = model(src, tgt, return_attention=True)
        alone = model.cross_attention(tgt, model.encode(src), padding_mask(src, 0), layer)
    torch.testing.assert_close(alone, trace.cross[layer])


@pytest.mark.parametrize("layer", [2, 3, -3])
def test_a_cross_attention_layer_the_model_lacks_is_one_config_error_naming_those_it_has(layer):
    model = tiny_model()  # 2 decoder layers: layer=2 was layer 0, -3 was layer 1
    src, tgt = torch.randint(4, 30, (1, 7)), torch.randint(4, 30, (1, 5))
    with pytest.raises(ConfigError, match=rf"^layer={layer}: the model has 2 layers of cross-attention "
                                          r"\(decoder → encoder\) \(layer=0 to 1, -1 to -2 from the last\)$"):
        model.cross_attention(tgt, model.encode(src), padding_mask(src, 0), layer)


def test_embeddings_and_output_projection_are_tied():
    model = tiny_model()
    assert model.src_embed.weight is model.tgt_embed.weight is model.output.weight
    untied = tiny_model(tie_embeddings=False)
    assert untied.src_embed.weight is not untied.tgt_embed.weight
    assert untied.num_parameters() > model.num_parameters()


def test_embeddings_are_scaled_by_sqrt_d_model():
    model = tiny_model(positional="none")
    tokens = torch.tensor([[5]])
    torch.testing.assert_close(model.embed(model.src_embed, tokens)[0, 0],
                               model.src_embed.weight[5] * 4.0)


def test_source_padding_does_not_change_real_outputs():
    model = tiny_model()
    tgt = torch.tensor([[2, 9, 10]])
    short = model(torch.tensor([[5, 6, 7]]), tgt)
    padded = model(torch.tensor([[5, 6, 7, 0, 0]]), tgt)
    torch.testing.assert_close(short, padded, atol=1e-5, rtol=1e-5)


def test_decoder_output_at_t_ignores_later_targets():
    model = tiny_model()
    src = torch.tensor([[5, 6, 7]])
    a = model(src, torch.tensor([[2, 9, 10, 11]]))
    b = model(src, torch.tensor([[2, 9, 20, 21]]))
    torch.testing.assert_close(a[:, :2], b[:, :2])


def test_without_positions_permuting_input_permutes_encoder_output():
    model = tiny_model(positional="none")
    src = torch.tensor([[5, 6, 7, 8]])
    perm = torch.tensor([2, 0, 3, 1])
    torch.testing.assert_close(model.encode(src)[:, perm], model.encode(src[:, perm]),
                               atol=1e-5, rtol=1e-5)


def test_with_positions_permuting_input_changes_encoder_output():
    model = tiny_model()
    src = torch.tensor([[5, 6, 7, 8]])
    perm = torch.tensor([2, 0, 3, 1])
    assert not torch.allclose(model.encode(src)[:, perm], model.encode(src[:, perm]), atol=1e-3)


def test_cached_decoding_equals_full_prefix():
    model = tiny_model()
    src, tgt = torch.tensor([[5, 6, 7, 0]]), torch.tensor([[2, 9, 10, 11, 12]])
    memory = model.encode(src)
    mask = padding_mask(src, 0)
    full = model.decode(tgt, memory, mask)
    cache = model.start_decoding(memory)
    first = model.decode(tgt[:, :2], memory, mask, cache=cache)  # several positions at once
    rest = [model.decode(tgt[:, t:t + 1], memory, mask, cache=cache) for t in range(2, 5)]
    torch.testing.assert_close(torch.cat([first, *rest], dim=1), full, atol=1e-5, rtol=1e-5)
    assert cache.length == 5


@pytest.mark.filterwarnings("ignore::torch.jit.TracerWarning")
def test_a_model_traced_with_torch_jit_follows_the_target_length():
    model = tiny_model()
    src = torch.randint(4, 30, (2, 7))
    traced = torch.jit.trace(model, (src, torch.randint(4, 30, (2, 5))), check_trace=False)
    shorter = torch.randint(4, 30, (2, 3))
    torch.testing.assert_close(traced(src, shorter), model(src, shorter))


@pytest.mark.parametrize("norm_first", [False, True])
def test_gradients_reach_every_parameter(norm_first):
    model = tiny_model(norm_first=norm_first, positional="learned").train()
    src, tgt = torch.randint(4, 30, (2, 6)), torch.randint(4, 30, (2, 5))
    model(src, tgt).logsumexp(-1).sum().backward()
    missing = [name for name, p in model.named_parameters() if p.grad is None or p.grad.abs().sum() == 0]
    assert missing == []


def test_config_round_trips_and_names_unknown_keys():
    config = tiny_config()
    assert TransformerConfig.from_dict(config.to_dict()) == config
    with pytest.raises(ConfigError, match="d_modle.*valid keys: vocab_size"):
        TransformerConfig.from_dict({"d_modle": 8})


def test_bad_head_count_is_a_config_error():
    with pytest.raises(ConfigError, match="not divisible"):
        tiny_config(n_heads=3)


@pytest.mark.parametrize("changes", [
    {}, dict(tie_embeddings=False), dict(tie_embeddings=False, src_vocab_size=20, tie_output=True),
    dict(tie_embeddings=False, output_bias=True), dict(positional="learned", norm_first=True),
    dict(positional="none", encoder_layers=3, decoder_layers=1),
])
def test_the_config_knows_the_models_size_before_it_is_built(changes):
    config = tiny_config(**changes)
    model = Transformer(config)
    assert config.parameter_count() == model.num_parameters() == sum(p.numel() for p in model.parameters())
    assert config.memory_bytes() == 4 * (model.num_parameters() + sum(b.numel() for b in model.buffers()))


@pytest.mark.parametrize("key, value", [("max_positions", 4_000_000), ("d_model", 1_000_000_000),
                                        ("vocab_size", 10**12), ("d_ff", -1), ("encoder_layers", 5000)])
def test_absurd_model_sizes_are_refused_by_the_config(key, value):
    with pytest.raises(ConfigError, match=f"model: {key}={value}: must be a whole number from"):
        TransformerConfig.from_dict({**tiny_config().to_dict(), key: value}, source="model")


def dropout_by_place(model: Transformer) -> dict[str, set[float]]:
    """The probability of every dropout, inside the feed-forward blocks and elsewhere."""
    from attnmt.dropout import Dropout

    places: dict[str, set[float]] = {"feed-forward": set(), "elsewhere": set()}
    for name, module in model.named_modules():
        if isinstance(module, Dropout):
            places["feed-forward" if name.endswith("feed_forward.dropout") else "elsewhere"].add(module.p)
    return places


@pytest.mark.parametrize(("activation_dropout", "inside"), [(None, 0.3), (0.0, 0.0), (0.05, 0.05)])
def test_activation_dropout_is_the_feed_forwards_own_and_unset_is_dropouts(activation_dropout, inside):
    """A Marian model (OPUS-MT: activation_dropout 0.0, dropout 0.1) was imported with dropout's 0.1 after
    the feed-forward's activation too; a model without the key keeps the one P_drop it always had."""
    model = Transformer(tiny_config(dropout=0.3, activation_dropout=activation_dropout))
    assert dropout_by_place(model) == {"feed-forward": {inside}, "elsewhere": {0.3}}


@pytest.mark.parametrize(("activation_dropout", "inside"), [(None, 0.2), (0.05, 0.05)])
def test_set_dropout_moves_the_feed_forwards_dropout_only_where_activation_dropout_is_unset(activation_dropout,
                                                                                          inside):
    model = Transformer(tiny_config(dropout=0.1, activation_dropout=activation_dropout))
    model.set_dropout(0.2, 0.0, activation_dropout)
    assert dropout_by_place(model) == {"feed-forward": {inside}, "elsewhere": {0.2}}


@pytest.mark.parametrize(("given", "name", "bad"), [((-0.5, 0.1), "dropout", -0.5),
                                                   ((0.1, 2.0), "attention_dropout", 2.0),
                                                   ((0.1, 0.1, -0.1), "activation_dropout", -0.1)])
def test_set_dropout_rejects_what_is_no_probability_and_changes_no_layer(given, name, bad):
    model = Transformer(tiny_config(dropout=0.1))
    with pytest.raises(ValueError, match=rf"^{name}: dropout probability must be between 0 and 1, got {bad}$"):
        model.set_dropout(*given)
    assert dropout_by_place(model) == {"feed-forward": {0.1}, "elsewhere": {0.1}}


def test_set_dropout_without_activation_dropout_moves_the_feed_forwards_with_dropout():
    model = Transformer(tiny_config(dropout=0.1))
    model.set_dropout(0.3, 0.0)
    assert dropout_by_place(model) == {"feed-forward": {0.3}, "elsewhere": {0.3}}


def test_a_config_json_without_activation_dropout_reads_as_unset():
    saved = {key: value for key, value in tiny_config(dropout=0.1).to_dict().items() if key != "activation_dropout"}
    assert TransformerConfig.from_saved(saved).activation_dropout is None


def test_a_dict_for_the_config_is_one_config_error_saying_how_to_build_one():
    """It was an AttributeError: 'dict' object has no attribute 'src_vocab_size'."""
    with pytest.raises(ConfigError, match=r"^Transformer: expected a TransformerConfig, got dict; build one with "
                                          r"TransformerConfig\(d_model=512, \.\.\.\) or TransformerConfig.from_dict"):
        Transformer({"d_model": 64})
