# RUN: %mahouc %s --function=rename --args="array([unichr x 5], 1d, A), int64" --emit=ir | %FileCheck %s
# RUN: %mahouc %s --function=field --args="Record(name[type=[unichr x 3];offset=1],n[type=int8;offset=0];13;False)" --emit=ir | %FileCheck %s --check-prefix=REC
# RUN: not %mahouc %s --function=first --args="array([char x 4], 1d, C)" --emit=ir --target=cuda 2>&1 | %FileCheck %s --check-prefix=ERR


def rename(a, i):
    s = a[i]
    a[i] = s + "!"
    return len(s)


def field(r):
    return r.name


def first(a):
    return a[0]


# An item of a U array is its address (record.item), read into a str at once; a str is
# stored into one by charseq.set.
# CHECK: func @rename(%a: array([unichr x 5], 1d, A), %i: int64) -> int64
# CHECK: %s = charseq.get(record.item(%a, %i) : [unichr x 5]) : unicode_type
# CHECK: eval charseq.set(record.item(%a, %i) : [unichr x 5], str.concat(

# A U field of a (packed) record: its address at the field's offset, then its str.
# REC: charseq.get(record.getattr[1](%r) : [unichr x 3]) : unicode_type

# S items read as bytes values through the compiled library (which mahouc does not load);
# in CUDA kernels they are refused at the use.
# ERR: 17:12: reading a string of type [char x 4] is not supported in CUDA kernels
