"""What every endpoint of the server shares: the models, the limits, who may ask, the metrics,
the language detector, and whether the access log may hold texts."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from starlette.requests import Request

from attnmt.server.access import Access, log_of
from attnmt.server.detect import Detector
from attnmt.server.metrics import Metrics
from attnmt.server.models import Models, ServedModel, ServeSettings


@dataclass
class Server:
    models: Models
    settings: ServeSettings = field(default_factory=ServeSettings)
    access: Access = field(default_factory=Access)
    metrics: Metrics | None = None
    log_text: bool = False  # --log-text: the access log holds each request's texts and translations
    detector: Detector = field(init=False)

    def __post_init__(self) -> None:
        self.detector = Detector(self.models.sources(), [target for _, target in self.models.by_pair])

    def settings_for(self, request: Request) -> ServeSettings:
        """The limits of an admitted ``request``: the server's, with its key's characters per request."""
        limit = self.access.char_limit(request, self.settings.max_request_chars)
        return self.settings if limit == self.settings.max_request_chars else replace(
            self.settings, max_request_chars=limit)

    def record(self, request: Request, served: ServedModel, texts: list[str], translations: list[str]) -> None:
        """Counts a translated request's characters and notes it for the access log."""
        self.count_characters(served, texts)
        self.note(request, served, texts, translations)

    def count_characters(self, served: ServedModel, texts: list[str]) -> None:
        """Counts ``texts``' characters in the metrics of ``served`` as they reach it, as its key is charged for them:
        a request or a file's chunk it then fails on too."""
        if self.metrics is not None:
            self.metrics.characters.labels(served.name).inc(sum(len(text) for text in texts))

    def note(self, request: Request, served: ServedModel, texts: list[str], translations: list[str]) -> None:
        """Notes ``texts`` translated by ``served`` for ``request``'s access-log line, as ``record``
        does, without counting them in the metrics: a file's chunks are counted as they reach the
        model (attnmt.server.file_charges.charger), and noted here once translated, a chunk a call
        (LibreTranslate's file counted on its line as charged: ``count_texts``, ``note_texts``).
        Each model is named once, in the order first used, however many calls it had; the texts
        are appended in place, so that a file's many chunks cost time in proportion to its size."""
        self.count_texts(request, served, texts)
        self.note_texts(request, texts, translations)

    def count_texts(self, request: Request, served: ServedModel, texts: list[str]) -> None:
        """Names ``served`` on ``request``'s access-log line and adds ``texts`` to its ``texts`` and ``characters``:
        ``note``'s count, which LibreTranslate's file job makes as each chunk is charged (file_charges.logged_charger),
        so that its line counts what its key was charged, the chunk a model failed on too."""
        self.names(request, served)
        log = log_of(request)
        log.update(texts=log.get("texts", 0) + len(texts),
                   characters=log.get("characters", 0) + sum(len(text) for text in texts))

    def note_texts(self, request: Request, texts: list[str], translations: list[str]) -> None:
        """With --log-text, appends ``texts`` and their ``translations`` to ``request``'s access-log line."""
        if self.log_text:
            log = log_of(request)
            log.setdefault("text", []).extend(texts)
            log.setdefault("translation", []).extend(translations)

    def names(self, request: Request, served: ServedModel) -> None:
        """Names ``served`` on ``request``'s access-log line as texts go to it, once however often, in
        the order first used: so the line of a request it failed on (500) names it too, which only
        ``note`` did, once its texts were translated."""
        if not hasattr(request.state, "log_models"):  # the names themselves: one may hold a comma
            request.state.log_models = []
        models = request.state.log_models
        if served.name not in models:
            models.append(served.name)
        log_of(request)["model"] = ",".join(models)

    def note_whole(self, request: Request, texts: list[str], translations: list[str], given_back: int) -> None:
        """Notes the whole of a request given back as it is for its access-log line (``count_whole``), with
        --log-text its texts and answers in their order."""
        self.count_whole(request, texts, given_back)
        if self.log_text:
            log_of(request).update(text=list(texts), translation=list(translations))

    def count_whole(self, request: Request, texts: list[str], given_back: int) -> None:
        """Counts the whole of a LibreTranslate or DeepL request on its access-log line as its key is charged
        for it (text_charges.logged_charge), before any model reads it: ``texts`` and ``characters`` all its
        texts, ``given_back`` those given back as they are (in the target language already), which no model
        reads (``model`` null until one is named: ``names``)."""
        log = log_of(request)
        log.setdefault("model", None)
        log.update(texts=len(texts), characters=sum(len(text) for text in texts))
        if given_back:
            log["given_back"] = given_back

    def record_translations(self, request: Request, translations: list[str]) -> None:
        """With --log-text, notes the translations of a request ``record`` noted before they were
        done (a stream's, at its end) for the access log, written once the answer is."""
        if self.log_text:
            log_of(request)["translation"] = translations
