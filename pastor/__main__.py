"""Entry point for `python -m pastor`."""

import sys

from .cli import main

sys.exit(main())
