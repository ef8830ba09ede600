"""Portuguese text processing: folding, normalisation (1911 → modern spelling), stemming, stop-words, synonyms,
pastoral topics and small talk. Imports only the standard library."""
