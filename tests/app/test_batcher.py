"""The batcher underneath the server (attnmt.server.batcher), with stand-in models: which requests
share a batch, how big a batch may be, and what a failing or departed request does to the others."""

import asyncio
import json
import logging
import threading
import time
from datetime import datetime, timedelta

import pytest
from support import HeldModel

from attnmt.errors import ConfigError, DataError, shown
from attnmt.server.batcher import Batcher, Busy, refusal_record
from attnmt.server.client_text import quotes_as_lengths


def upper(texts, options):
    return [f"{text.upper()}{options}" for text in texts]


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, timeout=30))


def test_requests_that_arrive_together_form_one_batch():
    async def main():
        async with Batcher(upper, max_batch=32, window=0.05) as batcher:
            outputs = await asyncio.gather(*(batcher.translate([f"t{i}", f"u{i}"], "") for i in range(5)))
            return outputs, list(batcher.batch_sizes)

    outputs, sizes = run(main())
    assert outputs == [[f"T{i}", f"U{i}"] for i in range(5)]
    assert sizes == [10]


def test_a_batch_holds_at_most_max_batch_texts():
    async def main():
        async with Batcher(upper, max_batch=4, window=0.05) as batcher:
            await asyncio.gather(*(batcher.translate([str(i)], "") for i in range(10)))
            return list(batcher.batch_sizes)

    assert run(main()) == [4, 4, 2]


@pytest.mark.parametrize("max_batch, sizes", [(1, [1, 1, 1, 1]), (3, [3, 1])])
def test_a_request_of_more_than_max_batch_texts_runs_in_batches_of_max_batch(max_batch, sizes):
    """--batch-size 1 translates one text at a time, a request of four texts too (it ran as one batch of 4)."""
    async def main():
        async with Batcher(upper, max_batch=max_batch, window=0.05) as batcher:
            outputs = await batcher.translate(["a", "b", "c", "d"], "")
            return outputs, list(batcher.batch_sizes)

    assert run(main()) == (["A", "B", "C", "D"], sizes)


def test_requests_with_other_options_wait_for_their_own_batch():
    async def main():
        async with Batcher(upper, max_batch=32, window=0.05) as batcher:
            outputs = await asyncio.gather(batcher.translate(["a"], 1), batcher.translate(["b"], 2),
                                           batcher.translate(["c"], 1))
            return outputs, list(batcher.batch_sizes)

    outputs, sizes = run(main())
    assert outputs == [["A1"], ["B2"], ["C1"]]
    assert sizes == [2, 1]  # a and c together (the oldest's options first), then b


def fragile(texts, options):
    """The stand-in model, failing on any batch that holds "boom" (a sentence that breaks a search)."""
    if "boom" in texts:
        raise RuntimeError("model exploded")
    return upper(texts, options)


def test_a_failed_batch_fails_only_its_requests():
    async def main():
        async with Batcher(fragile, max_batch=1, window=0) as batcher:
            first, second = await asyncio.gather(batcher.translate(["boom"], ""), batcher.translate(["ok"], ""),
                                                 return_exceptions=True)
            third = await batcher.translate(["fine"], "")
            return first, second, third

    first, second, third = run(main())
    assert isinstance(first, RuntimeError) and second == ["OK"] and third == ["FINE"]


def test_a_request_split_into_batches_fails_whole_where_one_of_them_fails():
    async def main():
        async with Batcher(fragile, max_batch=1, window=0) as batcher:
            failed = await asyncio.gather(batcher.translate(["a", "boom", "c"], ""), return_exceptions=True)
            return failed, batcher.queued, await batcher.translate(["fine"], "")

    [failed], queued, after = run(main())
    assert isinstance(failed, RuntimeError) and queued == 0 and after == ["FINE"]


def test_a_request_the_model_fails_on_fails_alone_and_the_requests_batched_with_it_are_answered():
    async def main():
        async with Batcher(fragile, max_batch=32, window=0.05) as batcher:
            answers = await asyncio.gather(batcher.translate(["ok"], ""), batcher.translate(["boom", "fine"], ""),
                                           batcher.translate(["also"], ""), return_exceptions=True)
            return answers, list(batcher.batch_sizes)

    (first, failed, third), sizes = run(main())
    assert first == ["OK"] and third == ["ALSO"] and sizes == [4]  # one batch, then each request alone
    assert isinstance(failed, RuntimeError) and str(failed) == "model exploded"


