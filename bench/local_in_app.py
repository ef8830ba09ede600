"""The local model while the app works (`python -m bench.bench_local_model --in-app`): one child process per
setting loads what the app loads (the index, the embedder, the trained router), then 3 members ask at once
through the app's own chat service and local provider, over Qwen2.5-0.5B's architecture with random weights.

Per member: first token (from sending the message to the model's first token, queueing, routing, retrieval
and prefill included) and tokens/s while the model writes that member's answer."""

from __future__ import annotations

import json
import os
import statistics
import threading
import time

from bench.bench_local_model import COMMON, SHAPES, chatml, qwen_ids

MEMBERS = (
    "Estou com medo do futuro. Perdi o emprego e não sei como vou pagar as contas.",
    "Como perdoar quem me feriu tanto? Meu irmão me traiu e não consigo esquecer.",
    "Minha mãe morreu mês passado e sinto um vazio enorme. Onde está Deus agora?",
)


class ChatTokenizer:
    """What TorchRuntime needs of a tokenizer, with Qwen2.5's BPE (quicktok) and chat template (ChatML)."""

    eos_token_id = COMMON["eos_token_id"]

    def apply_chat_template(self, chat: list[dict], add_generation_prompt: bool = False, tokenize: bool = True):
        system, messages = chat[0]["content"], chat[1:]
        whole, block = chatml(system, messages)
        return qwen_ids(whole if add_generation_prompt else block)

    def decode(self, ids, skip_special_tokens: bool = True) -> str:
        import quicktok

        return quicktok.get_encoding("qwen3").decode([i for i in ids if i < 151643])


class ReadyStore:
    """A model store whose model is already loaded (the provider's ModelStore, without a download)."""

    def __init__(self, runtime) -> None:
        self.model = runtime

    def start(self) -> None:
        return None

    def state(self):
        from pastor.providers.local_store import ModelState

        return ModelState("ready", "random-weights", runtime=self.model.description)


class Timeline:
    """When each member's generation began, wrote its first token and ended, and how many tokens it wrote. The
    chat service reads the provider's stream in a worker thread: the member's name goes with the stream."""

    def __init__(self) -> None:
        self.generations: dict[str, dict] = {}
        self.local = threading.local()

    def wrap(self, provider, runtime) -> None:
        from pastor.providers import local_torch

        stream, generate = provider.stream, runtime.generate

        def tagged(system, messages, cancel=None):
            member, inner = threading.current_thread().name, stream(system, messages, cancel)

            def named():
                self.local.member = member  # in the thread that runs the generation below
                yield from inner

            return named()

        def timed(ids, **kwargs):
            self.generations[self.local.member] = record = {"prompt_tokens": len(ids), "tokens": 0}
            yield from generate(ids, **kwargs)
            record["end"] = time.monotonic()

        def counted(logits, temperature):  # once per token written (a token may show no text yet)
            record = self.generations[self.local.member]
            record["tokens"] += 1
            record.setdefault("first", time.monotonic())
            return pick(logits, temperature)

        pick = local_torch._pick
        provider.stream, runtime.generate, local_torch._pick = tagged, timed, counted


def random_model(threads: int):
    """Qwen2.5-0.5B's shape with random weights, in the dtype the app would choose, and its runtime."""
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM

    from pastor.providers.local_torch import TorchRuntime, choose_dtype

    torch.set_num_threads(threads)
    dtype = choose_dtype("auto")
    torch.manual_seed(0)
    torch.set_default_dtype(getattr(torch, dtype))
    model = Qwen2ForCausalLM(Qwen2Config(**COMMON, **SHAPES["0.5b"])).eval()
    torch.set_default_dtype(torch.float32)
    runtime = TorchRuntime(model, ChatTokenizer(), dtype)
    runtime.eos_ids = set()  # random weights must not stop early: every answer has its full length
    return runtime


def load_app(data_dir: str):
    """The engine with its complete index and the trained router, as the app has them once started."""
    from pastor.config import Settings
    from pastor.wiring import build_engine, build_router

    settings = Settings.from_env({**os.environ, "PASTOR_DATA_DIR": data_dir, "LLM_PROVIDER": "local"})
    engine = build_engine(settings)
    engine.start_indexing(background=False)  # a complete index: its vectors, topics and adapter load
    assert engine.retriever.vectors_ready, "o índice em --with-index não está completo"
    return settings, engine, build_router(settings, engine)


def in_app_child(data_dir: str, threads: int, tokens: int, parallel: bool) -> dict:
    """3 members at once through the app's chat service; the figures as one JSON-able dict."""
    from pastor.providers.local_provider import LocalProvider
    from pastor.wiring import build_chat

    settings, engine, router = load_app(data_dir)
    runtime = random_model(threads)
    provider = LocalProvider(store=ReadyStore(runtime), max_new_tokens=tokens, temperature=settings.local_temperature)
    timeline = Timeline()
    timeline.wrap(provider, runtime)
    if parallel:  # every member's generation at once instead of one at a time (FairSlot)
        provider.slot.hold = lambda cancel: _always(cancel)
    chat = build_chat(settings, engine, provider, router=router)
    chat.deadline = 3600.0  # every answer written whole, so each one's speed is measured
    sent: dict[str, float] = {}
    outcome: dict[str, str] = {}
    barrier = threading.Barrier(len(MEMBERS))

    def member(index: int) -> None:
        barrier.wait()
        sent[threading.current_thread().name] = time.monotonic()
        final = list(chat.turn(MEMBERS[index]))[-1]
        outcome[threading.current_thread().name] = final.result.mode

    load = os.getloadavg()[0]
    workers = [threading.Thread(target=member, args=(i,), name=f"member-{i + 1}") for i in range(len(MEMBERS))]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    rows = []
    for name, record in sorted(timeline.generations.items()):
        writing = record["end"] - record["first"]
        rows.append(
            {
                "member": name,
                "mode": outcome.get(name),
                "prompt_tokens": record["prompt_tokens"],
                "first_token_s": round(record["first"] - sent[name], 2),
                "tokens_per_s": round((record["tokens"] - 1) / writing, 2) if writing > 0 else 0.0,
            }
        )
    return {"threads": threads, "parallel": parallel, "tokens": tokens, "load_before": load, "members": rows}


def _always(cancel):
    import contextlib

    @contextlib.contextmanager
    def held():
        yield True

    return held()


def summary(result: dict) -> str:
    firsts = [m["first_token_s"] for m in result["members"]]
    speeds = [m["tokens_per_s"] for m in result["members"]]
    p95 = sorted(firsts)[min(len(firsts) - 1, round(0.95 * (len(firsts) - 1)))]
    how = "3 at once" if result["parallel"] else "one at a time"
    return (
        f"{result['threads']} thread(s), {how} | first token s {firsts} (p95 {p95}) | tokens/s {speeds} "
        f"(median {statistics.median(speeds):.2f}) | load before {result['load_before']:.2f}"
    )


def print_row(result: dict) -> None:
    print(summary(result), flush=True)
    print("  " + json.dumps(result["members"], ensure_ascii=False), flush=True)
