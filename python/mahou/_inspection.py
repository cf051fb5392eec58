"""Dispatcher.inspect_cfg(), inspect_disasm_cfg() and get_metadata(): the control-flow
graph of an overload's optimised LLVM IR or of its machine code (as Graphviz text, drawn
with the graphviz package where it is installed), and what the compilation recorded."""

import re

_IR_LABEL = re.compile(r"^([-\w.$]+|\"[^\"]+\"):")
_IR_TARGET = re.compile(r"label %([-\w.$]+|\"[^\"]+\")")
_ASM_LABEL = re.compile(r"^(\.?[\w.$]+):")
_ASM_JUMP = re.compile(r"^\s+(j\w+|b\.?\w*|call\w*)\s+(\.L\w+)")
_ASM_ENDS = ("jmp", "ret", "retq", "ud2", "b", "br")


class ControlFlowGraph:
    """One function's control-flow graph (Numba's inspect_cfg result): `.dot` is its
    Graphviz text; display() draws it (the graphviz package), and a notebook shows it."""

    def __init__(self, name, blocks, edges):
        self.name = name
        self.blocks = blocks  # [(block name, [lines])]
        self.edges = edges    # [(from, to)]

    @property
    def dot(self):
        def quoted(text):
            return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

        out = [f"digraph {quoted(self.name)} {{", "  node [shape=box, fontname=monospace, fontsize=10];"]
        for block, lines in self.blocks:
            body = "\\l".join(line.strip().replace("\\", "\\\\").replace('"', '\\"') for line in lines)
            out.append(f'  {quoted(block)} [label="{block}:\\l{body}\\l"];')
        for a, b in self.edges:
            out.append(f"  {quoted(a)} -> {quoted(b)};")
        out.append("}")
        return "\n".join(out) + "\n"

    def display(self, filename=None, format="pdf", view=False):
        """The graph drawn by the graphviz package (graphviz.Source); written to `filename`
        when given."""
        try:
            import graphviz
        except ImportError:
            raise ImportError("drawing a control-flow graph needs the graphviz package "
                              "(pip install graphviz); its Graphviz text is .dot") from None
        src = graphviz.Source(self.dot)
        if filename is not None:
            src.render(filename, format=format, view=view)
        return src

    def _repr_svg_(self):
        try:
            return self.display()._repr_image_svg_xml()
        except Exception:
            return None

    def __repr__(self):
        return self.dot


