"""The parsed-Bible cache: read back when the file's bytes and the parser are the same, parsed again otherwise."""

from __future__ import annotations

import gzip
import json
import shutil

from pastor.bible.usfx import load_bible
from pastor.index.textcache import load_bible_cached
from tests.support.core_fixtures import MINI


def test_a_restart_reads_the_parse_and_a_changed_file_is_parsed_again(tmp_path):
    corpus = tmp_path / "mini.usfx.xml"
    shutil.copy(MINI, corpus)
    data = tmp_path / "data"
    parsed = load_bible_cached(corpus, data)
    assert [v.text for v in parsed.verses] == [v.text for v in load_bible(corpus).verses]
    cache = data / "index" / "texts" / "mini.usfx.xml.json.gz"
    saved = json.loads(gzip.open(cache).read())
    saved["verses"][0][3] = "marcado"  # a text no parse gives: seen only if the cache is read
    cache.write_bytes(gzip.compress(json.dumps(saved).encode()))
    again = load_bible_cached(corpus, data)
    assert again.verses[0].text == "marcado" and again.sha256 == parsed.sha256 and again.path == corpus
    assert len(again.by_id) == len(parsed.by_id) and again.name == parsed.name
    corpus.write_text(corpus.read_text(encoding="utf-8") + "\n", encoding="utf-8")  # other bytes
    assert load_bible_cached(corpus, data).verses[0].text == parsed.verses[0].text


def test_a_folder_that_cannot_be_written_still_parses(tmp_path):
    blocked = tmp_path / "data"
    blocked.write_text("um arquivo onde a pasta deveria estar")
    assert len(load_bible_cached(MINI, blocked).verses) == len(load_bible(MINI).verses)
