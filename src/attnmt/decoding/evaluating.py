"""The model in eval mode while any thread translates with it, and back in the mode it came in once the last leaves
(``evaluating``): a model that is training (attnmt.training's validation translates with it) or served to several
threads at once."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from attnmt.model import Transformer

# id(model) -> (threads inside ``evaluating`` with it, the mode to restore when the last leaves)
EVALUATING: dict[int, tuple[int, bool]] = {}
EVALUATING_LOCK = threading.Lock()


@contextmanager
def evaluating(model: Transformer) -> Iterator[None]:
    """The model in eval mode, then back in the mode it came in once the last thread translating
    with it leaves.  Counted per model: a thread that came in after another had switched a training
    model to eval would otherwise take eval for the mode to restore, and leave the model in it, or
    switch it back to training under a thread still translating."""
    with EVALUATING_LOCK:
        inside, was_training = EVALUATING.get(id(model), (0, model.training))
        EVALUATING[id(model)] = (inside + 1, was_training)
        model.eval()
    try:
        yield
    finally:
        with EVALUATING_LOCK:
            inside, was_training = EVALUATING.pop(id(model))
            if inside > 1:
                EVALUATING[id(model)] = (inside - 1, was_training)
            else:
                model.train(was_training)
