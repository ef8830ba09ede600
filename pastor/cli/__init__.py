"""`python -m pastor`: the command-line entry point and its subcommands. May import answer, search, providers,
bible, documents, text and config (never web)."""
