"""The local model's runtime: transformers + torch on CPU, with chunked prefill and a prompt-prefix cache."""

from __future__ import annotations

import copy
import inspect
import os
import threading
from collections.abc import Iterator
from pathlib import Path

from pastor.providers.local_store import LocalModelError

PREFILL_CHUNK = 256  # prompt tokens per forward pass: a cancel waits at most one chunk
PREFIX_CACHE = 4  # system prompts kept (one per answer mode in use)


def generation_threads() -> int:
    """Torch threads for the one generation that runs at a time (`FairSlot`): every core this process may use.

    Measured with `python -m bench.bench_local_model --in-app` (Qwen2.5-0.5B's shape with random weights, bfloat16,
    the index, embedder and trained router loaded, 3 members asking at once, 250 tokens an answer; 2 cores shared
    with other work at load average 9-13, the bench's session given priority), tokens/s and first token per member:
    - 2 threads, one generation at a time: 5.6-6.1 tokens/s; first token 4.4 s, then 47.6 and 90.1 s in the queue;
    - 1 thread, one at a time (a core left to the app): 4.3-4.8 tokens/s; first token 7.4, 66.4 and 121.6 s;
    - 3 at once, 1 thread each: 2.3 tokens/s each, first token 11.9-13.1 s; 2 threads each (6 on 2 cores):
      2.4-2.9 tokens/s, 9.3-12.1 s.
    Only all cores for one answer at a time gives the member being answered 5 tokens/s or more."""
    return max(1, len(os.sched_getaffinity(0)))


def native_bf16() -> bool:
    """Whether the CPU computes bfloat16 natively (AVX512-BF16 or AMX); elsewhere bf16 is slower than fp32."""
    try:
        flags = Path("/proc/cpuinfo").read_text(encoding="ascii", errors="ignore")
    except OSError:
        return False
    return " avx512_bf16" in flags or " amx_bf16" in flags


def choose_dtype(name: str) -> str:
    if name == "auto":
        return "bfloat16" if native_bf16() else "float32"
    if name not in ("bfloat16", "float32"):
        raise LocalModelError(f"PASTOR_LOCAL_DTYPE: use auto, bfloat16 ou float32 (recebido {name!r})")
    return name


