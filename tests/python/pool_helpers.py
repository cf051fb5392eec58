"""Helpers the process-pool, joblib and Dask tests send to workers (importable there:
the tests' directory is on the workers' sys.path)."""

import os


def run_reporting(f, *args):
    """f(*args) in a worker, with the worker's pid and, per overload, whether its machine
    code came with the pickle (True) or was compiled there (False)."""
    value = f(*args)
    return value, {str(k): v["shipped"] for k, v in f.stats.items()}, os.getpid()
