# RUN: %mahouc %s --function=f --emit=tokens | %FileCheck %s --check-prefix=TOK
# RUN: %mahouc %s --function=f --emit=ast | %FileCheck %s
# RUN: %mahouc %s --function=f --emit=ir | %FileCheck %s --check-prefix=IR


def f():
    return b"a\x00\xff" b"\u00e9\101"


# Bytes literals: escapes resolved to bytes (\u kept as written), adjacent ones joined,
# typed as a constant bytes value (its items frozen, cast to bytes).
# TOK: BYTES b'a\x00\xff'
# TOK: BYTES b'\\u00e9A'
# CHECK: BytesLit b'a\x00\xff\\u00e9A' 
# IR: bytes(uint8, 1d, C, readonly)

