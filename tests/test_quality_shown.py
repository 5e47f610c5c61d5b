"""A quality shown to a person never contradicts the low_quality flag beside it: it is cut down to
the decimals shown, never rounded up to the threshold it is under."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from attnmt.cli.translate_quality import quality_fields
from attnmt.decoding.quality import Assessment, shown_quality

PAGE = Path(__file__).parents[1] / "src" / "attnmt" / "server" / "assets" / "page.html"


def test_a_quality_just_under_the_threshold_shows_under_it():
    assert shown_quality(0.49996) == "0.4999"
    assert shown_quality(0.4999999999) == "0.4999"


def test_a_quality_with_few_decimals_shows_them_as_they_are():
    assert [shown_quality(q) for q in (0.29, 0.5, 1.0, 0.0, 1e-5, 0.12345)] == [
        "0.2900", "0.5000", "1.0000", "0.0000", "0.0000", "0.1234"]


def test_tsv_and_jsonl_write_a_quality_under_the_threshold_under_it():
    a = Assessment(quality=0.49996, flags=["low_quality"], calibrated=True)
    assert quality_fields(a, "tsv")["quality"] == "0.4999"
    assert quality_fields(a, "jsonl")["quality"] == 0.4999


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the page's script")
def test_the_web_page_shows_a_quality_under_the_threshold_under_it():
    script = PAGE.read_text(encoding="utf-8")
    cut_down = re.search(r"function cutDown\(quality\) \{.*?\n\}", script, re.S)
    assert cut_down, "page.html has no cutDown"
    qualities = [0.496, 0.29, 0.4999999, 0.5, 1, 0, 0.57]
    shown = subprocess.run(["node", "-e", f"{cut_down.group(0)}\nconsole.log(JSON.stringify("
                                          f"{json.dumps(qualities)}.map(cutDown)))"],
                           capture_output=True, text=True, check=True, timeout=30).stdout
    assert json.loads(shown) == ["0.49", "0.29", "0.49", "0.50", "1.00", "0.00", "0.57"]
    assert "toFixed(2)}${calibrated}" not in script
