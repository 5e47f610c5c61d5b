"""The real server under faults: clients that vanish mid-request, a burst of concurrent requests.

Afterwards it must still answer correctly.  Traffic goes to 127.0.0.1 only, bounded in count and time.
"""

import json
import socket
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from support import running_server

pytest.importorskip("fastapi", reason="attnmt serve needs fastapi and uvicorn")


@pytest.fixture(scope="module")
def server(trained_model):
    with running_server(trained_model) as started:
        yield started


def post(url: str, body: dict, timeout: float = 60.0) -> tuple[int, dict]:
    request = urllib.request.Request(url + "translate", json.dumps(body).encode(),
                                     {"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def raw(port: int, data: bytes, read: bool = False) -> None:
    """Sends raw bytes and hangs up (optionally after the first bytes of the answer)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(data)
        if read:
            sock.recv(1)


def test_clients_that_hang_up_mid_request_do_not_hurt_the_server(server):
    port, url, process = server
    _, expected = post(url, {"text": "a dog runs", "beam": 1})
    body = json.dumps({"texts": ["a cat sleeps"] * 8}).encode()
    header = (f"POST /translate HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
              f"content-length: {len(body)}\r\n\r\n").encode()
    raw(port, header[:20])  # gone inside the request line
    raw(port, header)  # gone before the body
    raw(port, header + body[: len(body) // 2])  # gone half-way through the body
    raw(port, header + body)  # gone while its translation runs
    raw(port, header + body, read=True)  # gone after the first byte of the answer
    assert process.poll() is None
    assert post(url, {"text": "a dog runs", "beam": 1}) == (200, expected)


def test_a_burst_of_concurrent_requests_all_answer_and_the_server_goes_on(server):
    _, url, process = server
    sentences = ["a dog runs", "a cat sleeps", "two dogs run", "the boy laughs"]
    expected = {s: post(url, {"text": s, "beam": 2})[1]["translations"][0] for s in sentences}
    jobs = [sentences[i % 4] for i in range(64)]
    with ThreadPoolExecutor(max_workers=32) as pool:
        answers = list(pool.map(lambda s: post(url, {"text": s, "beam": 2}), jobs))
    assert [status for status, _ in answers] == [200] * 64
    assert [body["translations"][0] for _, body in answers] == [expected[s] for s in jobs]
    health = json.load(urllib.request.urlopen(url + "health", timeout=10))
    assert health["batches"] < health["translated"]  # the burst was batched
    assert process.poll() is None
    assert post(url, {"text": "two dogs run", "beam": 2}) == (200, {"translations": [expected["two dogs run"]]})


def test_health_counts_the_trained_models_parameters_not_the_packed_copys(server, trained_model):
    from attnmt.checkpoint import load_model_dir

    _, url, _ = server
    with urllib.request.urlopen(url + "health", timeout=10) as answer:
        health = json.load(answer)
    model, _ = load_model_dir(trained_model)
    assert health["parameters"] == model.num_parameters() == sum(p.numel() for p in model.parameters())


def test_a_model_directory_that_disappears_while_served_changes_nothing(trained_model, tmp_path):
    import shutil

    copy = shutil.copytree(trained_model, tmp_path / "model")
    with running_server(copy) as (_, url, process):
        shutil.rmtree(copy)  # the model was read whole at the start: the server keeps translating it
        assert post(url, {"text": "a dog runs", "beam": 1}) == (200, {"translations": ["ein hund rennt"]})
        assert process.poll() is None


def test_a_client_that_leaves_mid_stream_does_not_hurt_the_server(server):
    port, url, process = server
    body = json.dumps({"q": "a man rides a bike"}).encode()
    request = (f"POST /translate/stream HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
               f"content-length: {len(body)}\r\n\r\n").encode() + body
    for _ in range(3):
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(request)
            received = b""
            while b"event: partial" not in received:  # until the stream has begun; then hang up
                chunk = sock.recv(4096)
                assert chunk, received
                received += chunk
    assert process.poll() is None
    assert post(url, {"text": "a dog runs", "beam": 1}) == (200, {"translations": ["ein hund rennt"]})
