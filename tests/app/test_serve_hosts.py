"""The translation server's host check (``--allowed-host``): a request to a name it does not answer
to is refused in the shape of the API it was sent to."""

import pytest
from fastapi.testclient import TestClient

from attnmt.checkpoint import load_model_dir
from attnmt.server.app import ServedModel, create_app


@pytest.fixture(scope="module")
def loopback(trained_model, serve_settings):
    """A server answering only to the loopback names, as `attnmt serve` on 127.0.0.1 does."""
    model, tokenizer = load_model_dir(trained_model)
    app = create_app([ServedModel(model, tokenizer, "tiny-en-de", "en", "de")], serve_settings,
                     allowed_hosts=["localhost", "127.0.0.1", "[::1]", "*.example.org"])
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


@pytest.mark.parametrize("path, key", [("/translate", "error"), ("/detect", "error"), ("/v1/translate", "detail")])
def test_a_host_the_server_does_not_answer_to_is_refused_in_the_apis_shape(loopback, path, key):
    """Starlette answered text/plain "Invalid host header", which no client of either API reads."""
    answer = loopback.post(path, json={"q": "a dog runs", "text": "a dog runs"},
                           headers={"host": "attacker.example:8000"})
    assert answer.status_code == 400 and answer.json() == {key: (
        "Invalid host header: this server does not answer to the host 'attacker.example'; to let it, "
        "start it with --allowed-host attacker.example")}


@pytest.mark.parametrize("host", ["localhost:8000", "127.0.0.1", "[::1]:8000", "LOCALHOST", "api.example.org"])
def test_the_names_the_server_answers_to_reach_it(loopback, host):
    assert loopback.get("/health", headers={"host": host}).status_code == 200


def test_a_malformed_host_header_is_refused_in_both_shapes_off_the_apis(loopback):
    answer = loopback.get("/health", headers={"host": "[not-an-address]"})
    message = "Invalid host header '[not-an-address]'"
    assert answer.status_code == 400 and answer.json() == {"detail": message, "error": message}


@pytest.mark.parametrize("host", ["localhost.", "localhost.:8000", "api.example.org."])
def test_a_name_written_as_a_full_domain_name_with_its_trailing_dot_reaches_it(loopback, host):
    """``localhost.`` is the same name as ``localhost`` (a fully qualified one, as curl sends it)."""
    assert loopback.get("/health", headers={"host": host}).status_code == 200


def test_a_bare_dot_is_no_name_the_server_answers_to(loopback):
    assert loopback.get("/health", headers={"host": "."}).status_code == 400
