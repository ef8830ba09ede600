"""Tests for pastor.text.notice: each dataset's credit comes from the NOTICE.md that covers it."""

from __future__ import annotations

import gzip
import hashlib

from pastor.text import notice
from pastor.text.notice import credit_for, parse_notice
from tests.support.helpers import ROOT

SAMPLE = """# Notices

## Dados A
- File: `a.tsv.gz`
- Content sha256: `{sha}`
- Credit: Dados A © Alguém, CC BY 4.0
- Licence: CC BY 4.0

## Sem crédito
- File: `b.tsv.gz`
"""


def test_parse_keeps_sections_with_a_credit():
    [only] = parse_notice(SAMPLE.format(sha="ABC"))
    assert only.title == "Dados A" and only.files == {"a.tsv"} and only.digests == {"abc"}
    assert only.credit == "Dados A © Alguém, CC BY 4.0"


def test_credit_by_content_then_by_name(tmp_path, monkeypatch):
    monkeypatch.setattr(notice, "PROJECT_NOTICE", tmp_path / "none.md")
    data = b"conteudo"
    (tmp_path / "NOTICE.md").write_text(SAMPLE.format(sha=hashlib.sha256(data).hexdigest()), encoding="utf-8")
    renamed = tmp_path / "outro-nome.tsv"
    renamed.write_bytes(gzip.compress(data))
    assert credit_for(renamed) == "Dados A © Alguém, CC BY 4.0"  # same content, another name
    plain = tmp_path / "a.tsv"
    plain.write_bytes(b"texto corrigido")
    assert credit_for(plain) == "Dados A © Alguém, CC BY 4.0"  # the dataset's name, plain copy
    other = tmp_path / "c.tsv"
    other.write_bytes(b"outro")
    assert credit_for(other) == ""


def test_the_project_notice_covers_every_shipped_dataset():
    shipped = sorted(p for p in (ROOT / "corpus").glob("*.gz"))
    assert shipped, "o repositório traz os dados em corpus/*.gz"
    for path in shipped:
        assert credit_for(path), f"{path.name} sem seção com Credit em corpus/NOTICE.md"


def test_a_copy_elsewhere_still_gets_the_project_credit(tmp_path):
    copy = tmp_path / "por-blivre.usfx.xml.gz"
    copy.write_bytes((ROOT / "corpus" / "por-blivre.usfx.xml.gz").read_bytes())
    assert "Bíblia Livre" in credit_for(copy)
