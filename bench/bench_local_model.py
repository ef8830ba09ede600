"""Speed and memory of the local model, measured with each candidate's exact architecture and random weights.

Generation cost depends on a model's shape, not on its weights' values, so a model built from the real
config with random weights costs what the real one costs (no download: the hub is not reachable here).
For each shape and runtime a child process (clean peak RSS) optionally loads the app's index first, builds
the model, and runs the app's real prompt: the system prompt, 6 retrieved verses from the shipped Almeida
1911, the question and a short history, tokenised with Qwen2.5's own BPE (quicktok ships it; test-only).

    python -m bench.bench_local_model                        # 0.5B and 1.5B, torch bf16 + fp32, ORT int4
    python -m bench.bench_local_model --shapes 0.5b --runtimes torch-bf16 --with-index data
    python -m bench.bench_local_model --in-app --with-index data [--threads 1,2] [--tokens 250] [--parallel]

Prints, per row: prompt tokens, time to first token (cold, then with the system prompt cached as the app
does from its second turn), tokens/s while generating, peak RSS. Targets (2 cores): first token <= 10 s,
>= 5 tokens/s, RSS <= 3 GB with the index loaded.

--in-app (bench/local_in_app.py): the 0.5B shape inside the app's own process, index, embedder and trained router
loaded, 3 members asking at once through the chat service, once per torch thread count; first token and tokens/s
per member. Targets (2 cores): first token p95 <= 10 s, >= 5 tokens/s for the member being answered.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The published configs of Qwen2.5-0.5B-Instruct and Qwen2.5-1.5B-Instruct (config.json on the hub).
SHAPES = {
    "0.5b": dict(
        hidden_size=896, intermediate_size=4864, num_hidden_layers=24, num_attention_heads=14, num_key_value_heads=2
    ),
    "1.5b": dict(
        hidden_size=1536, intermediate_size=8960, num_hidden_layers=28, num_attention_heads=12, num_key_value_heads=2
    ),
}
COMMON = dict(
    vocab_size=151936,
    max_position_embeddings=32768,
    rms_norm_eps=1e-6,
    rope_theta=1e6,
    tie_word_embeddings=True,
    bos_token_id=151643,
    eos_token_id=151645,
    use_sliding_window=False,
    hidden_act="silu",
)
RUNTIMES = ("torch-bf16", "torch-fp32", "ort-int4")
QUESTION = "Estou com medo do futuro. Perdi o emprego e não sei como vou pagar as contas."
HISTORY = [
    ("Boa noite, pastor.", "Boa noite! Estou aqui para ouvir você. O que está no seu coração hoje?"),
    (
        "Ando muito ansioso ultimamente.",
        "Sinto muito que esteja ansioso. Filipenses 4:6 nos convida a "
        "apresentar a Deus, em oração, tudo o que nos aflige. Quer me contar o que mais pesa?",
    ),
]
VERSES = ("MAT 6:34", "PHP 4:6", "ISA 41:10", "PSA 23:4", "JER 29:11", "MAT 11:28")


# -- the prompt ---------------------------------------------------------------------------------------------
def app_prompt(history_exchanges: int) -> tuple[str, list[dict]]:
    """(system, messages) exactly as the chat service builds them for a RAG turn."""
    from pastor.answer import prompts
    from pastor.answer.history import History
    from pastor.answer.turn_modes import Mode
    from pastor.bible.usfx import load_bible
    from pastor.search.results import Source

    bible = load_bible(ROOT / "corpus" / "por-almeida1911.usfx.xml.gz")
    sources = [Source(id=v, reference=bible.by_id[v].reference, text=bible.by_id[v].text) for v in VERSES]
    history = []
    for user, assistant in HISTORY[:history_exchanges]:
        history += [{"role": "user", "content": user}, {"role": "assistant", "content": assistant}]
    return prompts.build_messages(Mode.RAG, QUESTION, sources, History.checked(history, 4000), history_turns=10)


def chatml(system: str, messages: list[dict]) -> tuple[str, str]:
    """(whole prompt, system block) in Qwen2.5's chat template (ChatML)."""
    block = f"<|im_start|>system\n{system}<|im_end|>\n"
    turns = "".join(f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in messages)
    return block + turns + "<|im_start|>assistant\n", block


