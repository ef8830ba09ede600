"""Tests for pastor.text.datafile: plain and gzip files read alike, digests of the uncompressed content."""

from __future__ import annotations

import gzip
import hashlib

import pytest

from pastor.text.datafile import content_sha256, data_suffix, is_gzip, logical_name, open_text, read_bytes

TEXT = "verse\tin_refs\nJHN 3:16\t104\n"


@pytest.fixture
def pair(tmp_path):
    plain = tmp_path / "tabela.tsv"
    plain.write_text(TEXT, encoding="utf-8")
    packed = tmp_path / "tabela.tsv.gz"
    packed.write_bytes(gzip.compress(TEXT.encode(), mtime=0))
    return plain, packed


def test_both_read_the_same_text(pair):
    plain, packed = pair
    with open_text(plain) as a, open_text(packed) as b:
        assert a.read() == b.read() == TEXT


def test_digest_is_of_the_uncompressed_content(pair):
    plain, packed = pair
    expected = hashlib.sha256(TEXT.encode()).hexdigest()
    assert content_sha256(plain) == content_sha256(packed) == expected
    assert hashlib.sha256(packed.read_bytes()).hexdigest() != expected


def test_gzip_is_recognised_by_content_not_name(pair, tmp_path):
    _, packed = pair
    renamed = tmp_path / "sem-extensao.tsv"
    renamed.write_bytes(packed.read_bytes())
    assert is_gzip(renamed) and read_bytes(renamed) == TEXT.encode()
    assert not is_gzip(pair[0])


def test_read_bytes_stops_one_past_the_limit(pair):
    assert read_bytes(pair[1], limit=4) == TEXT.encode()[:5]


@pytest.mark.parametrize(
    "name,logical,suffix",
    [
        ("por-blivre.usfx.xml.gz", "por-blivre.usfx.xml", ".xml"),
        ("faq.JSON.GZ", "faq.JSON", ".json"),
        ("agenda.csv", "agenda.csv", ".csv"),
    ],
)
def test_names_ignore_gz(name, logical, suffix):
    assert logical_name(name) == logical and data_suffix(name) == suffix
