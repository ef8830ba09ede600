"""A loopback stand-in for the Hugging Face hub's HTTP API, serving one model folder: enough of the protocol
(revision info, tree listing, HEAD/GET of resolve URLs) for `huggingface_hub.snapshot_download`, with an
optional pause per chunk so a test can watch the download's progress."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

COMMIT = "0123456789abcdef0123456789abcdef01234567"
CHUNK = 64 * 1024


class FakeHub:
    """`with FakeHub("org/name", folder) as hub:` serves `folder` as that repository at `hub.url`."""

    def __init__(self, repo: str, folder: Path, *, pause: float = 0.0) -> None:
        self.repo, self.folder, self.pause = repo, Path(folder), pause
        self.files = {p.name: p.read_bytes() for p in sorted(self.folder.iterdir()) if p.is_file()}
        self.gets: list[str] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> FakeHub:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()

    def tree(self) -> list[dict]:
        return [
            {"type": "file", "path": name, "size": len(data), "oid": hashlib.sha1(data).hexdigest()}
            for name, data in self.files.items()
        ]


def _handler(hub: FakeHub):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:  # quiet
            pass

        def _json(self, payload) -> None:
            body = json.dumps(payload).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _file(self, name: str, with_body: bool) -> None:
            data = hub.files.get(name)
            if data is None:
                self.send_response(404)
                self.send_header("X-Error-Code", "EntryNotFound")
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("X-Repo-Commit", COMMIT)
            self.send_header("ETag", f'"{hashlib.sha1(data).hexdigest()}"')
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if with_body:
                hub.gets.append(name)
                for start in range(0, len(data), CHUNK):
                    self.wfile.write(data[start : start + CHUNK])
                    if hub.pause:
                        time.sleep(hub.pause)

        def _route(self, with_body: bool) -> None:
            path = unquote(urlsplit(self.path).path)
            api = f"/api/models/{hub.repo}"
            if path.startswith(f"{api}/revision/"):
                return self._json({"id": hub.repo, "sha": COMMIT, "siblings": [{"rfilename": n} for n in hub.files]})
            if path.startswith(f"{api}/tree/"):
                return self._json(hub.tree())
            prefix = f"/{hub.repo}/resolve/"
            if path.startswith(prefix):
                return self._file(path[len(prefix) :].split("/", 1)[1], with_body)
            self.send_response(404)
            self.send_header("X-Error-Code", "RepoNotFound")
            self.end_headers()

        def do_GET(self) -> None:  # noqa: N802
            self._route(True)

        def do_HEAD(self) -> None:  # noqa: N802
            self._route(False)

    return Handler
