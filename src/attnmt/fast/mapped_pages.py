"""The encoder's weights given back to the page cache while the decoder runs.

A prepared copy's weights are mapped from its file (attnmt.fast.prepared_file), so every page the
process has read stays in its resident memory.  The encoder's are read once per batch, and the
batch's largest memory, its keys and values, grows after that, while only the decoder's weights are
read: at OPUS-MT's size the encoder's 72 MiB of float32 panels sat beside the keys and values at the
float32 job's peak.  ``madvise(MADV_DONTNEED)`` takes a file-backed page out of the process and leaves
it in the page cache, so the next batch's encoder reads it back without reading the disk (a minor
fault per 16 pages: about 1,100 faults and 8 ms of CPU a batch at OPUS-MT's size, on a Zen 3 EPYC).
The C++ step's BufferPool gives back the pages of the key/value buffers it keeps between batches
(``csrc/decoder_step.cpp``) for the same reason: the next batch's encoder runs while it keeps them.

Only pages inside a mapping of the prepared file are given back: in the process's own memory
(a tensor copied for alignment, a copy built where the cache could not be written) the same advice
would zero the weights.
"""

from __future__ import annotations

import ctypes
import mmap
import os
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

from torch import Tensor

from attnmt.hardware import glibc

MADV_DONTNEED = 4  # Linux's value, as glibc's madvise takes it
PAGE = mmap.PAGESIZE


def file_mappings(path: Path, maps: str = "/proc/self/maps") -> list[tuple[int, int]]:
    """The address ranges [start, end) at which this process maps ``path`` (Linux's ``maps``; none
    where it has no such file)."""
    wanted = os.path.realpath(path)
    ranges = []
    try:
        with open(maps, encoding="utf-8", errors="replace") as lines:
            for line in lines:
                fields = line.split(maxsplit=5)
                if len(fields) == 6 and fields[5].rstrip("\n") == wanted:
                    start, end = fields[0].split("-")
                    ranges.append((int(start, 16), int(end, 16)))
    except OSError:
        return []
    return ranges


class MappedPages:
    """The whole pages that ``tensors`` hold inside ``ranges`` (a file's mappings), to be given back
    to the page cache by ``release``; a tensor outside them is left alone."""

    def __init__(self, tensors: Sequence[Tensor], ranges: Sequence[tuple[int, int]]) -> None:
        self.spans = [span for tensor in tensors if (span := page_span(tensor, ranges)) is not None]

    @classmethod
    def of(cls, tensors: Sequence[Tensor], path: Path) -> MappedPages | None:
        """The pages of ``tensors`` mapped from the file ``path``; None where none are, or where the
        advice cannot be given (no glibc)."""
        pages = cls(tensors, file_mappings(path))
        return pages if pages.spans and madvise() is not None else None

    def release(self) -> None:
        """Takes the pages out of this process's resident memory; they are read back from the page
        cache when next used."""
        advise = madvise()
        if advise is None:  # no glibc: nothing is given back
            return
        for start, length in self.spans:
            advise(start, length, MADV_DONTNEED)

    def bytes(self) -> int:
        return sum(length for _, length in self.spans)


@cache
def madvise() -> Callable[[int, int, int], int] | None:
    """glibc's madvise(addr, length, advice), its arguments typed (an address past 2³¹ is no C int)."""
    libc = glibc()
    if libc is None:
        return None
    function = libc.madvise
    function.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    return function


def page_span(tensor: Tensor, ranges: Sequence[tuple[int, int]]) -> tuple[int, int] | None:
    """(start, length) of the whole pages inside ``tensor``'s bytes, where they lie in one of
    ``ranges``; None where they do not, or hold no whole page."""
    begin = tensor.data_ptr()
    end = begin + tensor.numel() * tensor.element_size()
    if not tensor.is_contiguous() or not any(low <= begin and end <= high for low, high in ranges):
        return None
    first, last = -(-begin // PAGE) * PAGE, end // PAGE * PAGE
    return (first, last - first) if last > first else None
