"""``python -m pipelines.cli``: the same as the ``cargo-monitor`` command."""

import sys

from pipelines.cli import main

sys.exit(main())
