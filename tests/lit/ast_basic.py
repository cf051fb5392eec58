# RUN: %mahouc %s --function=f --emit=ast | %FileCheck %s


def f(a, b=2):
    if a < b <= 3:
        return -a ** 2
    elif not a:
        a, b = b, a
    return a


# CHECK: FunctionDef f
# CHECK: If @5:5
# CHECK: Compare < <=
# CHECK: Return @6:9
# CHECK: UnaryOp -
# CHECK: BinOp **
