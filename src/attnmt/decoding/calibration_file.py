"""What a quality calibration file (quality.json) may hold, and why one cannot be read.

Apart from attnmt.decoding.calibration, which fits calibrations and reads them: these are the checks
``load_calibration`` runs on a file before it builds a Calibration from it, so that a file that is
damaged, hand-edited or written by another attnmt is refused with one line naming the key (a
missing one, an unknown one, a value of the wrong kind) or the inputs it cannot compute, rather
than failing later, mid-translation, with a stack trace.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import MISSING, fields

# elsewhere's names are read when called (elsewhere.ENVELOPE_SIGNALS), not taken here: elsewhere imports
# quality, which imports calibration and so this module last, so a program that imports elsewhere first
# has it part-way through its imports while this module runs, its names not defined yet.
from attnmt.decoding import elsewhere
from attnmt.decoding.quality_features import known_inputs


def finite(value: object) -> bool:
    """A JSON number (not true or false) that is neither infinite nor NaN."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def whole_number(text: str) -> int | float:
    """A JSON whole number as json.loads's ``parse_int`` reads it: an int, or inf where it is too
    large for a float, so that ``finite`` refuses it by its key.  A hand-edited ``"bias": 1`` and
    400 zeros raised OverflowError in math.isfinite, and one of more than 4300 digits a ValueError
    in int(), each a traceback."""
    return int(text) if math.isfinite(float(text)) else math.inf


def list_of(check: Callable[[object], bool]) -> Callable[[object], bool]:
    return lambda value: isinstance(value, list) and all(check(v) for v in value)


def ratio_range(value: object) -> bool:
    """Two length ratios, low and high, 0 < low < high: reversed ([2.0, 0.5]), no ratio is inside,
    and every translation would get the ``length`` flag."""
    return isinstance(value, list) and len(value) == 2 and list_of(finite)(value) and 0 < value[0] < value[1]


def increasing(value: object) -> bool:
    """Numbers, each above the one before: knots out of order cut the mean log-prob into stretches
    that overlap (quality_features.segments), and equal ones into stretches of no length."""
    return list_of(finite)(value) and all(a < b for a, b in zip(value, value[1:], strict=False))


NUMBER = ("a number", finite)
NUMBERS = ("a list of numbers", list_of(finite))
NAMES = ("a list of input names", list_of(lambda v: isinstance(v, str)))
SCALES = ("a list of numbers above 0", list_of(lambda v: finite(v) and v > 0))  # inputs are divided by them
# What each key of quality.json holds (Calibration's fields), and of its "elsewhere" (ElsewhereFit's).
KEYS = {"model_sha256": ("a string", lambda v: isinstance(v, str)), "weights": NUMBERS, "bias": NUMBER,
        "means": NUMBERS, "scales": SCALES, "length_center": NUMBER,
        "length_range": ("two numbers, the first above 0 and below the second", ratio_range),
        # calibrate's --chrf-threshold (attnmt.cli.commands.quality): at 0 every translation is acceptable
        "chrf_threshold": ("a number above 0 and at most 100", lambda v: finite(v) and 0 < v <= 100),
        "threshold": ("a number from 0 to 1", lambda v: finite(v) and 0 <= v <= 1),
        "sentences": ("a whole number above 0", lambda v: isinstance(v, int) and not isinstance(v, bool) and v > 0),
        "inputs": NAMES, "elsewhere": ("an object or null", lambda v: v is None or isinstance(v, dict)),
        "knots": ("a list of numbers, each above the one before", increasing)}
ELSEWHERE_KEYS = {"weights": NUMBERS, "bias": NUMBER, "means": NUMBERS, "scales": SCALES, "envelope": NUMBERS,
                  "inputs": NAMES}


