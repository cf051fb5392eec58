# RUN: %mahouc %s --function=scale --args="array(Record(a[type=int32;offset=0],b[type=float64;offset=4];12;False), 1d, A)" --emit=ir | %FileCheck %s
# RUN: %mahouc %s --function=scale --args="array(Record(a[type=int32;offset=0],b[type=float64;offset=4];12;False), 1d, A)" --emit=opt | %FileCheck %s --check-prefix=OPT
# RUN: not %mahouc %s --function=missing --args="Record(a[type=int32;offset=0],b[type=float64;offset=4];12;False)" --emit=ir 2>&1 | %FileCheck %s --check-prefix=ERR


def scale(a):
    t = 0.0
    for i in range(len(a)):
        r = a[i]
        r.b = r.b * 2.0
        t += r["a"]
    return t


def missing(r):
    return r["zz"]


# An element is the record's address; its fields are read and written at their offsets.
# CHECK: func @scale(%a: array(Record(a[type=int32;offset=0],b[type=float64;offset=4];12;False), 1d, A)) -> float64
# CHECK: %r = record.item(%a, %i) : Record(
# CHECK: eval record.setattr[4](%r, binary.mul(record.getattr[4](%r) : float64, 2:float64) : float64) : none
# CHECK: cast(record.getattr(%r) : int32) : float64

# A packed record's float64 at offset 4 is read and written without alignment.
# OPT-LABEL: define {{.*}}@mahou.scale
# OPT: load double, ptr {{.*}}, align 1
# OPT: store double {{.*}}, align 1

# ERR: 16:12: Record(a[type=int32;offset=0],b[type=float64;offset=4];12;False) has no field 'zz'