def test_the_failing_requests_error_and_traceback_are_logged_naming_the_model(caplog):
    """A server of several models has a batcher each: the lines said "the model failed", not which."""
    async def main():
        async with Batcher(fragile, max_batch=32, window=0.05, model="de-en") as batcher:
            await asyncio.gather(batcher.translate(["ok"], ""), batcher.translate(["boom"], ""),
                                 return_exceptions=True)

    with caplog.at_level(logging.WARNING, logger="attnmt.model"):
        run(main())
    retried, failed = caplog.records
    assert retried.getMessage() == ("the model de-en failed on a batch of 2 requests (RuntimeError: model exploded); "
                                    "running each alone")
    assert failed.levelname == "ERROR"  # the traceback on the lines after, as logging writes exc_info
    assert failed.getMessage().startswith("the model de-en failed on a request of 1 text(s)\nTraceback (most recent")
    assert "model exploded" in caplog.text and "Traceback" in caplog.text


def test_a_request_refused_for_its_own_fault_is_no_model_failure_in_the_log(caplog):
    def refusing(texts, options):
        raise ConfigError("glossary target term 'x': the model's target vocabulary cannot write it")

    async def main():
        async with Batcher(refusing, max_batch=32, window=0.05, model="de-en") as batcher:
            return await asyncio.gather(batcher.translate(["a"], ""), return_exceptions=True)

    with caplog.at_level(logging.INFO, logger="attnmt.model"):
        [refused] = run(main())
    assert isinstance(refused, ConfigError)
    [record] = caplog.records
    assert record.levelname == "INFO" and "Traceback" not in caplog.text
    assert {**json.loads(record.getMessage()), "time": "T"} == {
        "time": "T", "event": "refused", "model": "de-en", "texts": 1, "kind": "ConfigError",
        "error": "glossary target term <1 character>: the model's target vocabulary cannot write it"}


def refusing_cheese(texts, options):
    if any("Käse" in text for text in texts):
        raise ConfigError("glossary target term 'Geheimprojekt Käse': the model's target vocabulary cannot write it")
    return upper(texts, options)


def refused_in_a_batch(caplog, log_text: bool) -> tuple[list, list[logging.LogRecord]]:
    """Two requests in one batch, one of them refused for its own fault, logged at INFO."""
    async def main():
        async with Batcher(refusing_cheese, max_batch=32, window=0.05, log_text=log_text) as batcher:
            return await asyncio.gather(batcher.translate(["a Käse"], ""), batcher.translate(["fine"], ""),
                                        return_exceptions=True)

    with caplog.at_level(logging.INFO, logger="attnmt.model"):
        answers = run(main())
    return answers, caplog.records


def test_a_batch_failed_by_one_requests_fault_is_no_model_failure_in_the_log(caplog):
    """It was a plain WARNING, "the model failed on a batch of 2 requests (ConfigError: …); running
    each alone", before the refusal's JSON record: the user's fault called the model's, and a line
    among the JSON records that no reader of them could read."""
    (refused, answered), records = refused_in_a_batch(caplog, log_text=False)
    assert isinstance(refused, ConfigError) and answered == ["FINE"]
    [record] = records
    assert record.levelname == "INFO" and json.loads(record.getMessage())["event"] == "refused"


def test_a_refusal_holds_no_client_text_without_log_text(caplog):
    """The access log holds no text unless --log-text: the refusal's record held the glossary term."""
    _, [record] = refused_in_a_batch(caplog, log_text=False)
    line = json.loads(record.getMessage())
    assert "Käse" not in caplog.text and "Geheimprojekt" not in caplog.text
    assert line["kind"] == "ConfigError" and line["texts"] == 1
    assert line["error"] == "glossary target term <18 characters>: the model's target vocabulary cannot write it"


def test_a_refusal_holds_the_clients_text_with_log_text(caplog):
    _, [record] = refused_in_a_batch(caplog, log_text=True)
    assert json.loads(record.getMessage())["error"] == (
        "glossary target term 'Geheimprojekt Käse': the model's target vocabulary cannot write it")


def test_a_refusal_holds_none_of_the_requests_texts_even_unquoted():
    """Only the texts its error quoted were hidden: one that named the request's text bare kept it."""
    error = DataError("the prefix of Geheimprojekt Käse läuft cannot be written")
    record = json.loads(refusal_record(["Geheimprojekt Käse läuft"], error))
    assert record["error"] == "the prefix of <24 characters> cannot be written" and record["texts"] == 1


