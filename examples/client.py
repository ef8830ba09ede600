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


def chat(client: Client, question: str) -> dict:
    """`/chat` streamed: each partial answer as it arrives, then the final update."""
    job = client.submit(question, None, api_name="/chat")
    seen = 0
    for update in job:  # yields each partial update as the server sends it
        text = update.get("answer", "")
        print(text[seen:], end="", flush=True)
        seen = len(text)
    print()
    final = job.outputs()[-1]
    if not final.get("done"):
        raise RuntimeError("o /chat terminou sem a atualização final (done: true)")
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
    final = patiently(lambda: chat(client, QUESTION), "/chat")
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
