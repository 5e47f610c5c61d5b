"""What a quality calibration file (quality.json) may hold: a file fitted on other weights, damaged
or hand-edited is refused in one line naming the key or what is wrong with it, and one an older
attnmt wrote still loads (attnmt.decoding.calibration_file, load_calibration)."""

import json
import math
import re
from dataclasses import asdict

import pytest
from support import some_features

from attnmt.decoding.calibration import (
    CALIBRATION,
    fingerprint,
    fit_calibration,
    load_calibration,
    save_calibration,
)
from attnmt.decoding.elsewhere import ENVELOPE_SIGNALS
from attnmt.decoding.elsewhere import INPUT_NAMES as ELSEWHERE_INPUTS
from attnmt.decoding.quality_features import INPUT_NAMES
from attnmt.errors import ModelDirError


def older_calibration(model_dir) -> dict:
    """The values of an older quality.json for ``model_dir``'s weights: no knots, the ten inputs
    with the mean log-prob as one."""
    return {"model_sha256": fingerprint(model_dir), "weights": [1.0] + [0.0] * 9, "bias": 0.0,
            "means": [-0.5] + [0.0] * 9, "scales": [0.25] + [1.0] * 9, "length_center": 0.0,
            "length_range": [0.4, 2.5], "chrf_threshold": 50.0, "threshold": 0.5, "sentences": 200,
            "inputs": list(INPUT_NAMES), "elsewhere": None}


def test_a_calibration_written_before_the_mean_log_prob_was_cut_still_loads(trained_copy):
    values = older_calibration(trained_copy)
    (trained_copy / CALIBRATION).write_text(json.dumps(values))
    loaded = load_calibration(trained_copy)
    assert loaded.knots == () and loaded.quality(some_features(0)) == pytest.approx(1 / (1 + math.exp(-2.0)))
    values["inputs"][3] = "sentiment"  # an input this attnmt does not compute: refused, named
    (trained_copy / CALIBRATION).write_text(json.dumps(values))
    with pytest.raises(ModelDirError, match="quality.json: fitted on inputs this attnmt does not compute: "
                                            "sentiment; run attnmt calibrate"):
        load_calibration(trained_copy)


def test_a_calibration_of_other_weights_is_refused(trained_copy):
    features = [some_features(k) for k in range(200)]
    save_calibration(fit_calibration(features, [100.0 * (k % 2) for k in range(200)], [1.0] * 200, "0" * 64),
                     trained_copy)
    with pytest.raises(ModelDirError, match=r"fitted for other weights \(sha256 000000000000…"):
        load_calibration(trained_copy)


def test_a_broken_calibration_file_is_named(trained_copy):
    (trained_copy / CALIBRATION).write_text(json.dumps({"weights": []}))
    with pytest.raises(ModelDirError, match="quality.json: not a quality calibration"):
        load_calibration(trained_copy)


def saved_and_damaged(model_dir, damage) -> None:
    """A calibration fitted on ``model_dir``'s weights, its JSON values changed by ``damage`` before saving."""
    features = [some_features(k) for k in range(200)]
    values = asdict(fit_calibration(features, [100.0 * (k % 2) for k in range(200)], [1.0] * 200,
                                    fingerprint(model_dir)))
    damage(values)
    (model_dir / CALIBRATION).write_text(json.dumps(values))


def test_a_calibration_file_that_is_not_utf8_is_named(trained_copy):
    (trained_copy / CALIBRATION).write_bytes(b"\xff{}")
    with pytest.raises(ModelDirError, match=r"quality.json: not a quality calibration \(not UTF-8: byte 0xff at "
                                            r"offset 0\); run attnmt calibrate --model .* again"):
        load_calibration(trained_copy)


