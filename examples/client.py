"""Every named endpoint of a running Pastor Online, through gradio_client.

    python examples/client.py http://127.0.0.1:7860/ [--token REINDEX_TOKEN] [--skip-reindex]

Prints what each endpoint returns and exits non-zero at the first endpoint that fails.
"""

from __future__ import annotations

import argparse
import json
import sys

from gradio_client import Client

QUESTION = "Estou com medo do futuro"


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
    show("/status", client.predict(api_name="/status"))
    show("/lookup", client.predict("João 3:16 e Sl 23:1", api_name="/lookup"))
    show("/search", client.predict(QUESTION, 3, "all", api_name="/search"))
    final = chat(client, QUESTION)
    show("/feedback", client.predict(final["turn_id"], "up", "Exemplo de comentário", api_name="/feedback"))
    if not args.skip_reindex:
        show("/reindex", client.predict(args.token, api_name="/reindex"))
    print("OK: todos os endpoints responderam.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
