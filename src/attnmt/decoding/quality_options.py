"""The options of quality estimation's entry points (attnmt.decoding.quality.assess, its Assessor,
attnmt.decoding.elsewhere.assess_elsewhere, a review's, translate_n_best's ``quality``), each checked before any pass
runs, with one clear error for the first it cannot take.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from attnmt.config_ranges import finite_number, plain_number, truth_value
from attnmt.decoding.inputs import check_batch_limits
from attnmt.decoding.quality_language import UNKNOWN
from attnmt.errors import ConfigError
from attnmt.text.language_codes import is_language_code

# Assessor: of attnmt.decoding.quality, which imports this module; loaded where an annotation is read
# (attnmt.decoding.__getattr__)
if TYPE_CHECKING:
    import attnmt.decoding.quality
else:
    import attnmt


def check_threshold(threshold: object, name: str = "threshold") -> None:
    """One clear error for a low_quality threshold (a review's ``min_quality``) that is neither None
    nor a number from 0 to 1, a quality's range: 2 flagged (and reviewed) every sentence and -1
    none, without a word, and "0.5" was a TypeError in ``flags_of``.  A 0-d tensor or array holding
    one (``torch.tensor(0.5)``, a reduction's result) is that number, as it always was."""
    number = finite_number(plain_number(threshold))
    if threshold is not None and (number is None or not 0 <= number <= 1):
        raise ConfigError(f"{name}: expected a number from 0 to 1 (or None: the calibration's), got {threshold!r}")


def check_assessing(calibration: object, threshold: object, max_tokens: object,
                    languages: object = UNKNOWN) -> None:
    """One clear error for the first of ``assess``'s options that it cannot take, before any pass
    runs: a calibration that is not ``load_calibration``'s result (a model directory's path was an
    AttributeError once the pass had run), a threshold (``check_threshold``), a max_tokens under 1
    (``check_batch_limits``: -1 was taken, where translate refuses it), or languages that are no
    (source, target) pair of language codes or None (``check_languages``)."""
    from attnmt.decoding.calibration import Calibration  # which imports quality, which imports this module

    if calibration is not None and not isinstance(calibration, Calibration):
        path = isinstance(calibration, str | Path)
        raise ConfigError(f"calibration: expected attnmt.decoding.calibration.load_calibration's result (or None), "
                          f"got {type(calibration).__name__}" + ("; pass load_calibration(model_dir)" if path else ""))
    check_threshold(threshold)
    check_batch_limits(max_tokens)
    check_languages(languages)


def check_languages(languages: object) -> None:
    """One clear error for ``languages`` that are no (source, target) pair (quality_language.Languages, or a
    tuple or list of two), each a language code ("de", "pt-BR") or None: "de" alone would be read as a
    source "d" and a target "e"."""
    if not (isinstance(languages, tuple | list) and len(languages) == 2
            and all(code is None or is_language_code(code) for code in languages)):
        raise ConfigError(f"languages: expected (source, target) language codes, each None where not known, "
                          f"e.g. Languages('en', 'de'), got {languages!r}")


def checked_quality(quality: object) -> attnmt.decoding.quality.Assessor | None:
    """``quality`` as an Assessor or None, after one clear error for any other value, before the
    search: ``quality=True`` was an AttributeError once every batch had been searched.  False is
    None, as it always was: ``quality=wanted and Assessor(calibration)`` gives False when not wanted."""
    if quality is None or truth_value(quality) is False:
        return None
    from attnmt.decoding.quality import Assessor  # which imports this module; loaded where a job assesses

    if not isinstance(quality, Assessor):
        raise ConfigError(f"quality: expected an attnmt.Assessor (or None), got {type(quality).__name__}; "
                          "e.g. Assessor(load_calibration(model_dir))")
    return quality
