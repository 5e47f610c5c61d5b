"""The HTML attention viewer: one self-contained file that headless Chromium renders, view chosen by the URL."""

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
import torch
from PIL import Image

from attnmt.inspect.trace import TranslationAttention
from attnmt.inspect.viewer import viewer_html, write_viewer

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None,
    reason="headless Chromium is not installed (Debian: apt-get install chromium; .ci/run installs it)",
)


@pytest.fixture
def trace() -> TranslationAttention:
    """One layer, two heads with nothing in common: in cross-attention head 0 looks straight
    across (target piece i -> source piece i), head 1 looks only at the last source piece."""
    across = torch.eye(3)
    last = torch.zeros(3, 3)
    last[:, 2] = 1.0
    causal = torch.ones(3, 3).tril()
    causal = causal / causal.sum(-1, keepdim=True)
    return TranslationAttention(
        sentence="A man </script>", translation="Ein Mann",
        source=["▁A", "▁man", "</script>"], target_in=["<s>", "▁Ein", "▁Mann"], target_out=["▁Ein", "▁Mann", "</s>"],
        encoder=torch.full((1, 2, 3, 3), 1 / 3), decoder_self=causal.expand(1, 2, 3, 3),
        cross=torch.stack([across, last])[None],  # [layers 1, heads 2, 3, 3]
    )


def run_chromium(tmp_path: Path, url: str, *args: str) -> subprocess.CompletedProcess:
    command = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               f"--user-data-dir={tmp_path / 'profile'}", *args, url]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)


def test_viewer_is_one_file_that_needs_no_network(trace):
    page = viewer_html(trace.to_dict())
    assert set(re.findall(r"https?://[^\s\"'<>]*", page)) <= {"http://www.w3.org/2000/svg"}  # a name, never fetched
    assert "<link" not in page and not re.search(r"<script[^>]*\bsrc=", page)


def test_pieces_cannot_break_out_of_the_embedded_data(trace):
    page = viewer_html(trace.to_dict())
    assert page.count("</script>") == 2  # the data's and the code's own closing tags; the piece is escaped
    assert "A man &lt;/script&gt;" in page  # the sentence in the heading


@needs_chromium
def test_viewer_renders_the_view_named_in_the_address(trace, tmp_path):
    page = write_viewer(trace.to_dict(), tmp_path / "attention.html")
    dom = run_chromium(tmp_path, f"{page.as_uri()}#kind=cross&layer=0&head=all", "--dump-dom").stdout
    assert 'data-view="mode=lines&amp;kind=cross&amp;layer=0&amp;head=all"' in dom
    assert dom.count('class="token row"') == 3 and dom.count('class="token col"') == 3
    assert dom.count("<line ") == 6  # weight-1 lines: 3 of head 0, 3 of head 1
    assert ">head 0</span>" in dom and ">head 1</span>" in dom
    assert "&lt;/script&gt;</text>" in dom  # a piece is shown as text, never as markup


@needs_chromium
@pytest.mark.parametrize("kind", ["constructor", "__proto__"])  # names every JavaScript object answers to
def test_a_kind_the_data_lacks_in_the_address_opens_the_default_view(trace, tmp_path, kind):
    page = write_viewer(trace.to_dict(), tmp_path / "attention.html")
    dom = run_chromium(tmp_path, f"{page.as_uri()}#kind={kind}&layer=0", "--dump-dom").stdout
    # a blank page before: "Cannot read properties of undefined (reading 'weights')"
    assert 'data-view="mode=lines&amp;kind=cross&amp;layer=0&amp;head=all"' in dom
    assert dom.count("<line ") == 6


@needs_chromium
def test_choosing_another_head_changes_the_picture(trace, tmp_path):
    page = write_viewer(trace.to_dict(), tmp_path / "attention.html")
    shots = []
    for head in (0, 1):
        shot = tmp_path / f"head{head}.png"
        run_chromium(tmp_path, f"{page.as_uri()}#kind=cross&layer=0&head={head}",
                     f"--screenshot={shot}", "--window-size=800,400")
        shots.append(np.asarray(Image.open(shot).convert("RGB")).astype(int))
    head0, head1 = shots
    assert head0.shape == head1.shape == (400, 800, 3)
    for image in shots:
        assert (image.sum(axis=2) < 600).mean() > 0.005, "the page is blank"
    changed = (np.abs(head0 - head1).sum(axis=2) > 60).mean()
    assert changed > 0.005, f"only {changed:.2%} of the pixels differ between head 0 and head 1"


@needs_chromium
def test_the_matrix_view_draws_a_cell_per_query_and_key_shaded_by_its_weight(trace, tmp_path):
    page = write_viewer(trace.to_dict(), tmp_path / "attention.html")
    dom = run_chromium(tmp_path, f"{page.as_uri()}#mode=matrix&kind=cross&layer=0&head=0", "--dump-dom").stdout
    cells = re.findall(r'<rect [^>]*class="cell"[^>]*>', dom)
    assert len(cells) == 9  # 3 queries × 3 keys
    assert sum('fill-opacity="1"' in cell for cell in cells) == 3  # head 0 looks at one key a query, with weight 1
    shot = tmp_path / "matrix.png"
    run_chromium(tmp_path, f"{page.as_uri()}#mode=matrix&kind=cross&layer=0&head=0", f"--screenshot={shot}",
                 "--window-size=800,400")
    assert (np.asarray(Image.open(shot).convert("RGB")).sum(axis=2) < 600).mean() > 0.005, "the matrix is blank"



@needs_chromium
def test_the_lines_view_widens_its_label_columns_to_show_a_long_piece_whole(trace, tmp_path):
    long = "▁" + "w" * 60  # a run the tokenizer keeps whole (Thai, CJK): 61 monospace characters, over 500 px
    data = trace.to_dict()
    data["kinds"]["cross"]["rows"][1] = data["kinds"]["cross"]["cols"][1] = long
    page = write_viewer(data, tmp_path / "attention.html")
    dom = run_chromium(tmp_path, f"{page.as_uri()}#kind=cross&layer=0&head=all", "--dump-dom").stdout
    svg_width = float(re.search(r'<svg id="view"[^>]* width="([\d.]+)"', dom)[1])
    row_x, col_x = (float(re.search(rf'<g class="token {side}" data-index="1">.*?<text x="([\d.]+)"', dom)[1])
                    for side in ("row", "col"))
    # Fixed columns at 260 and 500 px in a 760 px picture cut both copies before.
    assert row_x >= 8 * len(long), "the row label runs off the picture's left edge"
    assert svg_width - col_x >= 8 * len(long), "the column label runs off the picture's right edge"
