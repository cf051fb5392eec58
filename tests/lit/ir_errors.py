# RUN: not %mahouc %s --function=bad_call --args="int64" --emit=ir 2>&1 | %FileCheck %s --check-prefix=NAME
# RUN: not %mahouc %s --function=bad_op --args="float64" --emit=ir 2>&1 | %FileCheck %s --check-prefix=OP


def bad_call(n):
    return undefined_name(n)


def bad_op(x):
    return x & 1


# NAME: TypingError: {{.*}}ir_errors.py:6:12: name 'undefined_name' is not defined
# OP: TypingError: {{.*}}ir_errors.py:10:12: unsupported operand types for &: float64 and int64
