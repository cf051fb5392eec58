# RUN: not %mahouc %s --function=unreachable --emit=ast 2>&1 | %FileCheck %s
# An irrefutable case before others is an error, as in CPython (a SyntaxError there).


def unreachable(x):
    match x:
        case y:
            return 1
        case 2:
            return 2


# CHECK: UnsupportedError: {{.*}}match_unreachable.py:7:14: name capture 'y' makes remaining patterns unreachable
# CHECK-NEXT: case y:
# CHECK-NEXT: ^
