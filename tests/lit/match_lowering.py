# RUN: %mahouc %s --function=classify --emit=ast | %FileCheck %s
# RUN: %mahouc %s --function=pairs --emit=ast | %FileCheck %s --check-prefix=SEQ
# A match statement becomes the subject in a hidden variable, then an if/elif chain in
# case order; a guard that reads a capture runs under the pattern's test, with a flag
# (behind MatchPossible, the test's compile-time verdict); a literal test is None-safe.


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
# CHECK: Assign @9:5
# CHECK-NEXT: Name $match@9:5
# CHECK-NEXT: Name x
# CHECK-NEXT: If
# CHECK-NEXT: BoolOp or
# CHECK-NEXT: BoolOp and
# CHECK-NEXT: Compare is not
# CHECK-NEXT: Name $match@9:5
# CHECK-NEXT: NoneLit
# CHECK-NEXT: Compare ==
# CHECK-NEXT: Name $match@9:5
# CHECK-NEXT: IntLit 1
# CHECK: If
# CHECK-NEXT: Compare is
# CHECK-NEXT: Name $match@9:5
# CHECK-NEXT: NoneLit
# CHECK: Assign
# CHECK-NEXT: Name y
# CHECK-NEXT: Name $match@9:5
# CHECK-NEXT: If
# CHECK-NEXT: Compare >
# CHECK: If
# CHECK-NEXT: BoolOp and
# CHECK-NEXT: Compare is not
# CHECK: Compare ==
# CHECK: Assign
# CHECK-NEXT: Name z
# CHECK: Assign
# CHECK-NEXT: Name $guard@16:9
# CHECK-NEXT: IfExp
# CHECK: If
# CHECK-NEXT: BoolOp and
# CHECK-NEXT: MatchPossible
# CHECK: Name $guard@16:9
# CHECK-NEXT: body:
# CHECK: orelse:
# CHECK-NEXT: Return @19:13
# CHECK-NEXT: UnaryOp -



def pairs(t):
    match t:
        case (0, (a, b)):
            return a
        case (x, *_, 1) if x > 0:
            return x
    return 0


# SEQ: FunctionDef pairs
# SEQ: If
# SEQ-NEXT: BoolOp and
# SEQ-NEXT: BoolOp and
# SEQ-NEXT: MatchSequence len 2
# SEQ-NEXT: Name $match@
# SEQ-NEXT: MatchSequence len 2
# SEQ-NEXT: Subscript
# SEQ: Compare ==
# SEQ-NEXT: Subscript
# SEQ-NEXT: Name $match@
# SEQ-NEXT: IntLit 0
# SEQ-NEXT: IntLit 0
# SEQ: Assign
# SEQ-NEXT: Name a
# SEQ-NEXT: Subscript
# SEQ-NEXT: Subscript
# SEQ: MatchSequence len >= 2
# SEQ: Name $guard@
# SEQ-NEXT: IfExp
# SEQ: If
# SEQ-NEXT: BoolOp and
# SEQ-NEXT: MatchPossible
# SEQ-NEXT: BoolOp and
# SEQ-NEXT: MatchSequence len >= 2
# SEQ: Name $guard@
# SEQ-NEXT: body:
