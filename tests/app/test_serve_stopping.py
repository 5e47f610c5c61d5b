"""Work no one waits for any more: clients that hang up while their translation waits (it leaves
the queue, 499), a file whose last chunk ends as a stop is asked for (503, not a link), and a server
whose shutdown deadline runs out (503, or a stream's error event)."""

import asyncio
import json
import logging
import signal
import socket
import threading

import pytest
import uvicorn
from fastapi.testclient import TestClient
from support import PAIRS, HeldModel, free_port, server_events, submit_file, wait_until

from attnmt.checkpoint import load_model_dir
from attnmt.server import file_jobs
from attnmt.server.app import ServedModel, ServeSettings, create_app
from attnmt.server.batcher import Batcher, Busy
from attnmt.server.running import ANSWER_MARGIN_S, StoppableServer

FILE = "".join(f"{source}\n" for source, _ in PAIRS).encode()  # 20 sentences


@pytest.fixture
def held(trained_model):
    """A served model whose first batch waits in the model thread until ``release`` is set;
    ``seen``: the texts of each batch, in the order they ran."""
    served = ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")
    run_batch, seen, release = served.run_batch, [], threading.Event()

    def held_batch(texts, options):
        seen.append(list(texts))
        if len(seen) == 1:
            release.wait(60)
        return run_batch(texts, options)

    served.run_batch = held_batch
    served.seen, served.release = seen, release
    return served


def multipart(data: bytes) -> tuple[bytes, str]:
    """A LibreTranslate file request's body (file.txt, en to de) and its content type."""
    fields = "".join(f'--B\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'
                     for name, value in (("source", "en"), ("target", "de")))
    body = (fields + '--B\r\nContent-Disposition: form-data; name="file"; filename="file.txt"\r\n'
            "Content-Type: text/plain\r\n\r\n").encode() + data + b"\r\n--B--\r\n"
    return body, "multipart/form-data; boundary=B"


async def hang_up_after_the_body(app, path: str, body: bytes, content_type: str = "application/json",
                                 on_hang_up=lambda: None) -> int:
    """The status the app answers a client that sends ``body`` to ``path`` and hangs up as soon as
    the app waits for anything after it (``on_hang_up`` is called then)."""
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": path, "raw_path": path.encode(), "root_path": "", "query_string": b"",
             "headers": [(b"host", b"testserver"), (b"content-type", content_type.encode()),
                         (b"content-length", str(len(body)).encode())],
             "client": ("127.0.0.1", 5000), "server": ("testserver", 80)}
    messages = [{"type": "http.request", "body": body, "more_body": False}]
    status = []

    async def receive():
        if messages:
            return messages.pop(0)
        on_hang_up()
        return {"type": "http.disconnect"}

    async def send(message):
        if message["type"] == "http.response.start":
            status.append(message["status"])

    await asyncio.wait_for(app(scope, receive, send), 20)  # the old server waited for the held model
    return status[0]


@pytest.mark.parametrize("path, body", [
    ("/translate", {"q": ["a cat sleeps", "two dogs run", "the boy laughs"], "source": "en", "target": "de"}),
    ("/v1/translate", {"texts": ["a cat sleeps", "two dogs run", "the boy laughs"]}),
    ("/v1/translate", {"texts": ["a cat sleeps", "two dogs run", "the boy laughs"], "n_best": 2, "beam": 2}),
])
def test_a_client_that_hangs_up_leaves_the_queue_and_its_texts_never_reach_the_model(held, path, body, caplog):
    with TestClient(create_app([held], ServeSettings(batch_window_ms=0))) as client:
        queued_at_hang_up = []
        first = threading.Thread(target=lambda: client.post("/translate", json={"q": "a dog runs", "source": "en",
                                                                                "target": "de"}))
        first.start()
        wait_until(lambda: held.seen)  # the first request holds the model
        with caplog.at_level(logging.INFO, logger="attnmt.access"):
            status = client.portal.call(hang_up_after_the_body, client.app, path, json.dumps(body).encode(),
                                        "application/json", lambda: queued_at_hang_up.append(held.batcher.queued))
            assert status == 499 and queued_at_hang_up == [3]
            assert held.batcher.queued == 0  # at once: /health's queued, and the requests after it, see so
            held.release.set()
            first.join(60)
        answer = client.post("/v1/translate", json={"text": "two men walk"})
        assert answer.json() == {"translations": ["zwei männer gehen"]}
    assert held.seen == [["a dog runs"], ["two men walk"]]  # the texts of the client that left: never
    lines = [json.loads(record.message) for record in caplog.records if record.name == "attnmt.access"]
    assert 499 in [line["status"] for line in lines if line["path"] == path]


