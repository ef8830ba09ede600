"""The `local` provider: an instruct model inside the app's process, no server."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

from pastor.providers.fairslot import FairSlot
from pastor.providers.local_store import ModelStore
from pastor.providers.local_torch import TorchRuntime
from pastor.providers.provider import API_CHOICE, Provider, ProviderError

# Chosen by bench/bench_local_model.py: the largest Qwen2.5 instruct model whose first token arrives within
# 10 s on 2 CPU cores with the app's real prompt (the 1.5B model takes about 3x as long).
DEFAULT_LOCAL_MODEL = "Qwen/Qwen2.5-0.5B-Instruct"
MEGABYTE = 1024 * 1024
RETRY_AFTER = 30.0  # seconds before a failed download is tried again by a status check

# The line members read above the verses while the model downloads or loads, in their own words.
PREPARING_NOTICE = "ainda estou me preparando para conversar; por enquanto, deixo aqui alguns versículos que encontrei"


def state_text(state) -> str:
    """The local model's state in one Portuguese phrase, for the status page, the CLI and the turn's reason."""
    if state.phase == "downloading":
        if state.retrying and not state.total_bytes:  # a retry that has not reached the hub yet: the failure holds
            return f"{state.retrying} (tentando de novo…)"
        if not state.total_bytes:
            return f"baixando {state.source} do Hugging Face Hub (consultando os arquivos…)"
        return (
            f"baixando {state.source} do Hugging Face Hub: {state.percent}% "
            f"({state.done_bytes // MEGABYTE} de {state.total_bytes // MEGABYTE} MB)"
        )
    if state.phase == "loading":
        return f"carregando {state.source} na memória"
    if state.phase == "ready":
        return f"carregado ({state.runtime})"
    if state.phase == "failed":
        return state.reason
    return "aguardando início"


def _status(state) -> dict:
    """What `check` and the status page report for a state of the local model."""
    return {"reachable": state.phase == "ready", "detail": state_text(state), "local": state.as_dict()}


class LocalProvider(Provider):
    """Generates in this process from a model folder prepared by a `ModelStore` (downloaded once)."""

    name = "local"
    default_model = DEFAULT_LOCAL_MODEL

    def __init__(
        self,
        model: str = "",
        timeout: float = 60.0,
        *,
        data_dir: Path | None = None,
        dtype: str = "auto",
        max_new_tokens: int = 400,
        temperature: float = 0.3,
        max_prompt_tokens: int = 1536,
        store: ModelStore[TorchRuntime] | None = None,
    ) -> None:
        super().__init__(model, timeout)
        self.max_new_tokens = max_new_tokens
        self.max_prompt_tokens = max_prompt_tokens
        self.temperature = temperature
        self.store: ModelStore[TorchRuntime] = store or ModelStore(
            self.model, Path(data_dir or "data") / "models", lambda folder: TorchRuntime.load(folder, dtype)
        )
        self.slot = FairSlot()

    @property
    def where(self) -> str:
        return f"modelo local {self.model}"

    def start(self) -> None:
        """Begin downloading/loading in the background (the app calls this at start)."""
        self.store.start()

    # -- public interface ---------------------------------------------------------------------------
    def stream(self, system: str, messages: list[dict], cancel: threading.Event | None = None) -> Iterator[str]:
        self.calls += 1
        return self._stream(system, list(messages), cancel or threading.Event(), self.max_new_tokens)

    def complete(
        self, system: str, messages: list[dict], max_tokens: int = 200, cancel: threading.Event | None = None
    ) -> str:
        self.calls += 1
        return "".join(self._stream(system, list(messages), cancel or threading.Event(), max_tokens))

    def check(self) -> dict:
        state = self.store.state()
        if state.phase == "failed" and time.time() - state.since > RETRY_AFTER:
            self.store.start()  # "Verificar de novo" (and the status page's probe) retries, not every turn
        return _status(state)

    def live_status(self) -> dict:
        return _status(self.store.state())

    def member_notice(self) -> str:
        state = self.store.state()
        if state.phase in ("idle", "downloading", "loading") and not state.retrying:
            return PREPARING_NOTICE
        return super().member_notice()

    def setup_hint(self) -> str:
        # Not its state: the status and the turn's reason say it already, right beside the hint.
        return (
            f"Modelo local {self.model}: com internet, ele é baixado uma vez para "
            f"PASTOR_DATA_DIR/models; sem internet, aponte PASTOR_LOCAL_MODEL para uma pasta com o modelo, "
            f"ou {API_CHOICE}."
        )

    # -- generation ---------------------------------------------------------------------------------
    def _fitted(self, runtime: TorchRuntime, system: str, messages: list[dict]) -> list[int]:
        """The prompt's ids within `max_prompt_tokens`, dropping the oldest exchanges of history first:
        on a CPU every prompt token costs first-token time, and old turns help the answer least."""
        ids = runtime.prompt_ids(system, messages)
        while len(ids) > self.max_prompt_tokens and len(messages) > 2:
            messages = messages[2:]  # one user + assistant exchange; the question is always last
            ids = runtime.prompt_ids(system, messages)
        return ids

    def _runtime(self) -> TorchRuntime:
        runtime = self.store.model
        if runtime is None:
            state = self.store.state()
            raise ProviderError(
                "unreachable",
                f"O modelo local não está pronto: {state_text(state)}.",
                provider=self.name,
                detail=f"modelo local: {state.phase}",
            )
        return runtime

    def _stream(self, system: str, messages: list[dict], cancel: threading.Event, max_tokens: int) -> Iterator[str]:
        runtime = self._runtime()  # raised before the first word: the turn shows the verses instead
        with self.slot.hold(cancel) as mine:
            if not mine:
                return
            try:
                ids = self._fitted(runtime, system, messages)
                shared = len(runtime.system_ids(system))
                yield from runtime.generate(
                    ids, stop=cancel, max_new_tokens=max_tokens, temperature=self.temperature, shared_prefix=shared
                )
            except (RuntimeError, ValueError, IndexError) as exc:  # torch/tokenizer failures mid-generation
                raise self.error("stream", detail=type(exc).__name__) from None