class TorchRuntime:
    """A causal LM and its tokenizer; `generate` yields text deltas until EOS, the token cap or `stop`."""

    def __init__(self, model, tokenizer, dtype: str) -> None:
        self.model = model
        self.tokenizer = tokenizer
        self.dtype = dtype
        self.description = f"transformers {dtype}"
        eos = model.generation_config.eos_token_id
        self.eos_ids = set(eos if isinstance(eos, (list, tuple)) else [eos]) - {None}
        if tokenizer.eos_token_id is not None:
            self.eos_ids.add(tokenizer.eos_token_id)
        self._prefixes: list[tuple[tuple[int, ...], object]] = []
        # transformers 5 renamed the forward's `past_key_values` to `cache`; accept both.
        self._cache_arg = "cache" if "cache" in inspect.signature(model.forward).parameters else "past_key_values"
        self._prefix_lock = threading.Lock()

    @classmethod
    def load(cls, folder: Path, dtype: str = "auto") -> TorchRuntime:
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        chosen = choose_dtype(dtype)
        torch.set_num_threads(generation_threads())
        try:
            tokenizer = AutoTokenizer.from_pretrained(folder)
            model = AutoModelForCausalLM.from_pretrained(folder, dtype=getattr(torch, chosen))
        except (OSError, ValueError) as exc:
            raise LocalModelError(f"não foi possível carregar o modelo local ({type(exc).__name__})") from None
        if not getattr(tokenizer, "chat_template", None):
            raise LocalModelError("o modelo local não tem modelo de conversa (chat_template): use um modelo instruct")
        model.eval()
        return cls(model, tokenizer, chosen)

    # -- prompt -------------------------------------------------------------------------------------
    def prompt_ids(self, system: str, messages: list[dict]) -> list[int]:
        """The chat template applied to the system prompt and messages, ready for the assistant's reply."""
        chat = [{"role": "system", "content": system}, *messages]
        ids = self.tokenizer.apply_chat_template(chat, add_generation_prompt=True, tokenize=True)
        if isinstance(ids, dict) or hasattr(ids, "keys"):  # newer tokenizers return a BatchEncoding
            ids = ids["input_ids"]
        return list(ids)

    def system_ids(self, system: str) -> list[int]:
        """The tokens of the system block alone: the prefix every turn of one mode shares."""
        ids = self.tokenizer.apply_chat_template([{"role": "system", "content": system}], tokenize=True)
        return list(ids["input_ids"] if hasattr(ids, "keys") else ids)

    # -- generation ---------------------------------------------------------------------------------
    def generate(
        self, ids: list[int], *, stop: threading.Event, max_new_tokens: int, temperature: float, shared_prefix: int = 0
    ) -> Iterator[str]:
        """Text deltas of the reply to `ids`; `shared_prefix` tokens of `ids` may be served from the cache."""
        import torch

        with torch.inference_mode():
            cache, done = self._cached(ids, shared_prefix)
            logits = None
            for start in range(done, len(ids), PREFILL_CHUNK):
                if stop.is_set():
                    return
                logits, cache = self._forward(ids[start : start + PREFILL_CHUNK], cache)
            if shared_prefix and done < shared_prefix:
                self._remember(ids[:shared_prefix], cache)
            if logits is None:  # the whole prompt was cached: run its last token again
                _crop_to(cache, len(ids) - 1)
                logits, cache = self._forward(ids[-1:], cache)
            yield from self._decode(logits, cache, stop, max_new_tokens, temperature)

    def _forward(self, chunk: list[int], cache):
        import torch

        kwargs = {self._cache_arg: cache}
        out = self.model(input_ids=torch.tensor([chunk]), use_cache=True, logits_to_keep=1, **kwargs)
        return out.logits[0, -1].float(), getattr(out, "cache", None) or out.past_key_values

    def _decode(self, logits, cache, stop, max_new_tokens: int, temperature: float) -> Iterator[str]:
        generated: list[int] = []
        shown = ""
        for _ in range(max_new_tokens):
            if stop.is_set():
                return
            token = _pick(logits, temperature)
            if token in self.eos_ids:
                return
            generated.append(token)
            text = self.tokenizer.decode(generated, skip_special_tokens=True)
            # An incomplete UTF-8 sequence decodes as U+FFFD: wait for the next token to complete it.
            if len(text) > len(shown) and not text.endswith("\ufffd"):
                yield text[len(shown) :]
                shown = text
            logits, cache = self._forward([token], cache)

    # -- prefix cache -------------------------------------------------------------------------------
    def _cached(self, ids: list[int], shared_prefix: int):
        """(a copy of the cache for the longest remembered prefix of `ids`, its length) or (None, 0)."""
        with self._prefix_lock:
            for prefix, cache in self._prefixes:
                if len(prefix) <= shared_prefix and tuple(ids[: len(prefix)]) == prefix:
                    return copy.deepcopy(cache), len(prefix)
        return None, 0

    def _remember(self, prefix: list[int], cache) -> None:
        snapshot = copy.deepcopy(cache)
        _crop_to(snapshot, len(prefix))
        with self._prefix_lock:
            self._prefixes = [(tuple(prefix), snapshot), *self._prefixes][:PREFIX_CACHE]


def _crop_to(cache, length: int) -> None:
    """Keep the first `length` positions of `cache` (its `crop` takes the number of tokens to remove)."""
    extra = cache.get_seq_length() - length
    if extra > 0:
        cache.crop(-extra)


def _pick(logits, temperature: float) -> int:
    """Greedy at temperature 0; otherwise nucleus sampling (top-p 0.9) at `temperature`."""
    import torch

    if temperature <= 0:
        return int(logits.argmax())
    probs = torch.softmax(logits / temperature, dim=-1)
    ordered, order = probs.sort(descending=True)
    keep = ordered.cumsum(0) - ordered < 0.9
    ordered = ordered * keep
    return int(order[torch.multinomial(ordered / ordered.sum(), 1)])
