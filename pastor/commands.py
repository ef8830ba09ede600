"""Registrars for the CLI subcommands beyond the corpus tools (filled as features land)."""

REGISTRARS: list = []
