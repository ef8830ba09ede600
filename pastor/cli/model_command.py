"""`python -m pastor model`: download and load the local model now, with progress, before serving."""

from __future__ import annotations

import sys
import time
from typing import cast

from pastor.config import get_settings
from pastor.providers import ProviderError, build
from pastor.providers.local_provider import LocalProvider, state_text

PROGRESS_EVERY = 1.0  # seconds between progress lines


def prepare(provider, out=None, timeout: float | None = None) -> bool:
    """Start the provider's background preparation (the local model's download and load) and print its
    progress until it is ready or failed; True when the provider can answer. Other providers: True."""
    store = getattr(provider, "store", None)
    if store is None:
        return True
    out = out or sys.stderr
    provider.start()
    deadline = None if timeout is None else time.monotonic() + timeout
    last = ""
    while True:
        state = store.state()
        line = f"modelo local: {state_text(state)}"
        if line != last and state.phase != "idle":  # idle: the background thread has not begun yet
            print(line, file=out, flush=True)
            last = line
        if state.phase in ("ready", "failed") or (deadline and time.monotonic() > deadline):
            return state.phase == "ready"
        store.wait(PROGRESS_EVERY)


def cmd_model(args) -> int:
    settings = get_settings()
    if args.model:
        settings = settings.replace(local_model=args.model)
    try:
        provider = cast(LocalProvider, build("local", settings, {}))  # "local" builds a LocalProvider
    except ProviderError as exc:
        print(f"erro: {exc.user_message}", file=sys.stderr)
        return 2
    ready = prepare(provider)
    if ready:
        print(f"pronto: {provider.model} em {provider.store.folder}")
    return 0 if ready else 1


def register_model(sub) -> None:
    p = sub.add_parser("model", help="baixa (uma vez) e carrega o modelo local, mostrando o progresso")
    p.add_argument("--model", default="", help="id do Hugging Face Hub ou pasta (padrão: PASTOR_LOCAL_MODEL)")
    p.set_defaults(func=cmd_model)
