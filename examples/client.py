"""Every named endpoint of a running Pastor Online, through gradio_client.

    python examples/client.py http://127.0.0.1:7860/ [--token REINDEX_TOKEN] [--skip-reindex]

Prints what each endpoint returns and exits non-zero at the first endpoint that fails. A call refused by the
app's rate limit ("Aguarde N segundos…") is made again after the wait; `/reindex` is skipped when the app
says it is disabled (the default on a network address without REINDEX_TOKEN).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time

from gradio_client import Client
from gradio_client.exceptions import AppError

QUESTION = "Estou com medo do futuro"


WAIT = re.compile(r"Aguarde (\d+) segundo")
MAX_TRIES = 5


def patiently(action, name: str):
    """`action()`, waiting out the app's rate limit ("Aguarde N segundos…") instead of failing on it."""
    for _ in range(MAX_TRIES - 1):
        try:
            return action()
        except AppError as exc:
            wait = WAIT.search(str(exc))
            if wait is None:
                raise
            print(f"-- {name}: {exc} (esperando)", flush=True)
            time.sleep(int(wait.group(1)) + 0.2)
    return action()


def call(client: Client, *args, api_name: str):
    return patiently(lambda: client.predict(*args, api_name=api_name), api_name)


def show(title: str, value) -> None:
    print(f"== {title}")
    print(json.dumps(value, ensure_ascii=False, indent=2)[:1500])


INTERRUPTED = (
    "A resposta foi interrompida: o servidor que a escrevia parou no meio. Envie a pergunta de novo "
    "(com vários servidores, outro responde)."
)


class Interrupted(RuntimeError):
    """The stream ended without its final update: the server (or the replica behind a balancer) went away."""


def chat(client: Client, question: str, on_text=None) -> dict:
    """`/chat` streamed: each partial answer as it arrives, then the final update. A stream cut
    before its final update (`done: true`) raises `Interrupted` with a message for the person.
    `on_text(new_text)` receives the answer as it grows (default: printed, then the final update).

    The job is polled rather than iterated: when the server dies mid-stream, gradio_client ends
    the job but its iterator keeps waiting for a final status that never comes."""
    job = client.submit(question, None, api_name="/chat")
    seen, shown = 0, 0
    while True:
        finished = job.done()  # read before the outputs, so none arrives unseen after it
        outputs = job.outputs()
        for update in outputs[shown:]:
            text = update.get("answer", "")
            if text[seen:]:
                (on_text or (lambda new: print(new, end="", flush=True)))(text[seen:])
            seen = len(text)
        shown = len(outputs)
        if finished:
            break
        time.sleep(0.05)
    try:
        job.result()
    except AppError:  # the app refused the question (a rate limit, a message too long): its own message
        raise
    except Exception as exc:  # the connection dropped mid-answer (the server died)
        raise Interrupted(INTERRUPTED) from exc
    if on_text is None:
        print()
    final = outputs[-1] if outputs else {}
    if not final.get("done"):
        raise Interrupted(INTERRUPTED)
    if on_text is not None:
        return final
    show("/chat (final)", {k: final[k] for k in ("turn_id", "mode", "citations", "query") if k in final})
    return final


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Exercita cada endpoint da API do Pastor Online.")
    parser.add_argument("url", help="endereço do app, por exemplo http://127.0.0.1:7860/")
    parser.add_argument("--token", default="", help="token de reindexação (REINDEX_TOKEN), se houver")
    parser.add_argument("--skip-reindex", action="store_true", help="não pede a reindexação")
    args = parser.parse_args(argv)

    client = Client(args.url, verbose=False)
    status = call(client, api_name="/status")
    show("/status", status)
    show("/check_provider", call(client, api_name="/check_provider"))
    show("/lookup", call(client, "João 3:16 e Sl 23:1", api_name="/lookup"))
    show("/search", call(client, QUESTION, 3, "all", api_name="/search"))
    try:
        final = patiently(lambda: chat(client, QUESTION), "/chat")
    except Interrupted as exc:
        print(f"erro: {exc}", file=sys.stderr)
        return 3
    show("/feedback", call(client, final["turn_id"], "up", "Exemplo de comentário", api_name="/feedback"))
    if args.skip_reindex:
        print("== /reindex: pulado (--skip-reindex)")
    elif not status.get("reindex_enabled", True):
        print("== /reindex: pulado, desativado neste app (defina REINDEX_TOKEN para ativá-lo)")
    else:
        show("/reindex", call(client, args.token, api_name="/reindex"))
    print("OK: todos os endpoints responderam.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
