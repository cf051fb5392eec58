# RUN: not %mahouc %s --function=g --emit=ast 2>&1 | %FileCheck %s


def g():
    return b"é"


# A bytes literal holds ASCII characters only (Python's SyntaxError), refused with the place.
# CHECK: 5:14: bytes can only contain ASCII literal characters
