# RUN: %mahouc %s --function=squares --args="int64, int64" --emit=ir | %FileCheck %s
# RUN: %mahouc %s --function=evens --args="int64" --emit=ir | %FileCheck %s --check-prefix=COND
# RUN: %mahouc %s --function=doubled --args="float64[::1]" --emit=ir | %FileCheck %s --check-prefix=ARR


def squares(a, n):
    return [i * i for i in range(a, n + 1)]


def evens(n):
    return [i for i in range(n) if i % 2 == 0]


def doubled(x):
    return [v * 2.0 for v in x]


# A comprehension of one loop reserves room for the range's trips: the bound that is not a
# constant is evaluated once, into a hidden variable that the reservation and the loop read.
# CHECK: %[[START:[$a-z0-9_.]+]] = %a
# CHECK: %[[STOP:[$a-z0-9_.]+]] = binary.add(%n, 1:int64)
# CHECK: list.reserve({{.*}}, %[[START]], %[[STOP]], 1:int64)
# CHECK: for %{{.*}} in range(%[[START]], %[[STOP]], 1:int64)

# With a condition the number of items is not the number of trips: no reservation.
# COND-NOT: list.reserve

# An array's items: its length.
# ARR: list.reserve({{.*}}, 0:int64, {{.*}}, 1:int64)
# ARR: for
