"""One error type answers both compatible APIs, each in its real service's shape: LibreTranslate's
``{"error"}``, DeepL's ``{"message"}``, with the status and headers raised."""

from fastapi import FastAPI
from fastapi.testclient import TestClient

from attnmt.server.api_errors import ApiError, DeepLError, LibreError, api_error


def answer_to(error: ApiError):
    app = FastAPI()
    app.add_exception_handler(ApiError, api_error)

    @app.post("/raise")
    async def raising() -> dict:
        raise error

    return TestClient(app).post("/raise")


def test_a_libretranslate_error_is_its_error_key_with_the_status_and_headers_raised():
    answer = answer_to(LibreError(503, "the queue is full", {"Retry-After": "1"}))
    assert (answer.status_code, answer.headers["retry-after"]) == (503, "1")
    assert answer.json() == {"error": "the queue is full"}


def test_a_deepl_error_is_its_message_key_with_the_status_raised():
    answer = answer_to(DeepLError(413, "text[0] has 130 characters; at most 120 in one text"))
    assert answer.status_code == 413
    assert answer.json() == {"message": "text[0] has 130 characters; at most 120 in one text"}


def test_both_apis_errors_are_one_type_differing_in_their_bodys_key_alone():
    libre, deepl = LibreError(400, "x"), DeepLError(400, "x")
    assert isinstance(libre, ApiError) and isinstance(deepl, ApiError)
    assert (vars(libre), str(libre)) == (vars(deepl), str(deepl))
    assert (libre.KEY, deepl.KEY) == ("error", "message")
