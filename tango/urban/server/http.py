"""The stand-in's HTTP server: UrbanGround's endpoints and JSON shapes, loopback only, an optional bearer token.

Requests are served one at a time on the main thread: that serialises every action (as the app serialises
mutating actions) and keeps all OpenGL work on the thread that owns the GL context.
"""

from __future__ import annotations

import ipaddress
import json
import logging
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any
from urllib.parse import parse_qs, urlparse

from tango.urban.server.standin import StandIn
from tango.urban.server.world import ActionError

log = logging.getLogger(__name__)
SERVICE = "tango-urban-standin"
ENDPOINTS = [
    "/health",
    "/state",
    "/profile",
    "/screenshot",
    "/task",
    "/tileset_source",
    "/action",
    "/task/enter",
    "/task/exit",
    "/stats/reset",
    "/oracle/visible_signs",
]
PROFILE = {
    "ok": True,
    "name": "Alex Chan",
    "gender": "unspecified",
    "age": 34,
    "occupation": "office worker",
    "hunger": 0.2,
    "fatigue": 0.1,
    "activity": "walking",
    "balance": 500.0,
    "income_today": 0.0,
    "total_income": 0.0,
    "hourly_wage": 80.0,
}


class ServerConfigError(ValueError):
    """The server cannot start as asked (a non-loopback host)."""


def check_loopback(host: str) -> None:
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise ServerConfigError(f"the stand-in binds to loopback only; {host!r} is not a loopback address")


def _int(query: dict[str, list[str]], name: str, default: int, low: int, high: int) -> int:
    try:
        value = int(query.get(name, [str(default)])[0])
    except ValueError:
        raise ActionError(f"query parameter {name!r} must be an integer") from None
    return max(low, min(high, value))


def _float(query: dict[str, list[str]], name: str, default: float) -> float:
    try:
        return float(query.get(name, [str(default)])[0])
    except ValueError:
        raise ActionError(f"query parameter {name!r} must be a number") from None


class UrbanServer(HTTPServer):
    def __init__(self, standin: StandIn, host: str, port: int, token: str = "") -> None:
        check_loopback(host)
        self.standin = standin
        self.token = token
        super().__init__((host, port), _Handler)


class _Handler(BaseHTTPRequestHandler):
    server: UrbanServer
    protocol_version = "HTTP/1.0"

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s %s", self.address_string(), format % args)

    def _send(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Access-Control-Allow-Origin", "*")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: int, payload: dict[str, Any]) -> None:
        self._send(status, json.dumps(payload).encode("utf-8"), "application/json; charset=utf-8")

    def _authorised(self) -> bool:
        if not self.server.token:
            return True
        if self.headers.get("Authorization", "") == f"Bearer {self.server.token}":
            return True
        self._json(HTTPStatus.UNAUTHORIZED, {"ok": False, "error": "missing or wrong bearer token"})
        return False

    def _body(self) -> Any:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if not raw:
            return {}
        try:
            return json.loads(raw)
        except json.JSONDecodeError as error:
            raise ActionError(f"request body is not JSON: {error.msg}") from None

    def do_OPTIONS(self) -> None:
        """CORS preflight: any origin may call the API (the app enables CORS too)."""
        self.send_response(HTTPStatus.NO_CONTENT)
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
        self.send_header("Access-Control-Allow-Headers", "Authorization, Content-Type")
        self.send_header("Access-Control-Max-Age", "600")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_POST(self) -> None:
        self._dispatch("POST")

    def _dispatch(self, method: str) -> None:
        if not self._authorised():
            return
        url = urlparse(self.path)
        query = parse_qs(url.query)
        try:
            body = self._body() if method == "POST" else None
            self._route(method, url.path.rstrip("/") or "/", query, body)
        except ActionError as error:
            self._json(HTTPStatus.BAD_REQUEST, {"ok": False, "error": str(error)})
        except Exception as error:
            log.exception("request %s %s failed", method, self.path)
            self._json(
                HTTPStatus.INTERNAL_SERVER_ERROR, {"ok": False, "error": f"{type(error).__name__}: {error}"}
            )

    def _route(self, method: str, path: str, query: dict[str, list[str]], body: Any) -> None:
        standin = self.server.standin
        world = standin.world
        if method == "GET" and path in ("/", "/health"):
            self._json(
                HTTPStatus.OK, {"ok": True, "service": SERVICE, "status": "ready", "endpoints": ENDPOINTS}
            )
        elif method == "GET" and path == "/state":
            self._json(HTTPStatus.OK, world.state())
        elif method == "GET" and path == "/profile":
            self._json(HTTPStatus.OK, PROFILE)
        elif method == "GET" and path == "/task":
            self._json(HTTPStatus.OK, world.task_info())
        elif method == "GET" and path == "/tileset_source":
            self._json(
                HTTPStatus.OK,
                {
                    "ok": True,
                    "probe_completed": True,
                    "internal_reachable": False,
                    "source": "procedural stand-in",
                    "probe_latency_ms": 0.0,
                    "internal_base_url": "",
                    "config_file": "",
                    "config_status": "none",
                    "tilesets": {"f2": "", "building": "", "infrastructure": ""},
                },
            )
        elif method == "GET" and path == "/screenshot":
            fmt = "png" if query.get("format", ["jpg"])[0].lower() == "png" else "jpg"
            image = standin.screenshot(
                _int(query, "width", 640, 16, 4096),
                _int(query, "height", 480, 16, 4096),
                fmt,
                _int(query, "quality", 85, 1, 100),
                include_ui=query.get("include_ui", ["0"])[0] in ("1", "true"),
            )
            self._send(HTTPStatus.OK, image, "image/png" if fmt == "png" else "image/jpeg")
        elif method == "GET" and path == "/oracle/visible_signs":
            if world.mode != "first_person":
                raise ActionError("visible signs are read from the first-person view; close_map first")
            self._json(HTTPStatus.OK, {"ok": True, "signs": standin.camera.visible_signs(world)})
        elif method == "POST" and path == "/action":
            reply = standin.act(
                body,
                image=query.get("image", ["0"])[0] in ("1", "true"),
                interval=_float(query, "interval", 0.0),
                max_frames=_int(query, "max_frames", 60, 1, 600),
            )
            self._json(HTTPStatus.OK, reply)
        elif method == "POST" and path == "/task/enter":
            if not isinstance(body, dict) or not body.get("id"):
                raise ActionError('task/enter needs {"id": "<task id>"}')
            task = world.enter_task(str(body["id"]))
            self._json(
                HTTPStatus.OK, {"ok": True, "action": f"enter_task: {task.id}", "task": world.task_info()}
            )
        elif method == "POST" and path == "/task/exit":
            world.exit_task()
            self._json(HTTPStatus.OK, {"ok": True, "action": "exit_task"})
        elif method == "POST" and path == "/stats/reset":
            from tango.urban.server.world import Counters

            world.counters = Counters()
            self._json(HTTPStatus.OK, {"ok": True})
        else:
            self._json(HTTPStatus.NOT_FOUND, {"ok": False, "error": f"no route {method} {path}"})
