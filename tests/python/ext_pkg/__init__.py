"""A package used by the tests of modules as values (test_modules.py)."""
