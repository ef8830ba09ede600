"""Where the local model's files come from: a folder, or the Hugging Face hub into the data directory."""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Generic, TypeVar

from pastor.errors import PastorError

log = logging.getLogger("pastor.providers")

COMPLETE_MARK = ".pastor-complete"
# Weights, config and tokenizer; not the other formats a repository may carry (gguf, onnx, pytorch .bin).
ALLOW = ["*.json", "*.safetensors", "*.txt", "*.model", "*.jinja", "merges.txt", "vocab.json"]


@dataclass(frozen=True)
class ModelState:
    """What the status page says about the local model: phase, bytes so far, and why it failed."""

    phase: str  # idle, downloading, loading, ready or failed
    source: str
    done_bytes: int = 0
    total_bytes: int = 0
    reason: str = ""
    since: float = 0.0
    runtime: str = ""  # e.g. "transformers, bfloat16", once loaded
    retrying: str = ""  # while a new attempt downloads: why the previous one failed (it still holds)

    def as_dict(self) -> dict:
        return asdict(self)

    @property
    def percent(self) -> int:
        return int(100 * self.done_bytes / self.total_bytes) if self.total_bytes else 0


def is_local(source: str) -> bool:
    """A path to a folder (absolute, ./relative, ~) rather than a hub id like `Qwen/Qwen2.5-0.5B-Instruct`."""
    return source.startswith(("/", ".", "~")) or Path(source).expanduser().is_dir()


def folder_bytes(folder: Path) -> int:
    """Bytes under `folder`, partial downloads included (the progress of a download in flight)."""
    total = 0
    for root, _dirs, files in os.walk(folder):
        for name in files:
            try:
                total += os.path.getsize(os.path.join(root, name))
            except OSError:
                continue  # a file renamed while we walked
    return total


def download_failure(exc: BaseException, source: str) -> str:
    """A Portuguese reason for a failed download, without URLs, tokens or SDK text."""
    name = type(exc).__name__
    if name in ("RepositoryNotFoundError", "RevisionNotFoundError", "EntryNotFoundError"):
        return f"o modelo {source} não foi encontrado no Hugging Face Hub (confira PASTOR_LOCAL_MODEL)"
    if name == "GatedRepoError" or getattr(getattr(exc, "response", None), "status_code", None) in (401, 403):
        return f"o Hugging Face Hub recusou o acesso ao modelo {source} (modelo restrito ou HF_TOKEN ausente)"
    if isinstance(exc, OSError) and getattr(exc, "errno", None) == 28:
        return "não há espaço em disco para baixar o modelo local"
    return (
        f"não foi possível baixar o modelo {source} do Hugging Face Hub (sem conexão com o Hub?); "
        "tente de novo com internet ou aponte PASTOR_LOCAL_MODEL para uma pasta com o modelo"
    )


# What `load` makes of the model's folder (for the local provider, a TorchRuntime).
Model = TypeVar("Model")


class ModelStore(Generic[Model]):
    """Resolves `source` to a folder (downloading it once into `models_dir`) and loads it with `load`,
    in a background thread; `state()` says where it is. Once cached, no network is needed."""

    def __init__(
        self,
        source: str,
        models_dir: Path,
        load: Callable[[Path], Model],
        fetch: Callable[[str, Path, Callable[[int], None]], None] | None = None,
    ) -> None:
        self.source = source
        self.models_dir = Path(models_dir)
        self._load = load
        self._fetch = fetch or hub_fetch
        self._state = ModelState("idle", source, since=time.time())
        self._model: Model | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._total_bytes = 0
        self._retrying = ""

    @property
    def folder(self) -> Path:
        if is_local(self.source):
            return Path(self.source).expanduser()
        return self.models_dir / self.source.replace("/", "--")

    @property
    def model(self) -> Model | None:
        """The loaded runtime, or None until the phase is `ready`."""
        return self._model

    def start(self) -> threading.Thread | None:
        """Prepare the model in the background (again, after a failure); no-op while it runs or is ready
        (the thread that prepared it, or None when none had to)."""
        with self._lock:
            running = self._thread is not None and self._thread.is_alive()
            if not running and self._state.phase != "ready":
                self._retrying = self._state.reason if self._state.phase == "failed" else ""
                self._thread = threading.Thread(target=self._prepare, daemon=True, name="pastor-local-model")
                self._thread.start()
            return self._thread

    def wait(self, timeout: float | None = None) -> ModelState:
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
        return self.state()

    def state(self) -> ModelState:
        state = self._state
        if state.phase == "downloading":  # the bytes on disk are the progress
            done = min(folder_bytes(self.folder), self._total_bytes or 1 << 62)
            state = ModelState(**{**state.as_dict(), "done_bytes": done})
        return state

    # -- the background work ---------------------------------------------------------------------
    def _set(self, phase: str, **fields) -> None:
        retrying = self._retrying if phase == "downloading" else ""
        self._state = ModelState(phase, self.source, since=time.time(), retrying=retrying, **fields)

    def _prepare(self) -> None:
        try:
            folder = self._resolve()
            self._set("loading", total_bytes=self._total_bytes, done_bytes=self._total_bytes)
            model = self._load(folder)
        except Exception as exc:  # the status page and every turn say why; the app keeps serving verses
            reason = exc.args[0] if isinstance(exc, LocalModelError) else download_failure(exc, self.source)
            log.warning("modelo local %s não ficou pronto: %s (%s)", self.source, reason, type(exc).__name__)
            self._set("failed", reason=reason)
            return
        self._model = model
        self._set("ready", runtime=getattr(model, "description", ""))
        log.info("modelo local %s pronto (%s)", self.source, self._state.runtime)

    def _resolve(self) -> Path:
        folder = self.folder
        if is_local(self.source):
            if not (folder / "config.json").is_file():
                raise LocalModelError("a pasta de PASTOR_LOCAL_MODEL não tem um modelo (falta config.json)")
            return folder
        if (folder / COMPLETE_MARK).is_file():
            return folder  # cached: offline from here on
        self._download(folder)
        return folder

    def _download(self, folder: Path) -> None:
        self._set("downloading")
        folder.mkdir(parents=True, exist_ok=True)
        self._fetch(self.source, folder, self._announce_total)
        (folder / COMPLETE_MARK).write_text(json.dumps({"source": self.source, "bytes": self._total_bytes}))

    def _announce_total(self, total_bytes: int) -> None:
        self._retrying = ""  # the hub answered: this attempt is a download in progress now
        self._total_bytes = total_bytes
        self._set("downloading", total_bytes=total_bytes)


def hub_fetch(source: str, folder: Path, announce_total: Callable[[int], None]) -> None:
    """Download the model's weights, config and tokenizer from the Hugging Face hub into `folder`."""
    from huggingface_hub import snapshot_download  # only the local provider needs it

    listing = snapshot_download(source, allow_patterns=ALLOW, dry_run=True)
    announce_total(sum(int(getattr(f, "file_size", 0) or 0) for f in listing))
    snapshot_download(source, local_dir=folder, allow_patterns=ALLOW)


class LocalModelError(PastorError):
    """The local model cannot be used; args[0] is the Portuguese reason."""
