"""The float32 kernel choice at two row counts: oneDNN holds a layer's only copy of its weight, so it
takes a layer only where it is no slower than the panels at one sentence's rows (SMALL_ROWS) as well
as faster at the step's usual batch (STEP_ROWS)."""

import pytest

from attnmt.fast import kernels
from attnmt.fast.kernels import (
    OUTPUT_PANELS_MARGIN,
    SMALL_ROWS,
    STEP_PANELS_MARGIN,
    STEP_ROWS,
    FloatKernel,
    KernelChoice,
    faster_at_both,
    measure,
)

PANELS, ONEDNN, TILES = FloatKernel.PANELS, FloatKernel.ONEDNN, FloatKernel.TILES


@pytest.mark.parametrize("best, small, kernel", [
    ({PANELS: 1.0, ONEDNN: 0.8}, {PANELS: 0.020, ONEDNN: 0.035}, PANELS),  # the Xeon's case: slower for one sentence
    ({PANELS: 1.0, ONEDNN: 0.8}, {PANELS: 0.020, ONEDNN: 0.020}, ONEDNN),  # no slower there
    ({PANELS: 1.0, ONEDNN: 0.8}, {}, ONEDNN),  # not timed at small rows: the step's rows decide
    ({PANELS: 1.0, ONEDNN: 0.99}, {PANELS: 0.020, ONEDNN: 0.010}, PANELS),  # no clear win at the step's rows
    ({PANELS: 1.0, ONEDNN: 0.7, TILES: 0.8}, {PANELS: 0.020, ONEDNN: 0.035}, TILES),  # the next fastest
    ({PANELS: 1.0, ONEDNN: 0.8, TILES: 0.7}, {PANELS: 0.020, ONEDNN: 0.010}, TILES),
])
def test_onednn_takes_a_layer_only_where_it_is_no_slower_for_one_sentence_either(best, small, kernel):
    assert faster_at_both(best, small, STEP_PANELS_MARGIN) is kernel


def test_measuring_times_one_sentences_rows_only_where_onednn_won_the_batch(monkeypatch):
    """Shape A: oneDNN wins at 128 rows and loses at 4 (panels); B: wins at both (oneDNN); C: the
    panels win at 128 rows (not timed at 4); the output, within OUTPUT_PANELS_MARGIN (panels)."""
    at_rows = {STEP_ROWS: {(1, 1): {PANELS: 1.0, ONEDNN: 0.8}, (2, 2): {PANELS: 1.0, ONEDNN: 0.8},
                           (3, 3): {PANELS: 1.0, ONEDNN: 1.2}, (9, 3): {PANELS: 1.0, ONEDNN: 0.95}},
               SMALL_ROWS: {(1, 1): {PANELS: 0.02, ONEDNN: 0.04}, (2, 2): {PANELS: 0.02, ONEDNN: 0.01}}}
    asked = []

    def timed(shapes, rows, calls):
        asked.append((rows, list(shapes)))
        return {shape: at_rows[rows][shape] for shape in shapes}

    monkeypatch.setattr(kernels, "timed_shapes", timed)
    choice = measure([(1, 1), (2, 2), (3, 3), (9, 3)], output=(9, 3))
    assert asked == [(STEP_ROWS, [(1, 1), (2, 2), (3, 3), (9, 3)]), (SMALL_ROWS, [(1, 1), (2, 2)])]
    assert choice.kernels == {(1, 1): PANELS, (2, 2): ONEDNN, (3, 3): PANELS, (9, 3): PANELS}
    assert 0.95 * OUTPUT_PANELS_MARGIN > 1.0  # why the output stays on the panels
    assert choice.small == at_rows[SMALL_ROWS]


def test_the_timings_at_both_row_counts_read_back_from_json_and_are_shown():
    choice = KernelChoice({(512, 512): PANELS, (2048, 512): ONEDNN},
                          {(512, 512): {PANELS: 0.41, ONEDNN: 0.37}, (2048, 512): {PANELS: 1.3, ONEDNN: 1.1}},
                          {(512, 512): {PANELS: 0.014, ONEDNN: 0.027}})
    assert KernelChoice.from_json(choice.to_json()) == choice
    lines = choice.describe()
    assert lines[0] == (f"512 × 512: panels (panels 0.410 ms, onednn 0.370 ms at {STEP_ROWS} rows; "
                        f"panels 0.014 ms, onednn 0.027 ms at {SMALL_ROWS} rows)")
    assert lines[1] == f"2048 × 512: onednn (panels 1.300 ms, onednn 1.100 ms at {STEP_ROWS} rows)"