@pytest.mark.parametrize(("message", "written"), [
    ("prefix 'Käse': cannot write it", "prefix <4 characters>: cannot write it"),
    ('term "it\'s": the model\'s vocabulary', "term <4 characters>: the model's vocabulary"),
    ("term 'a \\'b\\' \"c\"': no", "term <9 characters>: no"),
    ("term 'µm' ('\\u00b5m'): writes it as 'μm'", "term <2 characters> (<2 characters>): writes it as <2 characters>"),
    ("sampling draws one translation per sentence: set beam 1 (got 4)",
     "sampling draws one translation per sentence: set beam 1 (got 4)"),
])
def test_a_refusals_quoted_texts_are_written_as_their_lengths(message, written):
    """A quote opens where no letter goes before it: the apostrophe of "the model's" is none."""
    assert quotes_as_lengths(message) == written


def test_a_refusal_leaves_nothing_of_a_term_shown_with_its_code_points():
    """shown's code points left an apostrophe unescaped: ('it's \\u00b5m') kept "s \\u00b5m"."""
    term = shown("it's µm", "it's μm")  # the micro sign, written as the Greek mu
    message = f"glossary target term {term}: the model's vocabulary writes it otherwise"
    assert quotes_as_lengths(message) == ("glossary target term <7 characters> (<7 characters>): the model's "
                                          "vocabulary writes it otherwise")


def test_a_batcher_stopped_while_a_failed_batchs_requests_run_alone_answers_every_one():
    """Stopped while the first of them ran alone, the others of the batch were never answered.  The
    stop comes once the first runs alone (not after a fixed 0.2 s: on a loaded machine the test's loop
    woke after that run had ended, or before the batch had failed), and that run lasts 1 s."""
    alone = threading.Event()

    def breaks_batches(texts, options):
        if len(texts) > 1:
            raise RuntimeError("batch broke")
        alone.set()
        time.sleep(1)
        return upper(texts, options)

    async def main():
        batcher = Batcher(breaks_batches, max_batch=8, window=0.05)
        await batcher.__aenter__()
        asked = [asyncio.create_task(batcher.translate([text], "")) for text in "abc"]
        while not alone.is_set():  # the batch has failed, its first request runs alone
            await asyncio.sleep(0.01)
        await batcher.__aexit__(None, None, None)
        return await asyncio.wait_for(asyncio.gather(*asked, return_exceptions=True), timeout=5)

    assert [str(answer) for answer in run(main())] == ["the server is shutting down"] * 3


def test_a_refusal_is_a_json_record_as_the_access_logs_beside_it():
    """Both go to the server's stderr: the refusal was plain text there, ``refused a request of 1
    text(s): …``, a line a reader of the access log's JSON records could not read.  Its time is
    written as the access log's, its line one to str.splitlines (an error naming a U+2028)."""
    line = refusal_record(["a", "b"], DataError("glossary target term 'a\u2028b': cannot write it"), log_text=True)
    record = json.loads(line)
    assert len(line.splitlines()) == 1 and list(record) == ["time", "event", "model", "texts", "kind", "error"]
    assert datetime.fromisoformat(record["time"]).utcoffset() == timedelta(0) and len(record["time"]) == 29
    assert record["error"] == "glossary target term 'a\u2028b': cannot write it"


def test_a_full_queue_answers_busy():
    release = threading.Event()

    def slow(texts, options):
        release.wait(10)
        return upper(texts, options)

    async def main():
        async with Batcher(slow, max_batch=2, window=0, max_queued=3) as batcher:
            running = asyncio.ensure_future(batcher.translate(["a", "b"], ""))
            await asyncio.sleep(0.05)  # a and b are in the model now; the queue is empty again
            queued = asyncio.ensure_future(batcher.translate(["c", "d", "e"], ""))
            await asyncio.sleep(0)
            with pytest.raises(Busy, match="3 texts waiting"):
                await batcher.translate(["f"], "")
            release.set()
            return await running, await queued

    assert run(main()) == (["A", "B"], ["C", "D", "E"])


def test_the_model_runs_off_the_event_loop():
    blocking = HeldModel()

    async def main():
        async with Batcher(blocking, window=0) as batcher:
            pending = asyncio.ensure_future(batcher.translate(["x"], ""))
            while not blocking.started.is_set():
                await asyncio.sleep(0.01)  # the loop keeps running while the model works
            blocking.release.set()
            return await pending

    assert run(main()) == ["x"]


def test_a_request_whose_client_left_is_skipped():
    async def main():
        async with Batcher(upper, max_batch=32, window=0.05) as batcher:
            gone = asyncio.ensure_future(batcher.translate(["gone"], ""))
            await asyncio.sleep(0)
            gone.cancel()
            kept = await batcher.translate(["kept"], "")
            return kept, list(batcher.batch_sizes)

    assert run(main()) == (["KEPT"], [1])
