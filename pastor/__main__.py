"""Entry point for `python -m pastor`."""

import sys

from pastor.cli.main import main

sys.exit(main())