def _function_lines(text, name, start):
    """The lines of `name`'s definition in the text (IR: from `define ... @name(` to `}`)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if start(line, name):
            body = []
            for line in lines[i + 1:]:
                if line.startswith("}") or line.startswith(".Lfunc_end"):
                    break
                body.append(line)
            return body
    raise ValueError(f"no function {name} in the compiled code")


def ir_graph(ir_text, symbol):
    """The control-flow graph of the function `symbol` in LLVM IR text."""
    body = _function_lines(ir_text, symbol,
                           lambda line, n: line.startswith("define") and (f"@{n}(" in line or f'@"{n}"(' in line))
    blocks, current, lines = [], "entry", []
    for line in body:
        m = _IR_LABEL.match(line)
        if m:
            if lines or current != "entry":
                blocks.append((current, lines))
            current, lines = m.group(1).strip('"'), []
        elif line.strip() and not line.lstrip().startswith(";"):
            lines.append(line)
    blocks.append((current, lines))
    names = {b for b, _ in blocks}
    edges = []
    for block, lines in blocks:
        for line in lines:
            for t in _IR_TARGET.findall(line):
                t = t.strip('"')
                edges.append((block, t if t in names else "entry"))
    return ControlFlowGraph(symbol, blocks, edges)


def asm_graph(asm_text, symbol):
    """The control-flow graph of the function `symbol` in assembly text: its labels and
    the jumps between them, with the fall-through from a block into the next."""
    body = _function_lines(asm_text, symbol, lambda line, n: line.strip() in (f"{n}:", f'"{n}":'))
    blocks, current, lines = [], symbol, []
    for line in body:
        m = _ASM_LABEL.match(line)
        if m:
            blocks.append((current, lines))
            current, lines = m.group(1), []
        elif line.strip() and not line.lstrip().startswith((".p2align", ".cfi", "#", ".size")):
            lines.append(line)
    blocks.append((current, lines))
    names = {b for b, _ in blocks}
    edges = []
    for k, (block, lines) in enumerate(blocks):
        ends = False
        for line in lines:
            m = _ASM_JUMP.match(line)
            if m and m.group(2) in names and not m.group(1).startswith("call"):
                edges.append((block, m.group(2)))
        last = lines[-1].split() if lines else []
        ends = bool(last) and last[0] in _ASM_ENDS
        if not ends and k + 1 < len(blocks):
            edges.append((block, blocks[k + 1][0]))
    return ControlFlowGraph(symbol, blocks, edges)


def _overloads(dispatcher, signature):
    overloads = dispatcher.overloads
    if signature is None:
        return overloads
    wanted = tuple(signature)
    for sig, result in overloads.items():
        if tuple(sig) == wanted:
            return {sig: result}
    raise KeyError(f"no compiled overload for {signature}")


_IR_DEFINE = re.compile(r"^define [^@]*@(\"[^\"]+\"|[-\w.$]+)\(")


def _function_name(ir_text, py_name):
    """The overload's own function in its module's IR (mahou.<name>.<n>; the module also
    holds the bodies of parallel loops and callees kept out of line)."""
    names = [m.group(1).strip('"') for m in map(_IR_DEFINE.match, ir_text.splitlines()) if m]
    own = re.compile(rf"mahou\.{re.escape(py_name)}\.\d+$")
    for n in names:
        if own.match(n):
            return n
    if not names:
        raise ValueError("no function in the compiled code")
    return names[0]


def inspect_cfg(dispatcher, signature=None, show_wrapper=None, **kwargs):
    """The control-flow graph of each overload's optimised LLVM IR ({signature: graph}),
    or of one overload's when `signature` (its argument types) is given. `show_wrapper`
    is accepted for Numba's API: the graph is always the function itself."""
    graphs = {}
    for sig in _overloads(dispatcher, signature):
        text = dispatcher.inspect_llvm(sig)
        graphs[sig] = ir_graph(text, _function_name(text, dispatcher.py_func.__name__))
    return graphs if signature is None else next(iter(graphs.values()))


def inspect_disasm_cfg(dispatcher, signature=None):
    """The control-flow graph of each overload's machine code, from its assembly (Numba
    draws it with radare2; here the labels and jumps of the assembly text)."""
    graphs = {}
    own = re.compile(rf"^(mahou\.{re.escape(dispatcher.py_func.__name__)}\.\d+):")
    for sig in _overloads(dispatcher, signature):
        text = dispatcher.inspect_asm(sig)
        names = [m.group(1) for m in map(own.match, text.splitlines()) if m]
        if not names:
            raise ValueError("no function in the compiled code")
        graphs[sig] = asm_graph(text, names[0])
    return graphs if signature is None else next(iter(graphs.values()))


def get_metadata(dispatcher, signature=None):
    """What the compilation of each overload recorded ({signature: dict}, or one dict):
    its symbol, the time of each stage in ms ('timers'), and under parallel=True the
    loops run in parallel ('parallel'). Numba's keys for its own pipeline are absent."""
    notes = dispatcher._parallel_notes
    out = {}
    for sig, result in _overloads(dispatcher, signature).items():
        meta = {"symbol": result.symbol, "timers": dict(result.stats)}
        if dispatcher.targetoptions.get("parallel"):
            meta["parallel"] = list(notes.get(sig, []))
        out[sig] = meta
    return out if signature is None else next(iter(out.values()))
