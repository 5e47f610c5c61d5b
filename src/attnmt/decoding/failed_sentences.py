"""A sentence that breaks a search breaks only itself: a batch the model fails on is searched again a
sentence at a time (``each_alone``), and SentencesFailed names the sentences that failed
alone and holds the others' outputs (``keeping``).  attnmt.decoding.translate's searched_batches
does so."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from torch import Tensor

from attnmt.decoding.inputs import T
from attnmt.errors import UserError


class SentencesFailed(RuntimeError):
    """The model failed on some sentences, each searched alone; every other sentence was translated.

    failures: {input index: what the search raised}; outputs: what the call would have returned,
    the failed sentences' outputs empty ("" or []), as blank inputs' are."""

    def __init__(self, failures: dict[int, Exception]) -> None:
        self.failures = failures
        self.outputs: Any = None
        first, error = next(iter(failures.items()))
        super().__init__(f"the model failed on {len(failures)} sentence(s), the first on sentence {first + 1}: "
                         f"{type(error).__name__}: {error}")


@contextmanager
def keeping(outputs: T) -> Iterator[T]:
    """Where sentences fail (SentencesFailed), the others' ``outputs`` go with the error."""
    try:
        yield outputs
    except SentencesFailed as failed:
        failed.outputs = outputs
        raise


@contextmanager
def failing_alone(i: int, failures: dict[int, Exception]) -> Iterator[None]:
    """Puts what sentence i's search alone raises in ``failures``; a UserError goes on."""
    try:
        yield
    except UserError:
        raise
    except Exception as error:  # noqa: BLE001 - as translate.searched_batches says
        failures[i] = error


def alone(row: Tensor, pad_id: int) -> Tensor:
    """One sentence of a padded batch [S] as a batch of its own, [1, its length]."""
    return row[: int((row != pad_id).sum())].unsqueeze(0)


def each_alone(search: Callable[[list[int], Tensor], T], failures: dict[int, Exception], pad_id: int,
               indices: list[int], src: Tensor, error: Exception) -> Iterator[T]:
    """What ``search(indices, src)`` gives each sentence of a batch [B, S] the model failed on (``error``) searched
    alone; what one raises alone goes in ``failures`` (``failing_alone``), as ``error`` does for a batch of one."""
    if len(indices) == 1:
        failures[indices[0]] = error
        return
    for k, i in enumerate(indices):
        with failing_alone(i, failures):
            yield search([i], alone(src[k], pad_id))
