"""Pastor Online web app: `python app.py` serves the chat page, its API and /live, /ready."""

import sys

from pastor.config import ConfigError, get_settings


def main() -> int:
    try:
        settings = get_settings()
    except ConfigError as exc:
        print(f"Configuração inválida: {exc}", file=sys.stderr)
        return 2
    # The Bible and BM25 start loading before Gradio is imported (seconds), and the port is checked before both.
    from pastor.web.launch import PORT_IN_USE, prepare

    runtime = prepare(settings)
    if runtime is None:
        return PORT_IN_USE
    from pastor.web.server import serve

    return serve(settings, runtime)


if __name__ == "__main__":
    sys.exit(main())
