"""The real server under faults: clients that vanish mid-request, silent or slow clients, a burst of
concurrent requests, a stop while a request is half-sent.

Afterwards it must still answer correctly.  Traffic goes to 127.0.0.1 only, bounded in count and time.
"""

import errno
import json
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import pytest
from support import free_port, running_server, translated_text

pytest.importorskip("fastapi", reason="attnmt serve needs fastapi and uvicorn")

RELEASE_0_1_0 = Path(__file__).parents[1] / "fixtures" / "model_0.1.0"  # no source </s>, as every 0.1.0 model


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


def test_one_word_html_items_of_a_model_without_source_eos_fail_no_request(tmp_path):
    """Release 0.1.0's models read a one-word list item as one source token; a batch of only those
    once made the C++ step raise, and every request batched with it got a 500."""
    items = {"text": "<ul><li>s</li><li>m</li></ul>", "format": "html", "beam": 1}
    word = {"text": "<p>r</p>", "format": "html", "beam": 1}
    shutil.copytree(RELEASE_0_1_0, tmp_path / "model")
    with running_server(tmp_path / "model", "--batch-window-ms", "50") as (_, url, process):
        with ThreadPoolExecutor(max_workers=6) as pool:
            answers = list(pool.map(lambda body: post(url, body), [items, word] * 3))
        assert [status for status, _ in answers] == [200] * 6
        assert process.poll() is None


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
    request = (f"POST /translate/stream HTTP/1.1\r\nHost: localhost\r\ncontent-type: application/json\r\n"
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


def test_the_stream_through_attnmt_serves_fast_copy_ends_with_its_translation(server):
    _, url, _ = server
    for text in ["a man rides a bike", "two dogs run", "the boy laughs"]:
        request = urllib.request.Request(url + "translate/stream", json.dumps({"q": text, "beam": 4}).encode(),
                                         {"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as answer:
            done = answer.read().decode().strip().split("\n\n")[-1]
        assert done.startswith("event: done\n")
        assert translated_text(json.loads(done.split("data: ", 1)[1])) == {
            "translatedText": post(url, {"text": text, "beam": 4})[1]["translations"][0]}


def answer_or_hang_up(sock: socket.socket) -> bytes:
    """What the server sends until it closes the connection (socket.timeout if it never does)."""
    received = b""
    while chunk := sock.recv(4096):
        received += chunk
    return received


def test_silent_and_slow_clients_are_disconnected(trained_model):
    with running_server(trained_model, "--header-timeout", "1", "--body-timeout", "1") as (port, url, process):
        body = json.dumps({"text": "a dog runs"}).encode()
        header = (f"POST /translate HTTP/1.1\r\nHost: localhost\r\ncontent-type: application/json\r\n"
                  f"content-length: {len(body)}\r\n\r\n").encode()
        silent, slow, half = (socket.create_connection(("127.0.0.1", port), timeout=20) for _ in range(3))
        with silent, slow, half:
            slow.sendall(header[:30])  # headers that never end
            half.sendall(header + body[:5])  # a body that never ends
            assert answer_or_hang_up(silent) == b""
            assert answer_or_hang_up(slow) == b""
            answer = answer_or_hang_up(half)
        assert answer.startswith(b"HTTP/1.1 408 ") and b"did not arrive within 1 s" in answer
        assert post(url, {"text": "a dog runs", "beam": 1})[0] == 200 and process.poll() is None


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_with_a_half_sent_request_ends_within_the_shutdown_timeout_with_status_0(trained_model, stop,
                                                                                     ctrl_c_reaches_commands):
    with running_server(trained_model, "--shutdown-timeout", "1") as (port, url, process):
        assert post(url, {"text": "a dog runs", "beam": 1})[0] == 200
        with socket.create_connection(("127.0.0.1", port), timeout=10) as held, \
                socket.create_connection(("127.0.0.1", port), timeout=10):  # and an idle one
            held.sendall(b"POST /translate HTTP/1.1\r\nHost: localhost\r\ncontent-length: 100\r\n\r\n{")
            time.sleep(0.5)
            process.send_signal(stop)
            assert process.wait(timeout=20) == 0  # 1 s for the request in flight, and the time to stop
        assert "server stopped" in process.stderr.read()


@contextmanager
def two_model_server(model_dir) -> Iterator[tuple[subprocess.Popen, int]]:
    """`attnmt serve` with two models, started and read until its ready line: (process, port)."""
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "attnmt", "serve", "--model", f"en-de={model_dir}",
                                "--model", f"de-en={model_dir}", "--port", str(port), "--threads", "1"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert any("Ctrl-C stops" in line for line in process.stderr), "no ready line"
        yield process, port
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        process.stderr.close()


def test_a_sigterm_right_after_the_ready_line_stops_the_server_with_status_0(trained_model):
    # uvicorn installed its signal handlers only once its loop ran: a SIGTERM just after the ready
    # line was lost (the server ran on) or killed the process (status -15, nothing drained).
    for _ in range(3):
        with two_model_server(trained_model) as (process, _):
            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=20) == 0
            assert "server stopped" in process.stderr.read()


def test_the_ready_line_comes_once_the_server_listens(trained_model):
    with two_model_server(trained_model) as (process, port):
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=10) as answer:  # no retry needed
            assert [m["name"] for m in json.load(answer)["models"]] == ["en-de", "de-en"]
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0


def test_port_0_serves_on_a_free_port_and_the_ready_line_names_it(trained_model):
    # the ready line printed the port asked for, 0, so no one could find the server
    process = subprocess.Popen([sys.executable, "-m", "attnmt", "serve", "--model", f"en-de={trained_model}",
                                "--port", "0", "--threads", "1"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        ready = next(line for line in process.stderr if "Ctrl-C stops" in line)
        port = int(ready.split("http://127.0.0.1:")[1].split("/")[0])
        assert port != 0
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=10) as answer:
            assert [m["name"] for m in json.load(answer)["models"]] == ["en-de"]
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        process.stderr.close()


async def no_app(scope, receive, send) -> None:
    raise AssertionError("a server that cannot listen answers nothing")


def test_a_port_in_use_is_one_error_naming_the_host_and_port():
    # uvicorn logged "[Errno 98] error while attempting to bind on address ('127.0.0.1', N)" and exited with 3
    from attnmt.errors import ConfigError
    from attnmt.server.running import run_until_stopped

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(ConfigError, match=rf"^cannot listen on 127\.0\.0\.1:{port}: Address already in use$"):
            run_until_stopped(no_app, "127.0.0.1", port, 10.0, 10.0)


def no_ipv6_sockets(monkeypatch) -> None:
    """socket.socket refuses IPv6 as a kernel built without it does; IPv4 sockets are made as usual."""
    real = socket.socket

    def made(family=socket.AF_INET, *args, **kwargs):
        if family == socket.AF_INET6:
            raise OSError(errno.EAFNOSUPPORT, "Address family not supported by protocol")
        return real(family, *args, **kwargs)

    monkeypatch.setattr(socket, "socket", made)


def test_an_address_family_the_kernel_lacks_is_skipped_as_asyncio_skips_it(monkeypatch):
    # "" resolves to :: and 0.0.0.0; without IPv6 the server said "cannot listen on :0" and exited with 2
    from attnmt.server.listening import listening_sockets

    wildcards = [(socket.AF_INET6, socket.SOCK_STREAM, 6, "", ("::", 0, 0, 0)),
                 (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("0.0.0.0", 0))]
    monkeypatch.setattr(socket, "getaddrinfo", lambda *args, **kwargs: wildcards)
    no_ipv6_sockets(monkeypatch)
    sockets = listening_sockets("", 0)
    try:
        assert [(sock.family, sock.getsockname()[0]) for sock in sockets] == [(socket.AF_INET, "0.0.0.0")]
    finally:
        for sock in sockets:
            sock.close()


def test_an_address_whose_socket_cannot_be_made_alone_is_one_error(monkeypatch):
    from attnmt.errors import ConfigError
    from attnmt.server.listening import listening_sockets

    no_ipv6_sockets(monkeypatch)
    with pytest.raises(ConfigError, match=r"^cannot listen on \[::1\]:8000: Address family not supported"):
        listening_sockets("::1", 8000)


def test_a_host_that_is_no_address_is_one_error_naming_it_and_the_port():
    # uvicorn logged "[Errno -2] Name or service not known", naming neither, and exited with 3
    from attnmt.errors import ConfigError
    from attnmt.server.running import run_until_stopped

    with pytest.raises(ConfigError, match=r"^cannot listen on 999\.1\.1\.1:8000: \S"):
        run_until_stopped(no_app, "999.1.1.1", 8000, 10.0, 10.0)


def test_only_loopback_names_reach_a_loopback_server_and_answers_carry_security_headers(server):
    port, url, _ = server  # the module's server: the same command, options and model as a server of its own
    request = urllib.request.Request(url, headers={"Host": f"attacker.example:{port}"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 400
    with urllib.request.urlopen(url, timeout=10) as page:
        headers = page.headers
    assert headers["X-Content-Type-Options"] == "nosniff" and headers["X-Frame-Options"] == "DENY"
    assert "default-src 'none'" in headers["Content-Security-Policy"]
