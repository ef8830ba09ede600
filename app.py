"""Pastor Online web app: `python app.py` serves the chat page, its API and /live, /ready."""

import sys

from pastor.config import ConfigError, get_settings


def main() -> int:
    try:
        settings = get_settings()
    except ConfigError as exc:
        print(f"Configuração inválida: {exc}", file=sys.stderr)
        return 2
    from pastor.web.server import serve

    return serve(settings)


if __name__ == "__main__":
    sys.exit(main())
