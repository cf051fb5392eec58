# RUN: %mahouc %s --function=joins --args="float64[:, :], int32[:, ::1]" --emit=ir | %FileCheck %s --check-prefix=JOIN
# RUN: %mahouc %s --function=flat --args="float64[:, :]" --emit=ir | %FileCheck %s --check-prefix=FLAT
# RUN: %mahouc %s --function=take --args="float64[:, :], int64[:], int32[:]" --emit=ir | %FileCheck %s --check-prefix=TAKE
import numpy as np


def joins(a, b):
    return np.concatenate((a, b), axis=-1), np.stack((a, b), axis=1)


def flat(a):
    s = 0.0
    for x in a.flat:
        s += x
    a.flat[-1] = s
    return a.flat[0]


def take(a, i, j):
    print("a =", a)
    return a[i, j], np.argmax(a, axis=0)


# JOIN: join.concatenate[axis=1](%a, %b) : array(float64, 2d, C)
# JOIN-SAME: join.stack[axis=1](%a, %b) : array(float64, 3d, C)

# FLAT: for %[[I:.*]] in range(0:int64, size(%[[A:.*]]) : int64, 1:int64)
# FLAT-NEXT: %x = flatitem.inrange(%[[A]], %[[I]]) : float64
# FLAT: setflatitem %a, {{.*}}, %s
# FLAT: return flatitem(%a, 0:int64) : float64

# TAKE: print "a =", %a
# TAKE: fancyget(%a, %i, %j) : array(float64, 1d, C)
# TAKE-SAME: reduce.argmax[axis=0](%a) : array(int64, 1d, C)