def qwen_ids(text: str) -> list[int]:
    import quicktok  # bench-only: Qwen2.5's exact BPE without a hub download

    return [int(i) for i in quicktok.get_encoding("qwen3").encode(text, allowed_special="all")]


# -- one measurement (child process) --------------------------------------------------------------------
def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def build_hf(shape: str, folder: Path, dtype: str) -> Path:
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM

    torch.manual_seed(0)
    torch.set_default_dtype(getattr(torch, dtype))
    model = Qwen2ForCausalLM(Qwen2Config(**COMMON, **SHAPES[shape]))
    torch.set_default_dtype(torch.float32)
    model.save_pretrained(folder)
    return folder


class IdsTokenizer:
    """What TorchRuntime needs of a tokenizer when the prompt comes as ids: decode and the end token."""

    eos_token_id = COMMON["eos_token_id"]

    def decode(self, ids, skip_special_tokens=True):
        import quicktok

        return quicktok.get_encoding("qwen3").decode([i for i in ids if i < 151643])


def measure_torch(shape: str, dtype: str, ids: list[int], system_len: int, new_tokens: int) -> dict:
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM

    from pastor.providers.local_torch import TorchRuntime

    torch.manual_seed(0)
    torch.set_default_dtype(getattr(torch, dtype))  # built in its dtype, as from_pretrained loads it
    model = Qwen2ForCausalLM(Qwen2Config(**COMMON, **SHAPES[shape])).eval()
    torch.set_default_dtype(torch.float32)
    model.generation_config.eos_token_id = -1  # random weights must not stop early: measure full length
    runtime = TorchRuntime(model, IdsTokenizer(), dtype)
    runtime.eos_ids = set()
    return timed(
        lambda: runtime.generate(
            ids, stop=threading.Event(), max_new_tokens=new_tokens, temperature=0, shared_prefix=system_len
        )
    )


def measure_ort(shape: str, ids: list[int], new_tokens: int) -> dict:
    import numpy as np
    import onnxruntime_genai as og

    with tempfile.TemporaryDirectory() as tmp:
        hf = build_hf(shape, Path(tmp) / "hf", "bfloat16")
        out = Path(tmp) / "ort"
        started = time.perf_counter()
        subprocess.run(
            [
                sys.executable,
                "-m",
                "onnxruntime_genai.models.builder",
                "-i",
                str(hf),
                "-o",
                str(out),
                "-p",
                "int4",
                "-e",
                "cpu",
                "-c",
                str(Path(tmp) / "cache"),
                "--extra_options",
                "int4_accuracy_level=4",
            ],
            check=True,
            capture_output=True,
        )
        convert = time.perf_counter() - started
        model = og.Model(str(out))

        def stream():
            params = og.GeneratorParams(model)
            params.set_search_options(max_length=len(ids) + new_tokens, min_length=len(ids) + new_tokens)
            generator = og.Generator(model, params)
            generator.append_tokens(np.array(ids, dtype=np.int32))
            for _ in range(new_tokens):
                generator.generate_next_token()
                yield "x"

        result = timed(stream, warm=False)
        result["convert_s"] = round(convert, 1)
        return result


def timed(make_stream, warm: bool = True) -> dict:
    """First-token time (cold; then warm: the system prompt cached), tokens/s after the first, peak RSS."""
    figures = {}
    for label in ("cold", "warm") if warm else ("cold",):
        started = time.perf_counter()
        first, count = None, 0
        for _ in make_stream():
            count += 1
            if first is None:
                first = time.perf_counter()
        end = time.perf_counter()
        figures[f"first_token_{label}_s"] = round(first - started, 2)
        figures[f"tokens_per_s_{label}"] = round((count - 1) / (end - first), 2) if count > 1 else 0.0
    return figures


