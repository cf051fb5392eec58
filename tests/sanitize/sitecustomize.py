# Imported at start-up by every Python process of `make sanitize` (it is on PYTHONPATH):
# mahou is imported from the staged package beside this file, whose extension modules
# are the AddressSanitizer build, not through the editable install's redirecting finder.
import sys

sys.meta_path[:] = [f for f in sys.meta_path if "Redirecting" not in type(f).__name__
                    or "mahou" not in getattr(type(f), "__module__", "")]
