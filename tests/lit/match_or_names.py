# RUN: not %mahouc %s --function=mixed_names --emit=ast 2>&1 | %FileCheck %s
# The alternatives of an or-pattern must bind the same names, as in CPython.


def mixed_names(x):
    match x:
        case (1 as a) | (2 as b):
            return 1


# CHECK: UnsupportedError: {{.*}}match_or_names.py:7:26: alternative patterns bind different names
