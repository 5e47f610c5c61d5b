"""One model translated with on several threads at once: every translation runs in eval mode, and the
model is left in the mode it was in before the first one came (``attnmt.decoding.evaluating.evaluating``)."""

import threading
from functools import partial

from support import EndingModel, held_on_a_thread, search_config

from attnmt.decoding.evaluating import evaluating


def training_model() -> EndingModel:
    """A model in training mode, as a training loop that translates a validation sample holds it."""
    return EndingModel(search_config(dropout=0.5)).train()


def test_a_model_stays_in_eval_mode_until_the_last_thread_translating_with_it_leaves():
    model = training_model()
    entered, leave = threading.Event(), threading.Event()
    first = held_on_a_thread(partial(evaluating, model), entered, leave)
    with evaluating(model):  # came in after the first had switched the model to eval
        leave.set(), first.join()
        assert not model.training  # the first left, but this one is still translating: no dropout
    assert model.training


def test_translating_within_a_translation_on_one_thread_restores_the_mode_once():
    model = training_model()
    with evaluating(model):
        with evaluating(model):
            assert not model.training
        assert not model.training
    assert model.training


def test_a_model_that_was_in_eval_mode_stays_in_it():
    model = training_model().eval()
    entered, leave = threading.Event(), threading.Event()
    first = held_on_a_thread(partial(evaluating, model), entered, leave)
    with evaluating(model):
        leave.set(), first.join()
    assert not model.training
