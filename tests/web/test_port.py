"""A busy port is explained in Portuguese, with what to do, before anything loads (issue 29)."""

from __future__ import annotations

import socket

import app
from pastor.web import launch
from tests.support.helpers import free_port


def test_a_taken_port_says_so_and_names_another(monkeypatch, capsys, tmp_path):
    port = free_port()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port))
        taken.listen()
        problem = launch.port_problem("127.0.0.1", port)
        assert problem is not None and f"A porta {port} já está em uso" in problem
        assert f"PASTOR_PORT={port + 1}" in problem
        monkeypatch.setenv("PASTOR_HOST", "127.0.0.1")
        monkeypatch.setenv("PASTOR_PORT", str(port))
        monkeypatch.setenv("PASTOR_DATA_DIR", str(tmp_path))
        from pastor.config import get_settings

        get_settings.cache_clear()
        try:
            assert app.main() == launch.PORT_IN_USE
        finally:
            get_settings.cache_clear()
    error = capsys.readouterr().err
    assert "já está em uso" in error and "Errno" not in error


def test_a_free_port_has_no_problem():
    assert launch.port_problem("127.0.0.1", free_port()) is None