def test_a_file_whose_client_hangs_up_stops_and_frees_its_slot(held):
    app = create_app([held], ServeSettings(file_chunk=4, max_file_jobs=1, batch_window_ms=0))
    with TestClient(app) as client:
        body, content_type = multipart(FILE)
        status = client.portal.call(hang_up_after_the_body, client.app, "/translate_file", body, content_type)
        assert status == 499 and app.state.file_jobs.jobs == {}  # deleted: it is no one's
        held.release.set()  # the chunk in the model, if any, ends; none follows it
        wait_until(lambda: app.state.file_jobs.running == 0)
        assert len(held.seen) <= 1
        answer = client.post("/translate_file", data={"source": "en", "target": "de"},
                             files={"file": ("dogs.txt", b"a dog runs\n", "text/plain")})
        assert answer.status_code == 200  # its --file-jobs slot is free


def test_a_file_whose_last_chunk_is_answered_as_a_stop_is_asked_for_is_503_not_a_dead_link(held):
    """The stop comes while the file's one chunk is in the model (no next chunk to stop at): the
    stopped server would never serve its link, so /translate_file answers 503."""
    with TestClient(create_app([held], ServeSettings(file_chunk=32))) as client:
        answers = []
        request = threading.Thread(target=lambda: answers.append(client.post(
            "/translate_file", data={"source": "en", "target": "de"}, files={"file": ("a.txt", FILE, "text/plain")})))
        request.start()
        wait_until(lambda: held.seen)  # its one chunk of 20 sentences is in the model
        client.app.state.file_jobs.stopping.set()
        held.release.set()
        request.join(60)
    [answer] = answers
    assert answer.status_code == 503 and answer.json() == {"error": "the server is shutting down"}


def test_a_file_job_whose_last_chunk_is_answered_as_a_stop_is_asked_for_fails_and_writes_nothing(held):
    with TestClient(create_app([held], ServeSettings(file_chunk=32))) as client:
        jobs = client.app.state.file_jobs
        job = submit_file(client, "a.txt", FILE).json()
        wait_until(lambda: held.seen)  # its one chunk of 20 sentences is in the model
        jobs.stopping.set()
        held.release.set()
        assert server_events(client, job["events_url"])[-1] == ("error", {"detail": "the server is shutting down"})
        assert client.get(job["status_url"]).json()["state"] == "failed"
        assert list(jobs.folder.iterdir()) == []


@pytest.mark.parametrize("stop", ["asked for", "out of time"])
def test_a_stop_while_files_are_read_answers_both_apis_at_once_and_drops_what_their_threads_end_with(
        held, monkeypatch, stop):
    """A stop while files were read or written (no chunk to stop at) left /translate_file and a job's
    events waiting until uvicorn cancelled them: a plain-text 500, a stream with no error event, a
    traceback each.  A stop asked for (serve's on_stop, from the signal handler: FileJobs.stop) or
    out of --shutdown-timeout (give_up) now fails them at once; what their threads end with is dropped."""
    reading, release = threading.Semaphore(0), threading.Event()

    def slow_reader(*args, **options):  # a 2.8 MB file read: no chunk, and no block to stop at, for now
        reading.release()
        release.wait(30)
        return b"a translation no one waits for"

    monkeypatch.setattr(file_jobs, "translate_file_bytes", slow_reader)
    app = create_app([held], ServeSettings(max_file_jobs=2))
    with TestClient(app) as client:
        jobs, answers, events = app.state.file_jobs, [], []
        try:
            job = submit_file(client, "a.txt", FILE).json()
            threads = [threading.Thread(target=lambda: answers.append(client.post(
                           "/translate_file", data={"source": "en", "target": "de"},
                           files={"file": ("a.txt", FILE, "text/plain")}))),
                       threading.Thread(target=lambda: events.extend(server_events(client, job["events_url"])))]
            for thread in threads:
                thread.start()
            assert reading.acquire(timeout=30) and reading.acquire(timeout=30)  # both files are being read
            if stop == "asked for":
                jobs.stop()  # outside the server's loop, as a signal handler is
            else:
                client.portal.call(app.state.give_up)
            for thread in threads:
                thread.join(10)  # the old server answered neither until their reading was done
            assert answers and events
        finally:
            release.set()
        wait_until(lambda: jobs.running == 0)
        assert list(jobs.folder.iterdir()) == [] and client.get(job["status_url"]).json()["state"] == "failed"
    [answer] = answers
    assert (answer.status_code, answer.json(), answer.headers["retry-after"]) == (
        503, {"error": "the server is shutting down"}, "1")
    assert events[-1] == ("error", {"detail": "the server is shutting down"})


