"""Naming served models: --model's pairs (their languages otherwise: test_model_languages); a request's
caps; a seeded request's sample, whatever it is batched with."""

import re
from types import SimpleNamespace

import pytest
from support import CharTokenizer, ending_model

from attnmt.config import SIZE_LIMITS
from attnmt.decoding import MAX_BEAM, Decoding
from attnmt.errors import ConfigError
from attnmt.server.models import (
    MOST_BEAM,
    MOST_N_BEST,
    MOST_OUTPUT_TOKENS,
    Models,
    Options,
    ServedModel,
    ServeSettings,
    split_model_argument,
)
from attnmt.server.v1_api import TranslateRequest


@pytest.mark.parametrize("argument, expected", [
    ("en-de=runs/en_de", ("en-de", "runs/en_de")),
    ("runs/en_de", (None, "runs/en_de")),
    ("runs/a=b", (None, "runs/a=b")),  # a folder whose name has "=" in it
    ("EN-De=runs/en_de", ("en-de", "runs/en_de")),  # LibreTranslate's codes are lower case; it was listed as "EN"
])
def test_a_model_argument_is_a_pair_and_a_folder_or_a_folder(argument, expected):
    assert split_model_argument(argument) == expected


def test_a_pair_that_is_not_two_codes_is_refused_in_one_line():
    with pytest.raises(ConfigError, match="'english' is not a language pair; write it as SOURCE-TARGET=DIR"):
        split_model_argument("english=runs/en_de")


def test_a_requests_caps_are_within_the_librarys():
    """The server may be stricter than attnmt.decoding and the model config (its CPU is shared), never looser."""
    assert 1 <= MOST_BEAM <= MAX_BEAM
    assert MOST_N_BEST <= MOST_BEAM  # Decoding takes at most the beam's hypotheses
    assert MOST_OUTPUT_TOKENS <= SIZE_LIMITS["max_positions"]
    assert ServeSettings().max_alternatives < MOST_N_BEST


def test_the_native_apis_caps_are_the_servers():
    fields = TranslateRequest.model_fields
    caps = {name: next(rule.le for rule in fields[name].metadata if hasattr(rule, "le"))
            for name in ("beam", "n_best", "max_length", "min_len")}
    assert caps == {"beam": MOST_BEAM, "n_best": MOST_N_BEST, "max_length": MOST_OUTPUT_TOKENS,
                    "min_len": MOST_OUTPUT_TOKENS}


def test_more_alternatives_than_a_request_may_have_hypotheses_are_refused_in_one_line():
    with pytest.raises(ConfigError, match=f"max_alternatives must be <= {MOST_N_BEST - 1}"):
        ServeSettings(max_alternatives=MOST_N_BEST)


@pytest.mark.parametrize("names, message", [
    ([("en-de", "en", "de"), ("en-de", "en", "de")], "two models translate en-de: serve one model per language pair"),
    ([("runs", None, None), ("runs", None, None)], "two models are named 'runs': name them by pair, --model en-de=DIR"),
    ([("a", "en", "de"), ("b", "en", "de")], "two models translate en-de: serve one model per language pair"),
])
def test_two_models_of_one_name_or_pair_are_refused_saying_which(names, message):
    served = [SimpleNamespace(name=name, source=source, target=target, pair=source and f"{source}-{target}")
              for name, source, target in names]
    with pytest.raises(ConfigError, match=f"^{re.escape(message)}$"):
        Models(served)


@pytest.mark.parametrize("hypotheses", [False, True], ids=["translations", "n-best"])
def test_a_seeded_request_gets_the_same_sample_alone_and_batched_with_others(hypotheses):
    """The batcher joins the texts of the requests it batches into one ``run_batch``: a seeded
    request's sample depended on theirs."""
    served = ServedModel(ending_model(), CharTokenizer())
    options = Options(Decoding(beam_size=1, sampling_topk=0, seed=7), hypotheses=hypotheses)

    def texts(found: list) -> list[str]:
        return [paragraph.hypotheses[0].text for paragraph in found] if hypotheses else found

    alone = texts(served.run_batch(["a dog runs", "the man sits"], options))
    batched = texts(served.run_batch(["two cats sleep", "a dog runs", "the man sits", "a boy. he jumps"], options))
    assert batched[1:3] == alone
