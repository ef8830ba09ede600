"""One grounded chat turn: safety, prompts, streaming citation validation, history and the turn log.

May import pastor.search, pastor.providers, pastor.bible, pastor.documents, pastor.text and pastor.config."""
