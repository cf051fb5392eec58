# RUN: %mahouc %s --function=classify --emit=ast | %FileCheck %s
# A match statement becomes the subject in a hidden variable, then an if/elif chain in
# case order; a guard that reads a capture runs under the pattern's test, with a flag.


def classify(x):
    match x:
        case 1 | 2:
            return 0
        case None:
            return 1
        case y if y > 5:
            return y
        case 7 as z if z > 0:
            return z
        case _:
            return -1


# CHECK: FunctionDef classify
# CHECK: Assign @7:5
# CHECK-NEXT: Name $match@7:5
# CHECK-NEXT: Name x
# CHECK-NEXT: If
# CHECK-NEXT: BoolOp or
# CHECK-NEXT: Compare ==
# CHECK-NEXT: Name $match@7:5
# CHECK-NEXT: IntLit 1
# CHECK: If
# CHECK-NEXT: Compare is
# CHECK-NEXT: Name $match@7:5
# CHECK-NEXT: NoneLit
# CHECK: Assign
# CHECK-NEXT: Name y
# CHECK-NEXT: Name $match@7:5
# CHECK-NEXT: If
# CHECK-NEXT: Compare >
# CHECK: If
# CHECK-NEXT: Compare ==
# CHECK: Assign
# CHECK-NEXT: Name z
# CHECK: Assign
# CHECK-NEXT: Name $guard@14:9
# CHECK-NEXT: IfExp
# CHECK: If
# CHECK-NEXT: Name $guard@14:9
# CHECK: orelse:
# CHECK-NEXT: Return @17:13
# CHECK-NEXT: UnaryOp -

