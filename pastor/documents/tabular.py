"""CSV files: one part per row, each value written after its column name."""

from __future__ import annotations

import csv
import io

from pastor.documents.document import DocumentError, Part, Reader, Section, label


class CsvReader(Reader):
    """A .csv file with a header row; comma-separated, or `;` when the header clearly uses it."""

    extensions = (".csv",)

    def parts(self, text: str, path: str) -> list[Part]:
        name = label(path)
        rows = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter(text), strict=True)
        header: list[str] | None = None
        parts: list[Part] = []
        try:
            for row in rows:
                if not any(cell.strip() for cell in row):
                    continue  # blank lines (and rows of empty cells) carry nothing
                if header is None:
                    header = [cell.strip() or f"coluna {i + 1}" for i, cell in enumerate(row)]
                    continue
                if len(row) != len(header):
                    raise DocumentError(
                        f"linha {rows.line_num}: {len(row)} campos, mas o cabeçalho tem {len(header)}; "
                        "confira separadores e aspas"
                    )
                self.check_parts(len(parts) + 1)
                body = "; ".join(
                    f"{key}: {value.strip()}" for key, value in zip(header, row, strict=True) if value.strip()
                )
                parts.append(Part(title=f"{name} › linha {rows.line_num}", sections=(Section(name, body),)))
        except csv.Error as exc:
            raise DocumentError(f"CSV malformado na linha {rows.line_num}: {exc}") from None
        return parts


def delimiter(text: str) -> str:
    """`;` when the header line has more semicolons than commas, else `,` (no sniffing)."""
    header = next((line for line in text.split("\n") if line.strip()), "")
    return ";" if header.count(";") > header.count(",") else ","
