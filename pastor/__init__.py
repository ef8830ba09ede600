"""Pastor Online: grounded pastoral answers from an indexed Portuguese Bible."""

import sys

__version__ = "0.1.0"

# The oldest Python the code runs on: the README's front matter (python_version, read by Hugging Face Spaces)
# declares the same, and tests/test_python_version.py checks the code against it with vermin.
MINIMUM_PYTHON = (3, 11)

if sys.version_info < MINIMUM_PYTHON:  # before any module that needs 3.11 (enum.StrEnum) is imported
    sys.exit(
        # %-formatting, not an f-string: this line must still run on the old Python it refuses.
        "O Pastor Online precisa de Python %d.%d ou mais novo (este é %d.%d)."  # noqa: UP031
        % (MINIMUM_PYTHON + tuple(sys.version_info[:2]))
    )
