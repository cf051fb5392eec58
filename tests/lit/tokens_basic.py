# RUN: %mahouc %s --function=add --emit=tokens | %FileCheck %s
# The token dump: one token per line, "line:col KIND text" (1-based line and column).
def add(a, b):
    return a + b * 2.5 - 0x10


# CHECK:      3:1 def
# CHECK-NEXT: 3:5 NAME add
# CHECK-NEXT: 3:8 (
# CHECK-NEXT: 3:9 NAME a
# CHECK-NEXT: 3:10 ,
# CHECK-NEXT: 3:12 NAME b
# CHECK-NEXT: 3:13 )
# CHECK-NEXT: 3:14 :
# CHECK-NEXT: 3:15 NEWLINE
# CHECK-NEXT: 4:5 INDENT
# CHECK-NEXT: 4:5 return
# CHECK-NEXT: 4:12 NAME a
# CHECK-NEXT: 4:14 +
# CHECK-NEXT: 4:16 NAME b
# CHECK-NEXT: 4:18 *
# CHECK-NEXT: 4:20 FLOAT 2.5
# CHECK-NEXT: 4:24 -
# CHECK-NEXT: 4:26 INT 16
# CHECK-NEXT: 4:30 NEWLINE
# CHECK-NEXT: {{[0-9]+}}:1 DEDENT
# CHECK-NEXT: {{[0-9]+}}:1 EOF