# --- a stop whose --shutdown-timeout runs out ---------------------------------------------------


def test_giving_up_fails_the_jobs_waiting_and_running_and_the_calls_with_busy():
    slow = HeldModel()

    async def main():
        async with Batcher(slow, max_batch=1, window=0) as batcher:
            running = asyncio.ensure_future(batcher.translate(["a"], ""))
            waiting = asyncio.ensure_future(batcher.translate(["b"], ""))
            call = asyncio.ensure_future(batcher.call(slow, ["c"], ""))
            await asyncio.to_thread(slow.started.wait, 10)
            batcher.give_up()
            answers = await asyncio.gather(running, waiting, call, batcher.translate(["d"], ""),
                                           return_exceptions=True)
            queued = batcher.queued
            slow.release.set()
            return answers, queued

    answers, queued = asyncio.run(asyncio.wait_for(main(), 30))
    assert [str(answer) for answer in answers] == ["the server is shutting down"] * 4
    assert all(isinstance(answer, Busy) for answer in answers) and queued == 0


def test_requests_still_running_when_the_server_gives_up_get_503_in_their_apis_shape(held):
    app = create_app([held], ServeSettings(batch_window_ms=0))
    with TestClient(app) as client:
        answers = {}
        asks = {"/v1/translate": {"text": "a dog runs"},
                "/translate": {"q": "a cat sleeps", "source": "en", "target": "de"},
                "/translate/stream": {"q": "two dogs run"}}
        threads = [threading.Thread(target=lambda path=path, body=body: answers.__setitem__(
            path, client.post(path, json=body))) for path, body in asks.items()]
        # one at a time, so that each is where it should be (all at once, the first two could share
        # the first batch): one in the model, one waiting, the stream's search waiting for the model thread
        ready = [lambda: held.seen, lambda: held.batcher.queued == 1,
                 lambda: held.batcher.model_thread._work_queue.qsize() == 1]
        for thread, arrived in zip(threads, ready, strict=True):
            thread.start()
            wait_until(arrived)
        client.portal.call(app.state.give_up)
        for thread in threads:
            thread.join(30)
        held.release.set()
    native, libre, stream = (answers[path] for path in asks)
    assert (native.status_code, native.json(), native.headers["retry-after"]) == (
        503, {"detail": "the server is shutting down"}, "1")
    assert (libre.status_code, libre.json(), libre.headers["retry-after"]) == (
        503, {"error": "the server is shutting down"}, "1")
    assert stream.status_code == 200
    assert stream.text.endswith('event: error\ndata: {"error": "the server is shutting down"}\n\n')


def answer_to_a_held_request(deadline_s: float, stop) -> tuple[bytes, bool]:
    """The answer to one request that waits until the server gives up on it (``on_deadline``), the
    server stopped by ``stop(server)`` while it waits; and whether the server then ended in 20 s."""
    given_up = asyncio.Event()

    async def app(scope, receive, send):
        if scope["type"] != "http":
            return
        await given_up.wait()
        await send({"type": "http.response.start", "status": 503, "headers": []})
        await send({"type": "http.response.body", "body": b"given up"})

    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, lifespan="off", log_level="warning",
                            timeout_graceful_shutdown=deadline_s + ANSWER_MARGIN_S)
    server = StoppableServer(config, ready=lambda port: None, on_deadline=given_up.set, deadline_s=deadline_s)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve()))
    thread.start()
    try:
        wait_until(lambda: server.started)
        with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
            wait_until(lambda: server.server_state.tasks)
            stop(server)
            answer = sock.recv(4096)
        thread.join(20)
        return answer, not thread.is_alive()
    finally:
        server.should_exit = server.force_exit = True
        thread.join(30)


def test_the_server_answers_the_requests_in_flight_when_the_shutdown_timeout_runs_out():
    answer, _ = answer_to_a_held_request(0.5, lambda server: setattr(server, "should_exit", True))
    assert answer.startswith(b"HTTP/1.1 503 ")  # not uvicorn's 500 for a cancelled handler


def test_a_second_ctrl_c_answers_the_requests_in_flight_at_once_before_the_server_exits():
    def ctrl_c_twice(server):  # as run_until_stopped's signal handler does; the second: no waiting for the deadline
        server.handle_exit(signal.SIGINT, None)
        server.handle_exit(signal.SIGINT, None)

    answer, exited = answer_to_a_held_request(60, ctrl_c_twice)
    assert answer.startswith(b"HTTP/1.1 503 ")  # not uvicorn's 500 for a handler cancelled as the loop closes
    assert exited

