"""python -m mahou.aot MODULE.py --export 'name:signature' [...] [-o OUTPUT] [--name NAME]"""

import argparse
import sys

from .build import AotError, build


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m mahou.aot",
        description="Compile functions of a Python module ahead of time into an extension "
                    "module that imports without mahou or LLVM.")
    parser.add_argument("module", help="the Python file that defines the functions")
    parser.add_argument("--export", "-e", action="append", default=[], metavar="[ALIAS=]NAME:SIGNATURE",
                        help="a function and its signature, e.g. 'add:float64(float64, float64)' (repeat)")
    parser.add_argument("-o", "--output", help="the module file to write, or a directory "
                        "(default: <module>_aot<EXT_SUFFIX> here)")
    parser.add_argument("--name", help="the extension module's name (default: from --output)")
    parser.add_argument("--keep-temp", action="store_true", help="keep the wrapper source and objects")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    try:
        path = build(args.module, args.export, args.output, args.name, args.keep_temp, args.verbose)
    except AotError as exc:
        print(f"mahou.aot: error: {exc}", file=sys.stderr)
        return 1
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
