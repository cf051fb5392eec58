# RUN: not %mahouc %s --function=uses_with --args="int64" --emit=ir 2>&1 | %FileCheck %s
# Syntax the compiler does not accept is refused by the parser, naming the construct and the line.


def uses_with(n):
    with open("x") as f:
        return n


# CHECK: UnsupportedError: {{.*}}unsupported_with.py:6:20: 'with ... as name' is not supported
# CHECK-NEXT: with open("x") as f:
# CHECK-NEXT: ^
