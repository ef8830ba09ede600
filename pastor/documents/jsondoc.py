"""JSON files: one part per array element, or per top-level key holding objects; fields flattened."""

from __future__ import annotations

import json

from pastor.documents.document import DocumentError, Part, Reader, Section, label


class JsonReader(Reader):
    """A .json file. Parts: each element of a top-level array; or, for a top-level object, each key
    whose value is an object or an array of objects (one part per key, its objects as paragraphs),
    then one last part gathering the remaining keys."""

    extensions = (".json",)

    def parts(self, text: str, path: str) -> list[Part]:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DocumentError(f"JSON inválido na linha {exc.lineno}, coluna {exc.colno}: {exc.msg}") from None
        name = label(path)
        if isinstance(data, list):
            units = [(f"{name} › item {i + 1}", name, value) for i, value in enumerate(data)]
        elif isinstance(data, dict):
            units = [
                (f"{name} › {key}", f"{name} › {key}", value) for key, value in data.items() if _holds_objects(value)
            ]
            rest = {key: value for key, value in data.items() if not _holds_objects(value)}
            units.append((name, name, rest))
        else:
            units = [(name, name, data)]
        self.check_parts(len(units))
        parts = []
        for title, context, value in units:
            body = render(value)
            if body:
                parts.append(Part(title=title, sections=(Section(context, body),)))
        return parts


def _holds_objects(value) -> bool:
    return isinstance(value, dict) or (
        isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)
    )


def render(value) -> str:
    """Readable text: an object as `key: value; …`; a list of objects as one paragraph each."""
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return "\n\n".join(text for text in (render(v) for v in value) if text)
    return "; ".join(f"{key}: {text}" if key else text for key, text in flatten(value))


def flatten(value, prefix: str = "") -> list[tuple[str, str]]:
    """(dotted key, text) pairs: `endereco.cidade`, `horarios[2].dia`; lists of scalars joined."""
    if isinstance(value, dict):
        pairs = []
        for key, item in value.items():
            pairs += flatten(item, f"{prefix}.{key}" if prefix else str(key))
        return pairs
    if isinstance(value, list):
        if all(not isinstance(v, (dict, list)) for v in value):
            texts = [t for t in (_scalar(v) for v in value) if t]
            return [(prefix, ", ".join(texts))] if texts else []
        pairs = []
        for index, item in enumerate(value):
            pairs += flatten(item, f"{prefix}[{index}]")
        return pairs
    text = _scalar(value)
    return [(prefix, text)] if text else []


def _scalar(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "sim" if value else "não"
    return str(value).strip()
