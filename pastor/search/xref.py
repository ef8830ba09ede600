"""Cross-reference expansion: verses strongly linked (OpenBible.info votes) to the top fused hits."""

from __future__ import annotations

import gzip
import math
from collections import defaultdict
from pathlib import Path

from pastor.search.fusion import Hit

ATTRIBUTION = ("Referências cruzadas © OpenBible.info, CC BY 4.0 "
               "(https://www.openbible.info/labs/cross-references/)")
HEADER = "verse\ttarget\tvotes"


class CrossReferences:
    """verse → [(linked verse, votes)], strongest first; `expand` adds them as a damped ranked list."""

    def __init__(self, links: dict[str, list[tuple[str, int]]], *, seeds: int = 5, per_seed: int = 3):
        self.links = links
        self.seeds = seeds  # how many of the top fused hits are followed
        self.per_seed = per_seed  # how many links of each

    def __len__(self) -> int:
        return len(self.links)

    def ranked(self, hits: list[Hit]) -> list[tuple[str, float]]:
        """Linked verses scored by Σ seed score × log(1 + votes); the seeds themselves excluded."""
        seeds = [h for h in hits if h.kind == "verse"][:self.seeds]
        seen = {h.id for h in seeds}
        scores: dict[str, float] = defaultdict(float)
        for seed in seeds:
            for target, votes in self.links.get(seed.id, [])[:self.per_seed]:
                if target not in seen:
                    scores[target] += seed.score * math.log1p(votes)
        return sorted(scores.items(), key=lambda item: (-item[1], item[0]))

    def expand(self, hits: list[Hit], *, weight: float, k: int) -> list[Hit]:
        """The fused list with the linked verses' reciprocal ranks added (× weight), re-sorted."""
        by_id = {h.id: h for h in hits}
        for rank, (verse, score) in enumerate(self.ranked(hits), 1):
            hit = by_id.setdefault(verse, Hit(verse))
            hit.xref_rank, hit.xref_score = rank, score
            hit.score += weight / (k + rank)
        return sorted(by_id.values(), key=lambda h: (-h.score, h.id))


def load_links(path: Path | str, **options) -> CrossReferences:
    """Read the links TSV written by `derive_links` (plain or .gz)."""
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    links: dict[str, list[tuple[str, int]]] = defaultdict(list)
    with opener(path, "rt", encoding="utf-8") as handle:
        header = handle.readline().rstrip("\n")
        if header != HEADER:
            raise ValueError(f"{path.name}: cabeçalho inesperado {header[:60]!r} (esperado {HEADER!r})")
        for number, line in enumerate(handle, start=2):
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 3 or not fields[2].isdigit():
                raise ValueError(f"{path.name}, linha {number}: esperado verso<TAB>alvo<TAB>votos")
            links[fields[0]].append((fields[1], int(fields[2])))
    return CrossReferences(dict(links), **options)


def derive_links(cross_references: Path | str, out: Path | str, *, min_votes: int = 10,
                 per_verse: int = 5) -> dict:
    """Write `verse<TAB>target<TAB>votes`, the strongest `per_verse` links of each verse with at
    least `min_votes` votes, from OpenBible's cross_references.txt (plain or .gz). A range target
    is reduced to its first verse (where the linked thought starts)."""
    from pastor.search.prominence import osis_to_usfx
    books = osis_to_usfx()
    source = Path(cross_references)
    opener = gzip.open if source.suffix == ".gz" else open
    links: dict[str, list[tuple[str, int]]] = defaultdict(list)
    with opener(source, "rt", encoding="utf-8-sig") as handle:
        next(handle, None)
        for line in handle:
            fields = line.rstrip("\r\n").split("\t")
            if len(fields) < 3 or not fields[2].lstrip("-").isdigit() or int(fields[2]) < min_votes:
                continue
            verse, target = _usfx(fields[0], books), _usfx(fields[1].split("-")[0], books)
            if verse and target and verse != target:
                links[verse].append((target, int(fields[2])))
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    rows = 0
    with gzip.open(out, "wt", encoding="utf-8", compresslevel=9) if out.suffix == ".gz" \
            else open(out, "w", encoding="utf-8") as handle:
        handle.write(HEADER + "\n")
        for verse in sorted(links):
            for target, votes in sorted(links[verse], key=lambda t: (-t[1], t[0]))[:per_verse]:
                handle.write(f"{verse}\t{target}\t{votes}\n")
                rows += 1
    return {"source": source.name, "verses": len(links), "links": rows, "out": str(out)}


def _usfx(osis: str, books: dict[str, str]) -> str | None:
    """`1John.4.9` → `1JN 4:9` (None for anything else)."""
    parts = osis.strip().split(".")
    if len(parts) != 3 or parts[0] not in books or not (parts[1].isdigit() and parts[2].isdigit()):
        return None
    return f"{books[parts[0]]} {int(parts[1])}:{int(parts[2])}"
