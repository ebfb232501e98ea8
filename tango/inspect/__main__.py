"""`python -m tango.inspect RUN_DIR ...` (tango.inspect.cli)."""

import sys

from tango.inspect.cli import main

sys.exit(main())
