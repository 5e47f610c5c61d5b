"""Pages given back while the decoder runs: the encoder's mapped weights after each encode
(attnmt.fast.mapped_pages), a finished batch's keys and values as the C++ step keeps their buffers."""

import sys

import pytest
import torch
from safetensors import safe_open
from safetensors.torch import save_file
from support import NEEDS_EXTENSION_BUILD, PAIRS

from attnmt.attention import padding_mask
from attnmt.decoding.translate import translate
from attnmt.fast import extension, prepare, prepared
from attnmt.fast.mapped_pages import PAGE, MappedPages, file_mappings
from attnmt.fast.panels import PanelLinear

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's maps and madvise")
SOURCES = [source for source, _ in PAIRS[:6]]


def resident_pages(start: int, length: int) -> int:
    """How many of the pages [start, start + length) this process has resident (Linux's pagemap: bit 63)."""
    with open("/proc/self/pagemap", "rb") as pagemap:
        pagemap.seek(start // PAGE * 8)
        entries = pagemap.read(length // PAGE * 8)
    return sum(entries[i + 7] >> 7 for i in range(0, len(entries), 8))


def encoder_panels(copy) -> list[torch.Tensor]:
    return [m.panels for m in copy.encoder_layers.modules() if isinstance(m, PanelLinear)]


def needs_the_step(test):
    """The marks of the tests that load a prepared copy: the extension built."""
    for mark in (*NEEDS_EXTENSION_BUILD, pytest.mark.skipif(not extension.available(), reason="no extension here")):
        test = mark(test)
    return test


@needs_the_step
def test_the_mapped_float32_copy_gives_its_encoders_pages_back_after_each_encode(trained_model, cache):
    prepared.load_packed(trained_model)  # writes the copy, then maps it
    copy, tokenizer = prepared.load_packed(trained_model)
    (path,) = cache.glob("fp32-*.safetensors")
    panels = encoder_panels(copy)
    assert copy.encoder_pages is not None and len(copy.encoder_pages.spans) == len(panels)
    assert all(any(low <= start and start + length <= high for low, high in file_mappings(path))
               for start, length in copy.encoder_pages.spans)
    translations = translate(copy, tokenizer, SOURCES)
    assert all(resident_pages(start, length) == 0 for start, length in copy.encoder_pages.spans)
    kept = torch.cat([p.reshape(-1) for p in panels])  # read back from the page cache: the same numbers
    assert all(resident_pages(start, length) > 0 for start, length in copy.encoder_pages.spans)
    copy.encoder_pages = None
    assert translate(copy, tokenizer, SOURCES) == translations
    assert torch.equal(torch.cat([p.reshape(-1) for p in encoder_panels(copy)]), kept)


@needs_the_step
def test_a_copy_served_from_memory_gives_no_page_back(trained_model, tmp_path, monkeypatch):
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache folder would be")
    monkeypatch.setenv("ATTNMT_CACHE", str(blocked))
    with pytest.warns(Warning, match="could not cache"):
        copy, _ = prepared.load_packed(trained_model)
    assert copy.encoder_pages is None  # its panels are the process's own memory: the advice would zero them


def test_tensors_outside_the_files_mapping_are_left_alone(tmp_path):
    path = tmp_path / "weights.safetensors"
    save_file({"w": torch.arange(4 * PAGE, dtype=torch.float32)}, str(path))
    own = torch.arange(4 * PAGE, dtype=torch.float32)
    with safe_open(str(path), framework="pt") as file:
        mapped = file.get_tensor("w")
    assert MappedPages.of([own], path) is None
    assert MappedPages([own, mapped.clone()], file_mappings(path)).spans == []
    pages = MappedPages.of([own, mapped], path)
    assert pages is not None and len(pages.spans) == 1 and pages.bytes() >= 2 * PAGE
    pages.release()
    assert resident_pages(*pages.spans[0]) == 0
    assert torch.equal(own, mapped) and torch.equal(mapped, torch.arange(4 * PAGE, dtype=torch.float32))


def whole_pages(start: int, length: int) -> tuple[int, int]:
    first, last = -(-start // PAGE) * PAGE, (start + length) // PAGE * PAGE
    return first, max(0, last - first)


@needs_the_step
def test_a_batchs_kept_keys_and_values_hold_no_resident_page_until_the_next_batch_writes_them(model_and_tokenizer):
    """The C++ step's BufferPool keeps a finished batch's key/value buffers for the next batch, which
    encodes first: their pages go back to the system as they are kept, so that they do not stand beside
    the encoder's (the float32 job's peak), and the buffers themselves stay for the next batch."""
    fast = prepare(model_and_tokenizer[0])
    src = torch.randint(4, fast.config.vocab_size, (8, 6), generator=torch.Generator().manual_seed(0))
    with torch.inference_mode():
        memory = fast.encode(src)
        cache = fast.start_decoding(memory)
        cache.reserve(40)
        for token in (5, 9):  # the second step copies each layer into a buffer with the room reserved
            fast.decode(torch.full((8, 1), token), memory, padding_mask(src, fast.config.pad_id), cache=cache)
    buffers = [whole_pages(kv.data_ptr(), kv.untyped_storage().nbytes())
               for layer in cache.layers for kv in (layer.self_k, layer.self_v)]
    assert all(length > 0 and resident_pages(start, length) > 0 for start, length in buffers)
    kept = len(torch.ops.attnmt.kept_key_value_bytes())
    del cache
    assert len(torch.ops.attnmt.kept_key_value_bytes()) == kept + len(buffers)
    assert all(resident_pages(start, length) == 0 for start, length in buffers)
