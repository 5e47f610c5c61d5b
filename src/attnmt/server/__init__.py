"""The translation server: the FastAPI app (``app``), the models it holds (``models``), attnmt's own
API (``v1_api``), LibreTranslate's (``libretranslate``), streaming, the request batcher, guards,
running and stopping under uvicorn (``running``), access keys, metrics, language detection and the web page."""
