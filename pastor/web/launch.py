"""What `python app.py` does before Gradio is imported: check the port, then start loading the Bible and BM25."""

from __future__ import annotations

import errno
import socket
import sys

from pastor.config import Settings
from pastor.web.runtime import Runtime

PORT_IN_USE = 3  # the exit status when the port is taken (uvicorn's own, kept for scripts that read it)


def port_problem(host: str, port: int) -> str | None:
    """Why the app cannot listen on `host:port`, in Portuguese with what to do; None when it can. Checked before
    anything loads, so an operator reads one clear line instead of uvicorn's English `[Errno 98]`."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return (
                    f"A porta {port} já está em uso (outro Pastor Online, ou outro programa). Feche-o ou escolha "
                    f"outra porta: PASTOR_PORT={port + 1} python app.py"
                )
            return f"Não foi possível ouvir em {host}:{port} ({exc.strerror}). Confira PASTOR_HOST e PASTOR_PORT."
    return None


def prepare(settings: Settings) -> Runtime | None:
    """The runtime, its loader already reading the Bible and BM25, or None (the problem printed) when the port
    cannot be taken. Importing Gradio takes seconds: the loader runs meanwhile, and the parts that can wait
    (the embedder, the local model) wait for the server (`Runtime.start`, early)."""
    problem = port_problem(settings.host, settings.port)
    if problem:
        print(problem, file=sys.stderr, flush=True)
        return None
    return Runtime(settings).start(early=True)
