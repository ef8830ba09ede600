"""Loopback HTTP servers speaking each LLM provider's real wire protocol, for wire-level tests."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# The longest any scripted pause or trickle may hold a handler thread.
MAX_HOLD = 10.0


# --- wire protocols ------------------------------------------------------------------------------


class OpenAIProtocol:
    """Chat completions: `data: {json}\\n\\n` chunks, a `finish_reason` chunk, then `data: [DONE]`."""

    content_type = "text/event-stream"

    def __init__(self, prefix: str = "/v1", model: str = "gpt-4o-mini") -> None:
        self.stream_path = f"{prefix}/chat/completions"
        self.models_path = f"{prefix}/models"
        self.model = model

    def _chunk(self, delta: dict, finish: str | None = None) -> bytes:
        payload = {
            "id": "chatcmpl-1",
            "object": "chat.completion.chunk",
            "created": 1700000000,
            "model": self.model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }
        return b"data: " + json.dumps(payload).encode() + b"\n\n"

    def opening(self) -> list[bytes]:
        return [self._chunk({"role": "assistant", "content": ""})]

    def delta(self, text: str) -> bytes:
        return self._chunk({"content": text})

    def closing(self) -> list[bytes]:
        return [self._chunk({}, finish="stop"), b"data: [DONE]\n\n"]

    def completion(self, text: str) -> dict:
        return {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1700000000,
            "model": self.model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
        }

    def models(self) -> dict:
        return {"object": "list", "data": [{"id": self.model, "object": "model", "created": 0, "owned_by": "test"}]}

    def error(self, status: int, message: str) -> dict:
        return {"error": {"message": message, "type": "invalid_request_error", "code": str(status)}}

    def failure(self) -> bytes:
        return b"data: " + json.dumps({"error": {"message": "boom", "type": "server_error"}}).encode() + b"\n\n"


class AnthropicProtocol:
    """Messages API: named SSE events from `message_start` to `message_stop`."""

    content_type = "text/event-stream"
    stream_path = "/v1/messages"
    models_path = "/v1/models"

    def __init__(self, model: str = "claude-haiku-4-5") -> None:
        self.model = model

    @staticmethod
    def _event(payload: dict) -> bytes:
        return f"event: {payload['type']}\ndata: {json.dumps(payload)}\n\n".encode()

    def _message(self, content: list, stop: str | None) -> dict:
        return {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": self.model,
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 1},
        }

    def opening(self) -> list[bytes]:
        return [
            self._event({"type": "message_start", "message": self._message([], None)}),
            self._event({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
            self._event({"type": "ping"}),
        ]

    def delta(self, text: str) -> bytes:
        return self._event({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}})

    def closing(self) -> list[bytes]:
        return [
            self._event({"type": "content_block_stop", "index": 0}),
            self._event(
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                    "usage": {"output_tokens": 15},
                }
            ),
            self._event({"type": "message_stop"}),
        ]

    def completion(self, text: str) -> dict:
        return self._message([{"type": "text", "text": text}], "end_turn")

    def models(self) -> dict:
        model = {"type": "model", "id": self.model, "display_name": "Test", "created_at": "2025-01-01T00:00:00Z"}
        return {"data": [model], "has_more": False, "first_id": self.model, "last_id": self.model}

    def error(self, status: int, message: str) -> dict:
        kinds = {401: "authentication_error", 429: "rate_limit_error", 500: "api_error"}
        return {"type": "error", "error": {"type": kinds.get(status, "api_error"), "message": message}}

    def failure(self) -> bytes:
        return self._event({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})


class OllamaProtocol:
    """`/api/chat`: one JSON object per line, the last with `"done": true`."""

    content_type = "application/x-ndjson"
    stream_path = "/api/chat"
    models_path = "/api/tags"

    def __init__(self, model: str = "qwen2.5:1.5b") -> None:
        self.model = model

    def _part(self, text: str, done: bool) -> dict:
        part = {
            "model": self.model,
            "created_at": "2025-01-01T00:00:00Z",
            "message": {"role": "assistant", "content": text},
            "done": done,
        }
        if done:
            part.update(done_reason="stop", total_duration=1000, eval_count=5)
        return part

    def opening(self) -> list[bytes]:
        return []

    def delta(self, text: str) -> bytes:
        return json.dumps(self._part(text, False)).encode() + b"\n"

    def closing(self) -> list[bytes]:
        return [json.dumps(self._part("", True)).encode() + b"\n"]

    def completion(self, text: str) -> dict:
        return self._part(text, True)

    def models(self) -> dict:
        entry = {"name": self.model, "model": self.model, "modified_at": "2025-01-01T00:00:00Z", "size": 1}
        return {"models": [{**entry, "digest": "0"}]}

    def error(self, status: int, message: str) -> dict:
        return {"error": message}

    def failure(self) -> bytes:
        return json.dumps({"error": "boom"}).encode() + b"\n"


# --- scripted server -----------------------------------------------------------------------------


@dataclass
class Script:
    """What the server does with the next requests."""

    deltas: tuple[str, ...] = ("Olá", ", irmão", ". Paz!")
    status: int = 200
    # Echo the request's credentials into the error body: the worst case for key leaks.
    echo_credentials: bool = False
    delay: float = 0.0  # seconds between frames
    stall_headers: bool = False  # hold the response before any header
    stall_after: int | None = None  # hold the response after this many frames
    cut_after: int | None = None  # close the socket after this many frames
    fail_after: int | None = None  # send the protocol's in-stream error after this many frames
    chunked: bool = True  # False: `Connection: close` body ending at EOF
    trickle: bool = False  # after the deltas, send filler deltas every `delay` until the client leaves
    trickle_body: bool = False  # a non-streaming reply sent one byte every `delay` (a slow upstream)


@dataclass
class Request:
    method: str
    path: str
    headers: dict
    body: dict | None


@dataclass
class LoopbackServer:
    """A ThreadingHTTPServer on 127.0.0.1 (random port) answering as `protocol` per `script`."""

    protocol: object
    script: Script = field(default_factory=Script)
    requests: list[Request] = field(default_factory=list)
    # Set when a write fails because the client closed the connection.
    client_gone: threading.Event = field(default_factory=threading.Event)
    stop: threading.Event = field(default_factory=threading.Event)
    body_bytes: list[int] = field(default_factory=list)  # (sent, total) of a trickled body, as it goes

    def __enter__(self) -> LoopbackServer:
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        # Release handlers held in pauses or trickles before shutting down.
        self.stop.set()
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}"

    def frames(self) -> list[bytes]:
        protocol = self.protocol
        return [*protocol.opening(), *(protocol.delta(d) for d in self.script.deltas), *protocol.closing()]


def _handler_for(app: LoopbackServer) -> type[BaseHTTPRequestHandler]:
    class Handler(_Handler):
        server_app = app

    return Handler


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_app: LoopbackServer

    def log_message(self, *args) -> None:  # keep test output quiet
        pass

    # --- routing --------------------------------------------------------------------------------

    def do_GET(self) -> None:
        app = self.server_app
        app.requests.append(Request("GET", self.path, dict(self.headers), None))
        if self.path.split("?")[0] == app.protocol.models_path and app.script.status == 200:
            self._json(200, app.protocol.models())
        else:
            self._error(app.script.status if app.script.status != 200 else 404)

    def do_POST(self) -> None:
        app = self.server_app
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        app.requests.append(Request("POST", self.path, dict(self.headers), body))
        script = app.script
        if script.stall_headers and self._hold():
            return
        if self.path != app.protocol.stream_path:
            self._error(404)
        elif script.status != 200:
            self._error(script.status)
        elif body.get("stream", isinstance(app.protocol, OllamaProtocol)):
            self._stream(script)
        elif script.trickle_body:
            self._trickle_json(app.protocol.completion("".join(script.deltas)), script.delay)
        else:
            self._json(200, app.protocol.completion("".join(script.deltas)))

    # --- responses ------------------------------------------------------------------------------

    def _hold(self) -> bool:
        """Pause until the test ends; True when the server is stopping."""
        self.server_app.stop.wait(MAX_HOLD)
        self.close_connection = True
        return True

    def _json(self, status: int, payload: dict) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)
        self.close_connection = True

    def _trickle_json(self, payload: dict, delay: float) -> None:
        """A complete, valid JSON reply whose body arrives one byte every `delay` seconds; the
        bytes sent so far are recorded so a test can tell the client left before the end."""
        data = json.dumps(payload).encode()
        self.server_app.body_bytes[:] = [0, len(data)]
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        for i in range(len(data)):
            if self.server_app.stop.wait(delay) or not self._send_raw(data[i : i + 1]):
                return
            self.server_app.body_bytes[0] = i + 1

    def _error(self, status: int) -> None:
        message = f"scripted error {status}"
        if self.server_app.script.echo_credentials:
            message += f" for {self.headers.get('Authorization')} {self.headers.get('x-api-key')}"
        self._json(status, self.server_app.protocol.error(status, message))

    def _stream(self, script: Script) -> None:
        self.close_connection = True
        self.send_response(200)
        self.send_header("Content-Type", self.server_app.protocol.content_type)
        self.send_header("Connection", "close")
        if script.chunked:
            self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        protocol = self.server_app.protocol
        frames = self.server_app.frames()
        if script.fail_after is not None:
            frames = [*frames[: script.fail_after], protocol.failure()]
        if script.trickle:
            frames = frames[: len(frames) - len(protocol.closing())]
        for index, frame in enumerate(frames):
            if index and script.delay and self.server_app.stop.wait(script.delay):
                return
            if script.cut_after == index or (script.stall_after == index and self._hold()):
                return  # the socket is closed without the end of the body
            if not self._send(frame, script.chunked):
                return
        if script.trickle:
            self._trickle(script)
        elif script.chunked:
            self._send_raw(b"0\r\n\r\n")

    def _trickle(self, script: Script) -> None:
        """Keep sending filler deltas until a write fails (the client closed) or the test ends."""
        deadline = MAX_HOLD / max(script.delay, 0.01)
        for _ in range(int(deadline)):
            if self.server_app.stop.wait(script.delay or 0.01):
                return
            if not self._send(self.server_app.protocol.delta("."), script.chunked):
                return

    def _send(self, frame: bytes, chunked: bool) -> bool:
        return self._send_raw(b"%x\r\n%s\r\n" % (len(frame), frame) if chunked else frame)

    def _send_raw(self, data: bytes) -> bool:
        try:
            self.wfile.write(data)
            self.wfile.flush()
            return True
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            self.server_app.client_gone.set()
            return False