def child(args) -> None:
    if args.with_index:
        from pastor.config import Settings
        from pastor.wiring import build_engine

        engine = build_engine(Settings.from_env({**os.environ, "PASTOR_DATA_DIR": args.with_index}))
        engine.start_indexing(background=False)  # a complete index: its vectors, topics and adapter load
        assert engine.retriever.vectors_ready, "o índice em --with-index não está completo"
    index_rss = rss_mb()
    system, messages = app_prompt(args.history)
    text, block = chatml(system, messages)
    ids = qwen_ids(text)
    system_len = len(qwen_ids(block))
    if args.runtime.startswith("torch-"):
        dtype = {"torch-bf16": "bfloat16", "torch-fp32": "float32"}[args.runtime]
        figures = measure_torch(args.shape, dtype, ids, system_len, args.tokens)
    else:
        figures = measure_ort(args.shape, ids, args.tokens)
    print(
        json.dumps(
            {
                "shape": args.shape,
                "runtime": args.runtime,
                "prompt_tokens": len(ids),
                "system_tokens": system_len,
                "history": args.history,
                "rss_before_model_mb": round(index_rss),
                "peak_rss_mb": round(rss_mb()),
                **figures,
            }
        )
    )


# -- the table (parent) -----------------------------------------------------------------------------------
def run_one(shape: str, runtime: str, args) -> dict:
    command = [
        sys.executable,
        "-m",
        "bench.bench_local_model",
        "--child",
        "--shape",
        shape,
        "--runtime",
        runtime,
        "--tokens",
        str(args.tokens),
        "--history",
        str(args.history),
    ]
    if args.with_index:
        command += ["--with-index", args.with_index]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        return {"shape": shape, "runtime": runtime, "error": done.stderr.strip().splitlines()[-1:]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def in_app(args) -> None:
    """One child process per thread count (a clean torch thread pool each), its row printed as it ends."""
    from bench.local_in_app import print_row

    if not args.with_index:
        raise SystemExit("--in-app precisa de --with-index DIR (uma pasta de dados com o índice completo)")
    print(f"{os.cpu_count()} CPUs; 0.5b in the app; {args.tokens} tokens an answer; load {os.getloadavg()}")
    for threads in args.threads.split(","):
        command = [sys.executable, "-m", "bench.bench_local_model", "--child", "--in-app", "--threads", threads]
        command += ["--tokens", str(args.tokens), "--with-index", args.with_index]
        command += ["--parallel"] if args.parallel else []
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            print(f"{threads} thread(s): error {done.stderr.strip().splitlines()[-3:]}", flush=True)
            continue
        print_row(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", default="0.5b,1.5b")
    parser.add_argument("--runtimes", default=",".join(RUNTIMES))
    parser.add_argument("--tokens", type=int, default=64, help="tokens generated per measurement")
    parser.add_argument("--history", type=int, default=2, help="exchanges of history in the prompt (0-2)")
    parser.add_argument("--with-index", default="", help="data directory whose index is loaded first (RSS)")
    parser.add_argument("--in-app", action="store_true", help="3 members at once inside the app (needs --with-index)")
    parser.add_argument("--threads", default="1,2", help="--in-app: torch threads per generation, one run each")
    parser.add_argument("--parallel", action="store_true", help="--in-app: the 3 generations at once, not queued")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--shape", help=argparse.SUPPRESS)
    parser.add_argument("--runtime", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child and args.in_app:
        from bench.local_in_app import in_app_child  # it builds on this module's shapes and prompt

        print(json.dumps(in_app_child(args.with_index, int(args.threads), args.tokens, args.parallel)))
        return
    if args.child:
        child(args)
        return
    if args.in_app:
        in_app(args)
        return
    print(
        f"{os.cpu_count()} CPUs; {args.tokens} tokens generated; history {args.history} exchanges; "
        f"index loaded: {args.with_index or 'no'}"
    )
    header = (
        "shape",
        "runtime",
        "prompt (system)",
        "1st tok cold s",
        "1st tok warm s",
        "tok/s",
        "RSS before model MB",
        "peak RSS MB",
    )
    print(" | ".join(header))
    for shape in args.shapes.split(","):
        for runtime in args.runtimes.split(","):
            row = run_one(shape, runtime, args)
            if "error" in row:
                print(f"{shape} | {runtime} | error: {row['error']}")
                continue
            prompt = f"{row['prompt_tokens']} ({row['system_tokens']})"
            print(
                " | ".join(
                    str(v)
                    for v in (
                        shape,
                        runtime,
                        prompt,
                        row["first_token_cold_s"],
                        row.get("first_token_warm_s", "—"),
                        row["tokens_per_s_cold"],
                        row["rss_before_model_mb"],
                        row["peak_rss_mb"],
                    )
                ),
                flush=True,
            )


if __name__ == "__main__":
    main()
