"""A real local HTTP server speaking the chat-completions protocol, scripted per request, for tests.

Each queued `Reply` answers one POST /v1/chat/completions (status, text, optional delay); when the queue is
empty the server answers with `default_text`. Every request body is recorded in `requests`.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self


@dataclass
class Reply:
    """One scripted answer."""

    text: str = ""
    status: int = 200
    delay_s: float = 0.0


class ChatServer:
    """Start with `with ChatServer() as server:`; point clients at `server.base_url`."""

    def __init__(self, default_text: str = "") -> None:
        self.replies: list[Reply] = []
        self.requests: list[dict[str, Any]] = []
        self.default_text = default_text
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def queue(self, *replies: Reply) -> None:
        with self._lock:
            self.replies.extend(replies)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _next_reply(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            self.requests.append(body)
            return self.replies.pop(0) if self.replies else Reply(self.default_text)

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                reply = server._next_reply(body)
                if reply.delay_s:
                    time.sleep(reply.delay_s)
                if reply.status != 200:
                    payload = {"error": {"message": f"scripted status {reply.status}", "type": "test"}}
                else:
                    payload = {
                        "id": f"chatcmpl-{len(server.requests)}",
                        "object": "chat.completion",
                        "created": int(time.time()),
                        "model": body.get("model", "test-model"),
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": reply.text},
                                "finish_reason": "stop",
                            }
                        ],
                        "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
                    }
                data = json.dumps(payload).encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    return

        return Handler
