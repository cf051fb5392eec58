"""`python -m mahou -s`: the system report (mahou/_sysinfo.py)."""

import sys

from mahou._sysinfo import main

sys.exit(main())
