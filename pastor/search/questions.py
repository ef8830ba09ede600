"""Question sets: a JSONL file of questions and their gold verse ids, read and checked (the query adapter
learns from one; the evaluation measures on them)."""

from __future__ import annotations

import errno
import json
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from pastor.bible import canon
from pastor.errors import PastorError

# Verse ids as the index stores them: `USFX-code chapter:verse`, no extra spaces.
_VERSE_ID = re.compile(r"([1-3A-Z]{3}) ([1-9]\d*):([1-9]\d*)")


# A question set is a few hundred lines (sets/retrieval/devset.jsonl: 52 KB); 100 times that is no question set.
MAX_QUESTION_BYTES = 5_000_000


class QuestionSetError(PastorError, ValueError):
    """A question-set file is missing or has a bad line; the message names file and line."""


@dataclass(frozen=True)
class Question:
    """One line of a question set: the question, its gold verse ids, its topic ("" when none)."""

    question: str
    gold: tuple[str, ...]
    topic: str = ""


# --- Question sets -------------------------------------------------------------------------


def read_question_file(path: Path | str, max_bytes: int = MAX_QUESTION_BYTES) -> bytes:
    """The bytes of a question file, checked like a document: a regular file (a FIFO or device
    would block or never end), at most `max_bytes`. Errors name the file, never its folder."""
    path = Path(path)
    try:
        # O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting forever.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        problem = "não encontrado" if exc.errno == errno.ENOENT else f"ilegível ({exc.strerror})"
        raise QuestionSetError(f"Arquivo de perguntas {problem}: {path.name}") from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise QuestionSetError(f"{path.name}: não é um arquivo comum (um FIFO, dispositivo ou pasta)")
        if info.st_size > max_bytes:
            raise QuestionSetError(f"{path.name}: grande demais ({info.st_size} bytes; o limite é {max_bytes})")
        data = handle.read(max_bytes + 1)  # the file may grow between the check and the read
    if len(data) > max_bytes:
        raise QuestionSetError(f"{path.name}: grande demais (o limite é {max_bytes} bytes)")
    return data


def load_questions(path: Path | str) -> list[Question]:
    """Read a JSONL question set: one `{"question", "gold", "topic"?}` object per line."""
    path = Path(path)
    text = read_question_file(path).decode("utf-8", errors="replace")
    questions = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            questions.append(_parse_line(line, f"{path.name}, linha {number}"))
    if not questions:
        raise QuestionSetError(f"{path.name}: nenhuma pergunta no arquivo")
    return questions


def _parse_line(line: str, where: str) -> Question:
    try:
        row = json.loads(line)
    except json.JSONDecodeError as exc:
        raise QuestionSetError(f"{where}: JSON inválido ({exc.msg}, coluna {exc.colno})") from None
    if not isinstance(row, dict):
        raise QuestionSetError(f"{where}: esperado um objeto JSON com 'question' e 'gold'")
    question = row.get("question")
    if not isinstance(question, str) or not question.strip():
        raise QuestionSetError(f"{where}: falta o campo 'question' (texto não vazio)")
    gold = row.get("gold")
    if not isinstance(gold, list) or not gold:
        raise QuestionSetError(f"{where}: falta o campo 'gold' (lista não vazia de versículos)")
    for verse_id in gold:
        _check_verse_id(verse_id, where)
    if len(set(gold)) != len(gold):
        raise QuestionSetError(f"{where}: versículo repetido em 'gold'")
    topic = row.get("topic", "")
    if not isinstance(topic, str):
        raise QuestionSetError(f"{where}: 'topic' deve ser texto")
    return Question(question, tuple(gold), topic)


def _check_verse_id(verse_id: object, where: str) -> None:
    match = _VERSE_ID.fullmatch(verse_id) if isinstance(verse_id, str) else None
    if not match:
        raise QuestionSetError(f"{where}: id de versículo malformado {verse_id!r} (esperado como 'JHN 3:16')")
    if match.group(1) not in canon.by_code():
        raise QuestionSetError(f"{where}: livro desconhecido {match.group(1)!r} em {verse_id!r}")
