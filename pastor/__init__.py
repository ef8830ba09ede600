"""Pastor Online: grounded pastoral answers from an indexed Portuguese Bible."""

__version__ = "0.1.0"