def wrong_keys(values: object, keys: dict[str, tuple[str, Callable[[object], bool]]], kind: type,
               where: str = "") -> str | None:
    """What keeps ``values`` (read from JSON; None: nothing to read) from holding the dataclass
    ``kind``: not an object, a key it lacks or does not have, or a value unlike ``keys``' (what
    it holds, how to check it); None where nothing does.  ``where``: the keys' prefix in messages."""
    if values is None and where:
        return None
    if not isinstance(values, dict):
        return f'"{where[:-1]}" is not an object' if where else "not a JSON object"
    needed = [f.name for f in fields(kind) if f.default is MISSING]
    for key in [k for k in needed if k not in values] + [k for k in values if k not in keys]:
        return f'no "{where}{key}"' if key in needed else f'"{where}{key}" is no key of a calibration'
    return next((f'"{where}{key}" is not {keys[key][0]}' for key, value in values.items() if not keys[key][1](value)),
                None)


def unreadable_inputs(calibration: attnmt.decoding.calibration.Calibration) -> str | None:
    """What keeps this attnmt from reading a calibration's inputs, in words (names it does not compute,
    a weight missing); None where nothing does."""
    names = calibration.inputs
    if wrong := named_twice(names, "inputs") or unequal_knots(calibration.knots, names):
        return wrong
    if unknown := [name for name in names if name not in known_inputs(len(calibration.knots))]:
        return f"fitted on inputs this attnmt does not compute: {', '.join(unknown)}"
    if counts := unequal_counts(calibration.weights, calibration.means, calibration.scales, names):
        return f"holds {counts} inputs"
    fit = calibration.elsewhere
    if fit is None:
        return None
    if twice := named_twice(fit.inputs, "elsewhere.inputs"):
        return twice
    if unknown := [name for name in fit.inputs if name not in elsewhere.INPUT_NAMES]:
        return f"its fit for texts written elsewhere reads inputs this attnmt does not compute: {', '.join(unknown)}"
    if counts := unequal_counts(fit.weights, fit.means, fit.scales, fit.inputs):
        return f"its fit for texts written elsewhere holds {counts} inputs"
    if len(fit.envelope) != len(elsewhere.ENVELOPE_SIGNALS):
        return (f"its fit for texts written elsewhere holds {len(fit.envelope)} envelope values for "
                f"{len(elsewhere.ENVELOPE_SIGNALS)} signals ({', '.join(elsewhere.ENVELOPE_SIGNALS)})")
    return None


def unequal_counts(weights: Sequence[float], means: Sequence[float], scales: Sequence[float],
                   names: Sequence[str]) -> str | None:
    """ "17 weights, 18 means and 18 scales for its 18" where the counts differ, else None."""
    if len(weights) == len(means) == len(scales) == len(names):
        return None
    return f"{len(weights)} weights, {len(means)} means and {len(scales)} scales for its {len(names)}"


def named_twice(names: Sequence[str], key: str) -> str | None:
    """'"inputs" names loop twice' for the first name ``names`` holds more than once (its weight
    would be counted twice, the other input's left out), else None."""
    return next((f'"{key}" names {name} twice' for k, name in enumerate(names) if name in names[:k]), None)


def unequal_knots(knots: Sequence[float], names: Sequence[str]) -> str | None:
    """Where the count of knots is not one fewer than the stretches of the mean log-prob the inputs
    read (mean_log_prob_1 .. _{len(knots) + 1}, quality_features.segments), or knots where the inputs read it
    whole, what the file holds against what they take; else None."""
    stretches = sum(bool(re.fullmatch(r"mean_log_prob_\d+", name)) for name in names)
    if len(knots) == max(stretches - 1, 0):
        return None
    held = f'{len(knots)} "knots"' if knots else 'no "knots"'
    if not stretches:
        return f'holds {held} but no input reads the mean log-prob cut at them (mean_log_prob_1 ..)'
    return (f"holds {held} for its {stretches} stretches of the mean log-prob (mean_log_prob_1 .. "
            f"mean_log_prob_{stretches}), which take {stretches - 1}")


# The module of the annotations' Calibration, imported last (typing.get_type_hints reads the annotations):
# it imports this module, whose names it takes must exist by then.
import attnmt.decoding.calibration  # noqa: E402
