"""The church's own documents (.md, .txt, .csv, .json): parsed, chunked and citable beside the Bible."""

from pastor.documents.chunking import split_spans, split_text
from pastor.documents.document import Chunk, DocumentError, FileResult, Part, Reader, Section
from pastor.documents.factory import EXTENSIONS, reader_for
from pastor.documents.folder import FolderScan, parse_document, read_folder
from pastor.documents.refs import DOC_REF_PATTERN, doc_ref, is_citable, parse_doc_ref

__all__ = [
    "Chunk",
    "DocumentError",
    "FileResult",
    "Part",
    "Reader",
    "Section",
    "split_spans",
    "split_text",
    "EXTENSIONS",
    "reader_for",
    "FolderScan",
    "parse_document",
    "read_folder",
    "DOC_REF_PATTERN",
    "doc_ref",
    "is_citable",
    "parse_doc_ref",
]
