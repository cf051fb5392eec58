"""Python classes a jitclass stands in for at the call boundary (numpy's Polynomial): the
dispatcher asks `find` about an argument's class it cannot type, once per class."""

import sys


def find(cls):
    """True when a stand-in for `cls` is now registered (_core.jitclass_stand_in)."""
    module = sys.modules.get("numpy.polynomial.polynomial")
    if module is not None and cls is getattr(module, "Polynomial", None):
        from ._library import polynomial_class  # noqa: F401  (registers the stand-in)
        return True
    return False
