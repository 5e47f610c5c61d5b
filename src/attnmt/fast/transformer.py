"""The inference copy: the same Transformer, with faster layers and a faster step.

    fast = prepare(model)              # float32: packed linear layers
    fast = prepare(model, int8=True)   # int8 linear layers (attnmt's int8 panels where the extension builds)
    fast = prepare(model, bf16=True)   # bf16 linear layers (CPUs with AVX512-BF16 or AMX)
    translate(fast, tokenizer, sentences)

``FastTransformer`` is a Transformer subclass.  It fuses self-attention's three
projections, packs (or quantises) every linear layer, applies the feed-forward ReLU
inside its first layer, and overrides a few methods: a cached one-position decoding
step, from the newest tokens to their logits (or through the decoder stack alone),
runs as one C++ call (attnmt.fast.step), and the searches' next tokens come from
C++ (``next_tokens``: a top-k that never writes the [N, V] log-probabilities, and
greedy search's choice).  Everything else is the readable model's code.  The outputs agree with the
readable model's up to float rounding (tests/fast/).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

import torch
from torch import Tensor, nn

from attnmt.config_ranges import truth_value
from attnmt.decoding.next_tokens import READABLE, NextTokens
from attnmt.errors import ConfigError
from attnmt.fast import extension
from attnmt.fast.cache import Float16LayerCache, GrowingCache
from attnmt.fast.int8 import (
    DynamicInt8Linear,
    Int8PanelLinear,
    int8_panels_available,
    quantize_into_panels,
    quantize_linear_layers,
    use_int8_kernels,
)
from attnmt.fast.mapped_pages import MappedPages
from attnmt.fast.next_tokens import FusedNextTokens
from attnmt.fast.packed import PackedLinear, fuse_self_attention, pack_linear_layers, packing_available
from attnmt.fast.panels import PanelLinear, embeddings_from_panels, use_float_panels
from attnmt.fast.shortlist import Shortlist, ShortlistNextTokens, ShortlistOutput
from attnmt.fast.step import FusedDecoderStep
from attnmt.hardware import bf16_native
from attnmt.layers import ACTIVATIONS, FeedForward
from attnmt.model import AttentionTrace, DecoderCache, Transformer, check_model, compiled_from
from attnmt.uninitialised import uninitialised


class FastTransformer(Transformer):
    """An eval-mode copy of a trained Transformer for translating only (no gradients, no training).

    ``trained_parameters``: the trained model's parameter count (the copy's own layers hold
    theirs in other forms)."""

    trained_parameters: int
    next_tokens: NextTokens  # how the searches choose this copy's next tokens (attnmt.decoding.next_tokens)
    shortlist: Shortlist | None = None  # the output layer's vocabulary per batch (``use_shortlist``)
    kernel_choice = None  # the float32 step layers' kernels (attnmt.fast.kernels); None: the panels
    int8_choice = None  # the int8 step layers' kernels (attnmt.fast.kernels.measure_int8); None: the widest
    encoder_pages: MappedPages | None = None  # the encoder's mapped weights, given back after each encode

    def __init__(self, model: Transformer, int8: bool = False, fused_step: bool = True, bf16: bool = False) -> None:
        # The copy is made from the Transformer itself: a torch.compile wrapper's state_dict names its
        # weights "_orig_mod.…", which the copy's own layers do not.
        model = compiled_from(model)
        check_model(model)
        check_switches(int8=int8, fused_step=fused_step, bf16=bf16)
        if int8 and bf16:
            raise ConfigError("prepare options int8 and bf16: choose int8 or bf16 linear layers, not both")
        if isinstance(model, FastTransformer):  # its layers are packed: it has no float weights left to read
            raise ConfigError("this model is a prepared copy already (attnmt.fast.FastTransformer): translate with "
                              "it as it is, or prepare the Transformer it was made from (load_model_dir's)")
        # Building the copy leaves the caller's random stream alone, and its weights are the float32 the
        # step reads whatever the host's default dtype (a float64 default gave float64 norms it refused).
        # They are left as allocated (``uninitialised``): the model's own are loaded over every one of
        # them next, and drawing random numbers for them was most of preparing a large model's int8 copy.
        with torch.random.fork_rng(devices=[]), uninitialised():
            super().__init__(model.config)
        device = next(model.parameters()).device
        self.load_state_dict(model.state_dict())
        self.trained_parameters = model.num_parameters()
        self.longest_trained = model.longest_trained  # sentences are parted as for the model itself
        self.target_lang = model.target_lang  # its glossary terms are read in its language
        self.to(device).eval().requires_grad_(False)
        with torch.random.fork_rng(devices=[]), uninitialised():  # each fused layer is copied from the three
            fuse_self_attention(self)
        on_cpu = device.type == "cpu" and packing_available()
        if int8 and on_cpu and int8_panels_available():
            quantize_into_panels(self)
        elif int8:
            quantize_linear_layers(self)
        elif bf16:
            check_bf16(on_cpu)
            pack_linear_layers(self, bf16=True)
        elif on_cpu:
            pack_linear_layers(self)
        self.finish(fused_step, on_cpu)

    def finish(self, fused_step: bool, on_cpu: bool) -> None:
        """Once the linear layers are in their final form: ReLU fused into them, the C++ step built."""
        fuse_relu(self)
        use_int8_kernels(self, self.int8_choice)
        # Beside int8 layers the decoder's own keys/values are kept in float16 (Float16LayerCache).
        self.float16_cache = isinstance(self.output, (Int8PanelLinear, DynamicInt8Linear))
        self.step = None
        if fused_step and on_cpu and FusedDecoderStep.supports(self) and extension.available():
            use_float_panels(self, self.kernel_choice)
            embeddings_from_panels(self)
            self.step = FusedDecoderStep(self)
        # torch.ao's int8 output layer writes its logits and their int32 products afresh at each step.
        buffers = 2 if isinstance(self.output, DynamicInt8Linear) else 1
        key_value_bytes = 2 if self.float16_cache else 4
        self.next_tokens = FusedNextTokens(buffers, key_value_bytes) if self.step is not None else READABLE

    def __reduce__(self) -> NoReturn:
        """pickle, copy.deepcopy and torch.save refuse the copy in one clear TypeError: its layers hold
        their weights packed or quantised, with no float weights left to prepare again from, and the
        C++ objects inside (the step, int8 panels) have no state Python can write.  A spawned worker
        handed it failed with a RuntimeError naming attnmt.DecoderStep."""
        raise TypeError("a prepared model cannot be pickled: pass the model (or its folder) to the worker and "
                        "call prepare there")

    def use_shortlist(self, shortlist: Shortlist) -> None:
        """From now on each batch's output layer computes only the pieces ``shortlist`` keeps for its
        sources (attnmt.fast.shortlist), in the thread that encoded the batch (threads that share the
        copy each search their own batch's); a cached step's logits are then those columns only,
        which its next tokens map back to the vocabulary's ids."""
        c = self.config
        if (shortlist.source_size, shortlist.target_size) != (c.src_vocab_size or c.vocab_size, c.vocab_size):
            where = "" if shortlist.path is None else f"{shortlist.path}:1: "  # the header gives the sizes
            raise ConfigError(f"{where}the shortlist is for vocabularies of {shortlist.source_size} and "
                              f"{shortlist.target_size} pieces; this model has {c.src_vocab_size or c.vocab_size} "
                              f"and {c.vocab_size}: write one for it with 'attnmt shortlist'")
        self.output = ShortlistOutput(self.output, c.vocab_size)
        self.shortlist = shortlist
        if self.step is not None:
            self.next_tokens = ShortlistNextTokens(self.output, self.next_tokens.key_value_bytes)

    def shortlisted(self) -> bool:
        """attnmt.decoding.next_tokens.SearchesAShortlist: whether ``use_shortlist`` gave it one."""
        return self.shortlist is not None

    def allow(self, ids: Sequence[int]) -> None:
        """The batch this thread encoded last may also write ``ids`` (a prefix's, a glossary's
        pieces): they join its shortlist, where they are not on it already."""
        kept = [] if self.output.ids is None else self.output.ids.tolist()  # None: no batch, the whole layer
        if kept and not set(ids) <= set(kept):
            self.output.restrict(torch.tensor(sorted({*kept, *ids}), dtype=torch.long))

    def whole_vocabulary_logits(self, states: Tensor) -> Tensor:
        """states [..., d_model] -> logits [..., V] of the whole output layer, shortlist or not: what
        a teacher-forced pass that scores a translation reads (attnmt.decoding.quality)."""
        return self.output.full(states) if self.shortlist is not None else self.output(states)

    def start_decoding(self, memory: Tensor) -> GrowingCache:
        layers = super().start_decoding(memory).layers
        if self.float16_cache:  # the C++ step's cache beside int8 layers; the Python step's rounds alike
            layers = [Float16LayerCache(layer.cross_k, layer.cross_v) for layer in layers]
        return GrowingCache(layers)

    def encode(self, src: Tensor, trace: AttentionTrace | None = None) -> Tensor:
        if self.shortlist is not None:  # the batch's vocabulary, for this thread's steps that follow
            # Every id up to EOS stays, so that EOS's column in the shortlist's logits is EOS's id (the
            # search reads a forced EOS's logit by id), and the rest of the ids keep their order.
            c = self.config
            self.output.restrict(self.shortlist.ids_for(src, [*range(c.eos_id + 1), c.unk_id]))
        memory = super().encode(src, trace)
        if self.encoder_pages is not None:  # not resident beside the batch's keys and values (attnmt.fast.mapped_pages)
            self.encoder_pages.release()
        return memory

    def decode(
        self, tgt_in: Tensor, memory: Tensor, src_mask: Tensor, trace: AttentionTrace | None = None,
        cache: DecoderCache | None = None,
    ) -> Tensor:
        if self.step is None or cache is None or trace is not None or tgt_in.size(1) != 1:
            if cache is not None:  # the Python step reads the keys/values as they stand
                cache.materialise()
            return super().decode(tgt_in, memory, src_mask, trace, cache)
        if self.shortlist is not None:  # a search's step: logits of the shortlist's columns only, [N, 1, V']
            return self.output.columns_only(self.decoder_states(tgt_in, memory, src_mask, trace, cache))
        return self.step.decode(tgt_in, cache, src_mask)

    def decode_top(self, tgt_in: Tensor, memory: Tensor, src_mask: Tensor, cache: DecoderCache | None, k: int,
                   banned: Sequence[int], forced: Tensor | None = None,
                   outside: Sequence[int] = ()) -> tuple[Tensor, Tensor, Tensor, Tensor] | None:
        """A cached step's k most likely next tokens, as ``next_tokens.top_log_probs`` of ``decode``'s
        logits gives them, from the C++ step with its output layer and the choice in one pass
        (attnmt.decoding.next_tokens.ChoosesFromTheStep); None, with the cache untouched, where this copy
        decodes that step otherwise (no C++ step, a shortlist, several new positions)."""
        if (self.step is None or not isinstance(cache, GrowingCache) or tgt_in.size(1) != 1
                or self.shortlist is not None):
            return None
        return self.step.decode_top(tgt_in, cache, src_mask, k, banned, forced, outside)

    def decode_top_recording(self, tgt_in: Tensor, memory: Tensor, src_mask: Tensor, cache: DecoderCache | None,
                             layer: int, k: int, banned: Sequence[int], forced: Tensor | None = None,
                             outside: Sequence[int] = ()
                             ) -> tuple[tuple[Tensor, Tensor, Tensor, Tensor], Tensor] | None:
        """``decode_top`` with layer ``layer``'s cross-attention weights [N, H, S], which the C++ step writes as it
        attends (as ``decode_recording``'s); None, the cache untouched, where ``decode_top`` gives None."""
        if not isinstance(cache, GrowingCache):
            return None
        cache.record = layer
        try:
            chosen = self.decode_top(tgt_in, memory, src_mask, cache, k, banned, forced, outside)
        finally:
            cache.record = None
        return None if chosen is None else (chosen, cache.recorded_weights())

    def decode_recording(self, tgt_in: Tensor, memory: Tensor, src_mask: Tensor, cache: DecoderCache | None,
                         layer: int) -> tuple[Tensor, Tensor]:
        if self.step is None or not isinstance(cache, GrowingCache) or tgt_in.size(1) != 1:
            return super().decode_recording(tgt_in, memory, src_mask, cache, layer)
        cache.record = layer  # the C++ step writes the weights as it attends (GrowingCache.step_arguments)
        try:
            logits = self.decode(tgt_in, memory, src_mask, cache=cache)
        finally:
            cache.record = None
        return logits, cache.recorded_weights()

    def decoder_stack(
        self, x: Tensor, memory: Tensor, src_mask: Tensor, trace: AttentionTrace | None, cache: DecoderCache | None
    ) -> Tensor:
        if self.step is None or cache is None or trace is not None or x.size(1) != 1:
            if cache is not None:
                cache.materialise()
            return super().decoder_stack(x, memory, src_mask, trace, cache)
        return self.step(x, cache, src_mask)


def fuse_relu(model: Transformer) -> None:
    """In place: each feed-forward block with ReLU whose first layer can apply it as it writes its
    output (PackedLinear, Int8PanelLinear) does so, and the block skips its own ReLU: one pass over
    the [tokens, d_ff] activations fewer, the largest tensor the encoder writes."""
    for module in model.modules():
        if (isinstance(module, FeedForward) and module.activation is ACTIVATIONS["relu"]
                and isinstance(module.linear1, (PackedLinear, Int8PanelLinear, PanelLinear))):
            module.linear1.relu = True
            module.activation = nn.Identity()


def check_switches(**switches: object) -> None:
    """A ConfigError naming the first of ``switches`` that is no bool: ``prepare(model, int8="no")``
    built int8 layers, "no" being true to ``if``."""
    for name, value in switches.items():
        if truth_value(value) is None:
            raise ConfigError(f"prepare option {name}: expected true or false, got {value!r}")


def check_bf16(on_cpu: bool) -> None:
    """bf16 layers need oneDNN's bf16 matmul, which it runs only where the CPU multiplies bf16."""
    native, why = bf16_native()
    if not on_cpu or not native:
        raise ConfigError(f"bf16 linear layers need a CPU with AVX512-BF16 or AMX, and oneDNN allowed to use it "
                          f"({why if on_cpu else 'not on the CPU'}); use float32 or int8 linear layers instead")


def prepare(model: Transformer, int8: bool = False, fused_step: bool = True, bf16: bool = False) -> FastTransformer:
    """The copy of ``model`` that ``attnmt translate``, ``evaluate`` and ``serve`` translate with:
    float32 linear layers packed for the CPU, or ``int8`` or ``bf16`` ones (bf16: the weights, the
    layers' inputs and products rounded to bf16; only where the CPU multiplies bf16 natively,
    attnmt.hardware.bf16_native, else ConfigError); ``fused_step=False`` keeps the Python step (the
    reference the C++ step is tested against).  ``model`` is left as it was; for a torch.compile
    wrapper, the copy is the Transformer's it wraps.  ConfigError for one that is no Transformer, or a
    prepared copy already (load_int8's, load_packed's, prepare's own).
    The copy cannot be pickled (``FastTransformer.__reduce__``): a worker process prepares its own."""
    return FastTransformer(model, int8, fused_step, bf16)
