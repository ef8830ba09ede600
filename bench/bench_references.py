"""Book names as people write them: resolved / wrong-book / refused / missed, over three lists of forms.

1. the project's own form table (`pastor/bible/data/book_names.tsv`, every generated form), each as `<form> 1:1`;
2. the Portuguese book-name list of OpenBible.info's reference parser (`openbible_pt_book_names.tsv`,
   one of the table's sources), each as `<form> 1:1`; its English OSIS codes (`1Chr`, `Acts`) are left out;
3. `reference_forms.jsonl`: references in real sentences, written by someone who never saw this code,
   split into `dev` and `held_out` (held out: run once, read the figure, never tune on it).

A canonical line is *resolved* when its reference names the expected book (and *exact* when chapter and
verse match too), *wrong-book* when it names another book, *refused* when it gets a reason instead, and
*missed* when nothing is found. A deuterocanonical line must be refused; read as one of the 66 books and
shown, it is a wrong book.

    python -m bench.bench_references             # all lists, held_out included
    python -m bench.bench_references --dev-only  # while working: the held_out part is not run
    python -m bench.bench_references --errors    # also list what dev and the two tables get wrong
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from pathlib import Path

from pastor.bible import book_names, canon
from pastor.bible.references import find_references
from pastor.datasets import dataset

HERE = Path(__file__).resolve().parent
HELD_OUT = dataset("references/reference_forms.jsonl")
OPENBIBLE = dataset("references/openbible_pt_book_names.tsv")
OSIS = dict(
    zip(
        "Gen Exod Lev Num Deut Josh Judg Ruth 1Sam 2Sam 1Kgs 2Kgs 1Chr 2Chr Ezra Neh Esth Job Ps Prov Eccl Song Isa "
        "Jer Lam Ezek Dan Hos Joel Amos Obad Jonah Mic Nah Hab Zeph Hag Zech Mal Matt Mark Luke John Acts Rom 1Cor "
        "2Cor Gal Eph Phil Col 1Thess 2Thess 1Tim 2Tim Titus Phlm Heb Jas 1Pet 2Pet 1John 2John 3John Jude Rev "
        "Tob Jdt Wis Sir Bar 1Macc 2Macc 3Macc 4Macc 1Esd 2Esd EpJer GkEsth Sus Bel SgThree PrAzar PrMan".split(),
        [b.code for b in canon.books()]
        + "TOB JDT WIS SIR BAR 1MA 2MA 3MA 4MA 1ES 2ES LJE ESG SUS BEL S3Y PAZ MAN".split(),
        strict=True,
    )
)
OUTCOMES = ("resolved", "exact", "wrong-book", "refused", "missed")


def outcome(text: str, form: str, code: str | None, chapter: int = 1, verse: int | None = 1) -> str:
    """What the parser makes of the reference written with `form` in `text` (`code` None: deuterocanonical)."""
    matches = find_references(text)
    places = [i for i in range(len(text)) if text.startswith(form, i)]  # the form may also name the book in prose
    match = next((m for where in places for m in matches if m.start < where + len(form) and where < m.end), None)
    if match is None:
        return "missed"
    if match.reference is None:
        return "refused"
    if code is None:
        return "refused" if match.error else "wrong-book"
    if match.reference.book.code != code:
        return "wrong-book"
    if match.error:
        return "refused"
    first = match.reference.segments[0]
    return "exact" if (first.start_chapter, first.start_verse) == (chapter, verse) else "resolved"


def expected_code(book: str, deuterocanonical: bool) -> str | None:
    if deuterocanonical:
        return None
    found = canon.resolve_book(book)
    if found is None:
        raise ValueError(f"livro desconhecido no conjunto: {book!r}")
    return found.code


def report(title: str, cases: list[tuple[str, str, str | None, int, int | None]], show_errors: bool) -> None:
    """cases: (text, form, expected code or None, chapter, verse)."""
    canonical = Counter(outcome(*case) for case in cases if case[2] is not None)
    deutero = Counter(outcome(*case) for case in cases if case[2] is None)
    n_can, n_deu = sum(canonical.values()), sum(deutero.values())
    resolved = canonical["resolved"] + canonical["exact"]
    print(f"\n{title}")
    print(
        f"  66 books:          {n_can:>5} forms  resolved {resolved:>5} ({resolved / max(n_can, 1):.1%}; "
        f"chapter and verse exact {canonical['exact']})  wrong-book {canonical['wrong-book']}  "
        f"refused {canonical['refused']}  missed {canonical['missed']}"
    )
    print(
        f"  deuterocanonical:  {n_deu:>5} forms  refused {deutero['refused']:>5} "
        f"({deutero['refused'] / max(n_deu, 1):.1%})  wrong-book {deutero['wrong-book']}  missed {deutero['missed']}"
    )
    if show_errors:
        for case in cases:
            got = outcome(*case)
            if got not in ("resolved", "exact", "refused") or (got == "refused" and case[2] is not None):
                print(f"    {got:<10} {case[2] or 'deutero':<7} {case[0]}")


def table_cases() -> list[tuple]:
    return [(f"{f.text} 1:1", f.text, None if f.deuterocanonical else f.code, 1, 1) for f in book_names.forms()]


def openbible_cases() -> tuple[list[tuple], int]:
    cases, skipped = [], 0
    for line in OPENBIBLE.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        osis, form = line.split("\t")
        if form == osis:  # the parser's own English code, not Portuguese
            skipped += 1
            continue
        code = OSIS[osis]
        cases.append((f"{form} 1:1", form, None if code in book_names.DEUTERO_CODES else code, 1, 1))
    return cases, skipped


def collected_cases(split: str) -> list[tuple]:
    rows = [json.loads(line) for line in HELD_OUT.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [
        (r["text"], r["form"], expected_code(r["book"], r["deuterocanonical"]), r["chapter"], r["verse"])
        for r in rows
        if r["split"] == split
    ]


def timing() -> None:
    """Time of `find_references` on an answer-sized text (the alias regex is a trie over every form)."""
    text = (
        "Porque Deus amou o mundo de tal maneira que deu o seu Filho unigênito, para que todo aquele "
        "que nele crê não pereça, mas tenha a vida eterna. "
    ) * 10 + "Leia João 3:16 e 1. João 4:8."
    find_references(text)  # compile once
    runs = []
    for _ in range(200):
        start = time.perf_counter()
        find_references(text)
        runs.append((time.perf_counter() - start) * 1000)
    runs.sort()
    print(
        f"\nfind_references on {len(text)} characters ({len(canon.alias_forms())} folded forms): "
        f"p50 {statistics.median(runs):.2f} ms, p95 {runs[int(len(runs) * 0.95)]:.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dev-only", action="store_true", help="leave the held_out part out")
    parser.add_argument("--errors", action="store_true", help="list what dev and the tables get wrong")
    args = parser.parse_args()
    report("Tabela do projeto (book_names.tsv, cada forma + ' 1:1')", table_cases(), args.errors)
    cases, skipped = openbible_cases()
    report(
        f"Lista do OpenBible.info pt (cada forma + ' 1:1'; {skipped} códigos OSIS em inglês fora)", cases, args.errors
    )
    report("reference_forms.jsonl, dev", collected_cases("dev"), args.errors)
    if not args.dev_only:
        report("reference_forms.jsonl, held_out", collected_cases("held_out"), False)  # never list its errors
    timing()


if __name__ == "__main__":
    main()
