"""HTTP client of the UrbanGround app's documented API (and of the stand-in, which serves the same API).

Every call is one request with a timeout; reads are retried with backoff on connection failures, timeouts and
5xx replies, while an action (POST) is retried only when the connection was refused, so an action is never
applied twice. Calls are serialised by a lock (the app drives one avatar). Failures reach the caller as one
`UrbanClientError` subclass whose message is a single line saying what to check.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

log = logging.getLogger(__name__)


class UrbanClientError(RuntimeError):
    """A request to the app failed; the message is one line naming the URL and the cause."""


class ServerUnreachable(UrbanClientError):
    """Nothing answers at the URL (not started, crashed, wrong port) after the retries."""


class AuthError(UrbanClientError):
    """The app refused the bearer token (HTTP 401/403)."""


class RequestRefused(UrbanClientError):
    """The app answered 4xx: an invalid action or request (its `error` text is in the message)."""


class ServerFault(UrbanClientError):
    """The app answered 5xx (or garbage) after the retries."""


@dataclass
class ClientConfig:
    """Where the app listens, its token, and how patient to be."""

    url: str = "http://127.0.0.1:8081"
    token: str = ""
    timeout_s: float = 30.0
    action_timeout_s: float = 60.0
    retries: int = 2
    backoff_s: float = 0.5


class UrbanClient:
    """Typed calls of the API: health, state, task, screenshot (decoded), act, task enter/exit, stats reset."""

    def __init__(self, config: ClientConfig) -> None:
        self.config = config
        self.base = config.url.rstrip("/")
        self._lock = threading.Lock()
        self.requests = 0

    def _request(self, method: str, path: str, body: Any = None, timeout: float | None = None) -> bytes:
        data = None if body is None else json.dumps(body).encode("utf-8")
        headers = {"Content-Type": "application/json"} if data is not None else {}
        if self.config.token:
            headers["Authorization"] = f"Bearer {self.config.token}"
        url = f"{self.base}{path}"
        attempts = self.config.retries + 1
        for attempt in range(attempts):
            request = urllib.request.Request(url, data=data, headers=headers, method=method)
            try:
                with self._lock:
                    self.requests += 1
                    with urllib.request.urlopen(request, timeout=timeout or self.config.timeout_s) as reply:
                        return bytes(reply.read())
            except urllib.error.HTTPError as error:
                message = _error_text(error)
                if error.code in (401, 403):
                    raise AuthError(
                        f"{method} {url}: HTTP {error.code} {message} (check sim.token)"
                    ) from None
                if error.code < 500:
                    raise RequestRefused(f"{method} {url}: HTTP {error.code} {message}") from None
                failure: UrbanClientError = ServerFault(f"{method} {url}: HTTP {error.code} {message}")
                retry = method == "GET"
            except (urllib.error.URLError, ConnectionError, TimeoutError) as error:
                reason = getattr(error, "reason", error)
                refused = isinstance(reason, ConnectionRefusedError) or isinstance(
                    error, ConnectionRefusedError
                )
                failure = ServerUnreachable(
                    f"{method} {url}: {'connection refused' if refused else reason} (is the app running at "
                    f"{self.base}? check sim.url)"
                )
                retry = method == "GET" or refused
            if not retry or attempt == attempts - 1:
                raise failure
            delay = self.config.backoff_s * 2**attempt
            log.warning("%s; retry %d/%d in %.1fs", failure, attempt + 1, attempts - 1, delay)
            time.sleep(delay)
        raise ServerFault(f"{method} {url}: no reply")

    def _json(self, method: str, path: str, body: Any = None, timeout: float | None = None) -> dict[str, Any]:
        raw = self._request(method, path, body, timeout)
        try:
            payload = json.loads(raw)
        except json.JSONDecodeError:
            raise ServerFault(f"{method} {self.base}{path}: reply is not JSON: {raw[:80]!r}") from None
        if not isinstance(payload, dict):
            raise ServerFault(f"{method} {self.base}{path}: reply is not a JSON object")
        if payload.get("ok") is False:
            raise RequestRefused(f"{method} {self.base}{path}: {payload.get('error') or 'refused'}")
        return payload

    def health(self) -> dict[str, Any]:
        """GET /health; ServerUnreachable, AuthError or ServerFault when the app is not ready."""
        payload = self._json("GET", "/health")
        if payload.get("ok") is not True:
            raise ServerFault(f"GET {self.base}/health: not ready ({payload.get('status')!r})")
        return payload

    def wait_ready(self, timeout_s: float, poll_s: float = 0.5) -> dict[str, Any]:
        """Poll /health until it answers ok (an AuthError is final at once)."""
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                return self.health()
            except (ServerUnreachable, ServerFault):
                if time.monotonic() >= deadline:
                    raise
                time.sleep(poll_s)

    def state(self) -> dict[str, Any]:
        return self._json("GET", "/state")

    def task(self) -> dict[str, Any]:
        return self._json("GET", "/task")

    def screenshot(self, width: int = 640, height: int = 480, fmt: str = "jpg") -> np.ndarray:
        """The current observation decoded to RGB (HxWx3 uint8); `fmt="png"` for exact colours."""
        raw = self._request("GET", f"/screenshot?width={width}&height={height}&format={fmt}")
        return decode_image(raw)

    def act(self, action: dict[str, Any], image: bool = False) -> dict[str, Any]:
        """POST /action; the reply's `state` is the state after the action."""
        path = "/action?image=1" if image else "/action"
        return self._json("POST", path, action, timeout=self.config.action_timeout_s)

    def enter_task(self, task_id: str) -> dict[str, Any]:
        return self._json("POST", "/task/enter", {"id": task_id}, timeout=self.config.action_timeout_s)

    def exit_task(self) -> dict[str, Any]:
        return self._json("POST", "/task/exit", {})

    def reset_stats(self) -> dict[str, Any]:
        return self._json("POST", "/stats/reset", {})

    def visible_signs(self) -> list[dict[str, Any]]:
        """The stand-in's ground-truth sign reading (only the named `signs` oracle calls this)."""
        try:
            payload = self._json("GET", "/oracle/visible_signs")
        except RequestRefused as error:
            if "no route" in str(error):
                raise RequestRefused(
                    f"{self.base} has no /oracle/visible_signs: the signs oracle needs the stand-in city "
                    "(use urban.perception.signs=none with the real app)"
                ) from None
            raise
        return list(payload.get("signs") or [])


def decode_image(raw: bytes) -> np.ndarray:
    """JPEG/PNG bytes (or a base64 data URL's payload) to RGB; ServerFault when they are not an image."""
    image = cv2.imdecode(np.frombuffer(raw, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ServerFault(f"screenshot is not a JPEG/PNG image ({len(raw)} bytes)")
    return np.ascontiguousarray(image[..., ::-1])


def _error_text(error: urllib.error.HTTPError) -> str:
    try:
        payload = json.loads(error.read())
        return str(payload.get("error") or payload)
    except (json.JSONDecodeError, ValueError, OSError):
        return error.reason if isinstance(error.reason, str) else ""
