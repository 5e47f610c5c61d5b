"""The key/value cache interface (attnmt.decoding.cache.KVCache): both caches implement it, the
searches call nothing else of it, and either cache gives the same search."""

import inspect

import pytest
import torch
from support import EndingModel, ending_model

from attnmt.decoding import Decoding
from attnmt.decoding.cache import KVCache
from attnmt.decoding.search import beam_search, greedy_search
from attnmt.fast import prepare
from attnmt.fast.cache import GrowingCache
from attnmt.layers import LayerCache
from attnmt.model import DecoderCache

TERMS = [[[30, 31]], [[32]], [], [[33, 34, 35], [36]]]


def batch_of_sources() -> torch.Tensor:
    return torch.tensor([[9, 10, 11, 0, 0], [12, 13, 14, 15, 16], [17, 18, 0, 0, 0], [19, 20, 21, 22, 0]])


def test_the_readable_and_the_inference_copys_cache_are_kv_caches():
    model = ending_model()
    with torch.inference_mode():
        memory = model.encode(batch_of_sources())
        readable, growing = model.start_decoding(memory), prepare(model).start_decoding(memory)
    assert type(readable) is DecoderCache and isinstance(growing, GrowingCache)
    for cache in (readable, growing):
        assert isinstance(cache, KVCache)
        for name in ("reserve", "reorder", "materialise"):
            assert inspect.signature(getattr(cache, name)).parameters.keys() == \
                inspect.signature(getattr(KVCache, name)).parameters.keys() - {"self"}, name


class SpiedCache:
    """A KVCache around the readable one that records which of its methods are called, and fails on
    anything outside the interface."""

    def __init__(self, cache: DecoderCache, calls: list[str]) -> None:
        self._cache, self._calls = cache, calls

    @property
    def length(self) -> int:
        return self._cache.length

    @length.setter
    def length(self, value: int) -> None:
        self._cache.length = value

    @property
    def layers(self) -> list[LayerCache]:
        return self._cache.layers

    def reserve(self, positions: int) -> None:
        self._calls.append("reserve")
        self._cache.reserve(positions)

    def reorder(self, rows, groups=None) -> None:
        self._calls.append("reorder")
        self._cache.reorder(rows, groups)

    def materialise(self) -> None:
        self._calls.append("materialise")

    def __getattr__(self, name: str):
        raise AssertionError(f"the search reached past the KVCache interface: {name}")


class SpiedModel(EndingModel):
    calls: list[str]

    def start_decoding(self, memory):
        return SpiedCache(super().start_decoding(memory), self.calls)


def spied_model() -> SpiedModel:
    model = SpiedModel(ending_model().config)
    model.load_state_dict(ending_model().state_dict())
    model.calls = []
    return model.eval()


@pytest.mark.parametrize("terms", [None, TERMS])
def test_beam_search_holds_a_cache_only_through_the_interface(terms):
    model, decoding = spied_model(), Decoding(beam_size=3, n_best=2)
    found = beam_search(model, batch_of_sources(), decoding, terms=terms)
    assert found == beam_search(ending_model(), batch_of_sources(), decoding, terms=terms)
    assert set(model.calls) == {"reserve", "reorder"}


def test_greedy_search_holds_a_cache_only_through_the_interface():
    model = spied_model()
    found = greedy_search(model, batch_of_sources())
    assert found == greedy_search(ending_model(), batch_of_sources())
    assert set(model.calls) == {"reserve", "reorder"}


class GrowingEndingModel(EndingModel):
    """The readable model keeping its keys/values in the inference copy's cache: reorders wait in
    the cache until the Python step materialises them."""

    def start_decoding(self, memory):
        return GrowingCache(super().start_decoding(memory).layers)

    def decoder_stack(self, x, memory, src_mask, trace, cache):
        if cache is not None:
            cache.materialise()
        return super().decoder_stack(x, memory, src_mask, trace, cache)


@pytest.mark.parametrize("beam, terms", [(1, None), (4, None), (4, TERMS)])
def test_either_cache_gives_the_same_search(beam, terms):
    readable = ending_model()
    growing = GrowingEndingModel(readable.config)
    growing.load_state_dict(readable.state_dict())
    growing.eval()
    decoding = Decoding(beam_size=beam, n_best=beam)
    src = batch_of_sources()
    assert beam_search(growing, src, decoding, terms=terms) == beam_search(readable, src, decoding, terms=terms)
    assert greedy_search(growing, src) == greedy_search(readable, src)


def test_materialise_applies_the_pending_reorders_of_the_growing_cache():
    k = torch.arange(3.0).view(3, 1, 1, 1)
    layer = LayerCache(torch.zeros(3, 1, 1, 1), torch.zeros(3, 1, 1, 1), k.clone(), k.clone())
    cache = GrowingCache([layer], length=1)
    cache.reorder(torch.tensor([2, 2, 0]))
    cache.reorder(torch.tensor([1, 0, 2]))  # composed: old rows 2, 2, 0
    assert torch.equal(layer.self_k, k)  # nothing moved yet
    cache.materialise()
    assert layer.self_k.flatten().tolist() == [2.0, 2.0, 0.0] and cache.parents is None
