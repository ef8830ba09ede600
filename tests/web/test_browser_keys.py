"""The per-deployment secret of the conversations kept in browsers (issue 32): configured or generated once into
the data directory (0600), reused across restarts, never the public key of before, never sent to the page."""

from __future__ import annotations

import json
import logging
import stat
import threading

import pytest

from pastor.config import ConfigError
from pastor.web.browser_keys import SECRET_FILE, BrowserKeys, browser_keys, data_dir_secret
from pastor.web.runtime import Runtime
from tests.support.app_fixtures import app_settings


def test_without_a_setting_the_secret_is_generated_once_private_and_reused(tmp_path):
    data = tmp_path / "data"
    first = browser_keys(app_settings(data))
    path = data / SECRET_FILE
    written = path.read_text(encoding="utf-8")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and len(written.strip()) >= 32
    again = browser_keys(app_settings(data))  # a restart: the same file, the same keys
    assert again == first and path.read_text(encoding="utf-8") == written
    assert sorted(p.name for p in data.iterdir()) == [SECRET_FILE]  # no draft left beside it
    assert browser_keys(app_settings(tmp_path / "outra")) != first  # another deployment, other keys


def test_processes_starting_at_once_agree_on_one_secret(tmp_path):
    found: list[str] = []
    threads = [threading.Thread(target=lambda: found.append(data_dir_secret(tmp_path))) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(found) == 8 and len(set(found)) == 1


def test_a_secret_file_others_can_read_is_made_private_and_an_emptied_one_replaced(tmp_path):
    path = tmp_path / SECRET_FILE
    path.write_text("um-segredo-com-mais-de-16-letras\n", encoding="utf-8")
    path.chmod(0o644)
    assert data_dir_secret(tmp_path) == "um-segredo-com-mais-de-16-letras"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.write_text("", encoding="utf-8")
    renewed = data_dir_secret(tmp_path)
    assert len(renewed) >= 32 and path.read_text(encoding="utf-8").strip() == renewed


def test_a_data_directory_that_cannot_be_written_gives_a_secret_for_this_process(tmp_path, caplog):
    blocked = tmp_path / "arquivo"
    blocked.write_text("não é uma pasta", encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="pastor.web"):
        first, second = data_dir_secret(blocked / "data"), data_dir_secret(blocked / "data")
    assert len(first) >= 32 and first != second
    assert len(caplog.records) == 2 and str(tmp_path) not in caplog.text  # names the file, never the path


def test_a_configured_secret_is_used_and_nothing_is_written(tmp_path):
    settings = app_settings(tmp_path / "data", PASTOR_BROWSER_SECRET="segredo-da-igreja-de-teste")
    assert browser_keys(settings) == BrowserKeys.from_secret("segredo-da-igreja-de-teste")
    assert not (tmp_path / "data" / SECRET_FILE).exists()
    assert "segredo-da-igreja-de-teste" not in repr(settings)


@pytest.mark.parametrize("secret", ["curto", "pastor-online-v1"])
def test_a_short_secret_or_the_public_key_of_before_stops_the_start_without_echoing_it(tmp_path, secret):
    with pytest.raises(ConfigError) as refused:
        app_settings(tmp_path, PASTOR_BROWSER_SECRET=secret)
    assert str(refused.value).startswith("PASTOR_BROWSER_SECRET") and secret not in str(refused.value)


def test_the_page_gets_only_the_storage_key_drawn_from_the_secret(tmp_path):
    """Gradio sends BrowserState's secret to every page: that key is drawn from the secret, says nothing of the
    seal's key, and is not the key written in the code before."""
    from pastor.web.page import build_blocks

    secret = "segredo-da-igreja-de-teste"
    keys = BrowserKeys.from_secret(secret)
    runtime = Runtime(app_settings(tmp_path, PASTOR_BROWSER_SECRET=secret))
    config = json.dumps(build_blocks(runtime).get_config_file(), ensure_ascii=False, default=str)
    assert keys.storage in config
    assert secret not in config and keys.seal_key.hex() not in config and "pastor-online-v1" not in config
    assert keys.storage not in (secret, keys.seal_key.hex())
