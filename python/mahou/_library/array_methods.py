"""Array methods written in Python (a.take(...)), compiled by mahou when compiled code
calls them: the array is the first argument."""

from mahou._library.indexing_functions import take  # noqa: F401