@pytest.mark.parametrize(("damage", "named"), [
    (lambda v: v.update(weights=[str(w) for w in v["weights"]]), '"weights" is not a list of numbers'),
    (lambda v: v.update(bias=True), '"bias" is not a number'),
    (lambda v: v.update(length_range=[0.5]), '"length_range" is not two numbers, the first above 0 and below the '
                                             'second'),
    (lambda v: v.update(length_range=[2.0, 0.5]), '"length_range" is not two numbers, the first above 0 and below '
                                                  'the second'),  # reversed: every translation flagged length
    (lambda v: v.update(length_range=[0.0, 2.0]), '"length_range" is not two numbers, the first above 0 and below '
                                                  'the second'),
    (lambda v: v["scales"].__setitem__(0, 0.0), '"scales" is not a list of numbers above 0'),
    (lambda v: v.update(inputs="mean_log_prob"), '"inputs" is not a list of input names'),
    (lambda v: v.update(elsewhere=[]), '"elsewhere" is not an object or null'),
    (lambda v: v.update(elsewhere={"weights": [1.0]}), 'no "elsewhere.bias"'),
    (lambda v: v.pop("means"), 'no "means"'),
    (lambda v: v.update(colour="blue"), '"colour" is no key of a calibration'),
    (lambda v: v.update(threshold=1.5), '"threshold" is not a number from 0 to 1'),  # a hand edit: every line low
    (lambda v: v.update(chrf_threshold=-3), '"chrf_threshold" is not a number above 0 and at most 100'),
    # --chrf-threshold 0 is refused: every translation acceptable, nothing for the fit to tell apart
    (lambda v: v.update(chrf_threshold=0), '"chrf_threshold" is not a number above 0 and at most 100'),
    # Knots out of order cut the mean log-prob into overlapping stretches; equal ones, stretches of no length.
    (lambda v: v.update(knots=v["knots"][::-1]), '"knots" is not a list of numbers, each above the one before'),
    (lambda v: v.update(knots=[v["knots"][0]] * 5), '"knots" is not a list of numbers, each above the one before'),
    (lambda v: v.update(sentences=-5), '"sentences" is not a whole number above 0'),
    (lambda v: v.update(sentences=0), '"sentences" is not a whole number above 0'),
])
def test_a_calibration_value_of_another_kind_is_named_by_its_key(trained_copy, damage, named):
    saved_and_damaged(trained_copy, damage)
    with pytest.raises(ModelDirError, match=f"quality.json: not a quality calibration \\({named}\\)"):
        load_calibration(trained_copy)


@pytest.mark.parametrize("digits", [400, 5000])  # too large for a float; more digits than Python's int() reads
def test_a_hand_edited_whole_number_too_large_for_a_float_is_named_by_its_key(trained_copy, digits):
    """``"bias": 1`` and 400 zeros gave a traceback, OverflowError: int too large to convert to
    float; 5000 zeros, ValueError: Exceeds the limit (4300 digits) for integer string conversion."""
    text = json.dumps(older_calibration(trained_copy)).replace('"bias": 0.0', '"bias": 1' + "0" * digits)
    (trained_copy / CALIBRATION).write_text(text)
    with pytest.raises(ModelDirError, match=r'quality.json: not a quality calibration \("bias" is not a number\)'):
        load_calibration(trained_copy)


def test_a_calibration_missing_a_weight_says_how_many_of_each_it_holds(trained_copy):
    saved_and_damaged(trained_copy, lambda v: v["weights"].pop())
    with pytest.raises(ModelDirError, match="quality.json: holds 17 weights, 18 means and 18 scales for its 18 "
                                            "inputs; run attnmt calibrate"):
        load_calibration(trained_copy)


@pytest.mark.parametrize(("damage", "named"), [
    (lambda v: v.pop("knots"), 'holds no "knots" for its 6 stretches of the mean log-prob (mean_log_prob_1 .. '
                               'mean_log_prob_6), which take 5'),  # was "does not compute: mean_log_prob_2, …"
    (lambda v: v.update(knots=v["knots"][:3]), 'holds 3 "knots" for its 6 stretches of the mean log-prob '
                                               '(mean_log_prob_1 .. mean_log_prob_6), which take 5'),
    (lambda v: v.update(inputs=[v["inputs"][0], *v["inputs"][:-1]]), '"inputs" names mean_log_prob_1 twice'),
    (lambda v: v.update(inputs=[*v["inputs"][:7], "loop", *v["inputs"][8:]]), '"inputs" names loop twice'),
])
def test_knots_and_inputs_that_do_not_fit_together_are_named(trained_copy, damage, named):
    saved_and_damaged(trained_copy, damage)
    with pytest.raises(ModelDirError, match=f"quality.json: {re.escape(named)}; run attnmt calibrate"):
        load_calibration(trained_copy)


def test_knots_where_the_inputs_read_the_mean_log_prob_whole_are_named(trained_copy):
    values = older_calibration(trained_copy)
    values["knots"] = [-0.5]
    (trained_copy / CALIBRATION).write_text(json.dumps(values))
    with pytest.raises(ModelDirError, match='quality.json: holds 1 "knots" but no input reads the mean log-prob cut '
                                            r"at them \(mean_log_prob_1 \.\.\); run attnmt calibrate"):
        load_calibration(trained_copy)


def test_a_fit_for_texts_written_elsewhere_naming_an_input_twice_is_named(trained_copy):
    names = [*ELSEWHERE_INPUTS[:-1], ELSEWHERE_INPUTS[0]]
    saved_and_damaged(trained_copy, lambda v: v.update(elsewhere={
        "weights": [0.0] * len(names), "bias": 0.0, "means": [0.0] * len(names), "scales": [1.0] * len(names),
        "envelope": [0.0] * len(ENVELOPE_SIGNALS), "inputs": names}))
    with pytest.raises(ModelDirError, match=f'quality.json: "elsewhere.inputs" names {ELSEWHERE_INPUTS[0]} twice; '):
        load_calibration(trained_copy)
