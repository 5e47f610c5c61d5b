"""Every decoding path over sources of 0, 1, 2 and the most pieces a model reads, for models with and
without a source </s>, in float32, int8 and bf16, at beam 1 and 4: the inference copy never raises,
its outputs are well formed, and float32's are the readable model's.

One piece without a source </s> is a one-token source (every model release 0.1.0 wrote): it once
made the C++ step raise, and with it every sentence of its batch and every request batched with it.
The model is release 0.1.0's tiny one (tests/fixtures), so the whole grid runs in seconds."""

import asyncio
import json
import math
import shutil
import threading
from pathlib import Path

import pytest

from attnmt.checkpoint import load_model_dir
from attnmt.decoding import Decoding
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.translate import Translation, translate, translate_n_best
from attnmt.documents import translate_html_texts, translate_text
from attnmt.fast import prepare
from attnmt.fast.packed import packing_available
from attnmt.hardware import bf16_native
from attnmt.inspect.align import align_batched
from attnmt.server.batcher import Batcher
from attnmt.server.models import Options, ServedModel

pytestmark = pytest.mark.skipif(not packing_available(), reason="this PyTorch build has no oneDNN")

RELEASE_0_1_0 = Path(__file__).parents[1] / "fixtures" / "model_0.1.0"
PIECE = "s"  # one piece in this model's vocabulary ("▁s"), so n of them are n source pieces
LENGTHS = ["0", "1", "2", "most"]
PRECISIONS = [
    pytest.param({}, id="float32"),
    pytest.param({"int8": True}, id="int8"),
    pytest.param({"bf16": True}, id="bf16", marks=pytest.mark.skipif(
        not bf16_native()[0], reason=f"bf16 layers are refused here: {bf16_native()[1]}")),
]


@pytest.fixture(scope="module", params=[False, True], ids=["without source eos", "with source eos"])
def readable(request, tmp_path_factory):
    """Release 0.1.0's model (no source </s>), or the same weights read with a source </s>."""
    folder = tmp_path_factory.mktemp("model") / "model"
    shutil.copytree(RELEASE_0_1_0, folder)
    config = json.loads((folder / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps({**config, "source_eos": request.param}))
    return load_model_dir(folder)


@pytest.fixture(scope="module", params=PRECISIONS)
def fast(request, readable):
    model, tokenizer = readable
    copy = prepare(model, **request.param)
    assert copy.step is not None  # the C++ step decodes
    return copy, tokenizer, request.param == {}


def source_of(tokenizer, length: str, longest: int) -> str:
    """A line of ``length`` source pieces ("most": as many as the model reads, less its </s>)."""
    pieces = longest - tokenizer.source_eos if length == "most" else int(length)
    text = " ".join([PIECE] * pieces)
    assert len(tokenizer.encode(text)) == (pieces + tokenizer.source_eos if pieces else 0)
    return text


def served_twice(model, tokenizer, text: str, options: Options) -> list:
    """Two requests of ``text`` through the server's batcher, batched together."""
    async def main():
        async with Batcher(ServedModel(model, tokenizer).run_batch, window=0.05) as batcher:
            return await asyncio.gather(batcher.translate([text], options), batcher.translate([text], options))

    return asyncio.run(asyncio.wait_for(main(), timeout=60))


def streamed(model, tokenizer, text: str, beam: int) -> str:
    """The search of the server's /translate/stream (which refuses a blank text before it: 400)."""
    from attnmt.server.streaming import run_stream  # FastAPI's: the serve extra

    if not text:
        return ""
    return run_stream(ServedModel(model, tokenizer), text, Decoding(beam_size=beam), lambda partial: None,
                      threading.Event())


def aligned(model, tokenizer, text: str, beam: int) -> tuple[list[str], list]:
    texts = translate(model, tokenizer, [text], Decoding(beam_size=beam))
    return texts, align_batched(model, tokenizer, [text], texts)


PATHS = {
    "search": lambda m, t, text, beam: translate(m, t, [text], Decoding(beam_size=beam)),
    "sampling": lambda m, t, text, beam: translate(m, t, [text], Decoding(beam_size=1, sampling_topk=5, seed=beam)),
    "n-best": lambda m, t, text, beam: translate_n_best(m, t, [text], Decoding(beam_size=beam, n_best=beam)),
    "alignments": aligned,
    "glossary": lambda m, t, text, beam: translate(m, t, [text], Decoding(beam_size=beam),
                                                   glossary=Glossary.of({PIECE: "ein"})),
    "prefix": lambda m, t, text, beam: translate(m, t, [text], Decoding(beam_size=beam), prefix="ein"),
    "text document": lambda m, t, text, beam: translate_text(m, t, [text], Decoding(beam_size=beam)),
    "html document": lambda m, t, text, beam: translate_html_texts(m, t, [f"<p>{text}</p>"],
                                                                   Decoding(beam_size=beam)),
    "server": lambda m, t, text, beam: served_twice(m, t, text, Options(Decoding(beam_size=beam))),
    "server n-best": lambda m, t, text, beam: [[paragraph.hypotheses for paragraph in answer] for answer in
                                               served_twice(m, t, text, Options(Decoding(beam_size=beam, n_best=beam),
                                                                                hypotheses=True))],
    "server html": lambda m, t, text, beam: served_twice(m, t, f"<p>{text}</p>", Options(
        Decoding(beam_size=beam), format="html")),
    "server stream": streamed,
}


@pytest.mark.parametrize("beam", [1, 4])
@pytest.mark.parametrize("length", LENGTHS)
@pytest.mark.parametrize("path", PATHS)
def test_every_path_decodes_every_source_length_as_the_readable_model(fast, readable, path, length, beam):
    model, tokenizer, is_float32 = fast
    text = source_of(tokenizer, length, model.config.longest_input)
    ours = PATHS[path](model, tokenizer, text, beam)
    assert_well_formed(ours)
    if is_float32:
        theirs = PATHS[path](readable[0], tokenizer, text, beam)
        assert texts(ours) == texts(theirs)
        assert scores(ours) == pytest.approx(scores(theirs), abs=1e-4)  # the same numbers added in other orders


def assert_well_formed(output: object) -> None:
    """Text, hypotheses with finite scores, or alignment pairs, nested in lists or tuples."""
    if isinstance(output, list | tuple):
        for each in output:
            assert_well_formed(each)
    elif isinstance(output, Translation):
        assert isinstance(output.text, str) and math.isfinite(output.score) and math.isfinite(output.log_prob)
    else:
        assert isinstance(output, str | int), output


def texts(output: object) -> object:
    """The output with each hypothesis as its text."""
    if isinstance(output, list | tuple):
        return [texts(each) for each in output]
    return output.text if isinstance(output, Translation) else output


def scores(output: object) -> list[float]:
    """Every hypothesis's score and log-probability, in order."""
    if isinstance(output, list | tuple):
        return [number for each in output for number in scores(each)]
    return [output.score, output.log_prob] if isinstance(output, Translation) else []
