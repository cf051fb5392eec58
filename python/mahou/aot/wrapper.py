"""C source of an ahead-of-time extension module: one METH_FASTCALL function per export
that checks and unboxes its arguments into mahou's native layout (types/layout.h),
calls the compiled entry `int32 entry(void *ret, void **args)`, turns a failure into
the Python exception the runtime recorded, and boxes the result. It uses the Python
and NumPy C APIs and the runtime linked into the module, never mahou itself."""

from .. import types as _t

_SCALARS = {
    # name: (C type, NumPy type name, kind)
    "bool": ("uint8_t", "bool", "bool"),
    "int8": ("int8_t", "int8", "int"), "int16": ("int16_t", "int16", "int"),
    "int32": ("int32_t", "int32", "int"), "int64": ("int64_t", "int64", "int"),
    "uint8": ("uint8_t", "uint8", "uint"), "uint16": ("uint16_t", "uint16", "uint"),
    "uint32": ("uint32_t", "uint32", "uint"), "uint64": ("uint64_t", "uint64", "uint"),
    "float32": ("float", "float32", "float"), "float64": ("double", "float64", "float"),
    "complex64": ("mahou_c64", "complex64", "complex"),
    "complex128": ("mahou_c128", "complex128", "complex"),
}

PRELUDE = r"""
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <stdint.h>
#include <string.h>

typedef struct { float re, im; } mahou_c64;
typedef struct { double re, im; } mahou_c128;
typedef struct { void *meminfo; void *parent; char *data; int64_t dims[]; } mahou_array_head;
/* The runtime's MahouError (runtime.h), field for field: it is returned by value. */
typedef struct { int32_t kind; _Bool set; char message[512]; _Bool has_args; void *foreign; } mahou_error;

/* The runtime linked into this module (runtime_functions.def). */
extern mahou_error mahou_rt_take_error(void);
extern void mahou_rt_decref(void *meminfo);

/* numpy.linalg.LinAlgError, looked up when first raised */
static PyObject *PyExc_LinAlgError = NULL;
static PyObject **mahou_exception_classes[] = {%(exceptions)s};

static void mahou_raise(void) {
    mahou_error e = mahou_rt_take_error();
    if (!e.set) {
        PyErr_SetString(PyExc_SystemError, "compiled function failed without setting an error");
        return;
    }
    int n = (int)(sizeof mahou_exception_classes / sizeof *mahou_exception_classes);
    PyObject *cls = e.kind >= 0 && e.kind < n ? *mahou_exception_classes[e.kind] : PyExc_SystemError;
    if (cls == NULL) {
        PyObject *linalg = PyImport_ImportModule("numpy.linalg");
        if (linalg == NULL) return;
        PyExc_LinAlgError = cls = PyObject_GetAttrString(linalg, "LinAlgError");
        Py_DECREF(linalg);
        if (cls == NULL) return;
    }
    if (e.has_args) /* packed arguments (exception_args.h): the class alone here */
        PyErr_SetNone(cls);
    else if (e.message[0])
        PyErr_SetString(cls, e.message);
    else
        PyErr_SetNone(cls);
}

static int mahou_arg_error(const char *func, int i, const char *want, PyObject *got) {
    PyErr_Format(PyExc_TypeError, "%%s(): argument %%d must be %%s, not %%s", func, i + 1, want,
                 Py_TYPE(got)->tp_name);
    return -1;
}

static int mahou_unbox_i64(const char *func, int i, PyObject *o, int64_t *out) {
    PyObject *index = PyNumber_Index(o);
    if (!index)
        return -1;
    long long v = PyLong_AsLongLong(index);
    Py_DECREF(index);
    if (v == -1 && PyErr_Occurred())
        return -1;
    *out = (int64_t)v;
    return 0;
}

static int mahou_unbox_u64(const char *func, int i, PyObject *o, uint64_t *out) {
    PyObject *index = PyNumber_Index(o);
    if (!index)
        return -1;
    unsigned long long v = PyLong_AsUnsignedLongLongMask(index);
    Py_DECREF(index);
    if (v == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    *out = (uint64_t)v;
    return 0;
}

static int mahou_unbox_f64(const char *func, int i, PyObject *o, double *out) {
    if (PyComplex_Check(o))
        return mahou_arg_error(func, i, "a real number", o);
    double v = PyFloat_AsDouble(o);
    if (v == -1.0 && PyErr_Occurred())
        return -1;
    *out = v;
    return 0;
}

static int mahou_unbox_c128(const char *func, int i, PyObject *o, mahou_c128 *out) {
    Py_complex c = PyComplex_AsCComplex(o);
    if (c.real == -1.0 && PyErr_Occurred())
        return -1;
    out->re = c.real;
    out->im = c.imag;
    return 0;
}

/* An ndarray argument: dtype, dimensions, byte order, layout and writeability checked
   as the dispatcher types them; the head refers to the array (meminfo null, parent). */
static int mahou_unbox_array(const char *func, int i, PyObject *o, int typenum, int ndim,
                             char layout, int writeable, const char *want, mahou_array_head *head) {
    if (!PyArray_Check(o))
        return mahou_arg_error(func, i, want, o);
    PyArrayObject *a = (PyArrayObject *)o;
    if (PyArray_NDIM(a) != ndim || !PyArray_EquivTypenums(PyArray_TYPE(a), typenum) ||
        !PyArray_ISNOTSWAPPED(a) || (layout == 'C' && !PyArray_IS_C_CONTIGUOUS(a)) ||
        (layout == 'F' && !PyArray_IS_F_CONTIGUOUS(a)) || (writeable && !PyArray_ISWRITEABLE(a))) {
        PyErr_Format(PyExc_TypeError, "%%s(): argument %%d must be %%s, not an array(%%s, %%dd%%s%%s)",
                     func, i + 1, want, PyArray_DESCR(a)->typeobj->tp_name, PyArray_NDIM(a),
                     PyArray_IS_C_CONTIGUOUS(a) ? ", C" : PyArray_IS_F_CONTIGUOUS(a) ? ", F" : ", A",
                     PyArray_ISWRITEABLE(a) ? "" : ", readonly");
        return -1;
    }
    head->meminfo = NULL;
    head->parent = o;
    head->data = PyArray_BYTES(a);
    memcpy(head->dims, PyArray_DIMS(a), sizeof(int64_t) * (size_t)ndim);
    memcpy(head->dims + ndim, PyArray_STRIDES(a), sizeof(int64_t) * (size_t)ndim);
    return 0;
}

static void mahou_capsule_free(PyObject *capsule) {
    mahou_rt_decref(PyCapsule_GetPointer(capsule, "mahou.meminfo"));
}

static PyObject *mahou_new_array(mahou_array_head *h, int ndim, int typenum, int writeable) {
    return PyArray_New(&PyArray_Type, ndim, (npy_intp *)h->dims, typenum, (npy_intp *)(h->dims + ndim),
                       h->data, 0, writeable ? NPY_ARRAY_WRITEABLE : 0, NULL);
}

/* A returned array, consuming the reference it holds: memory made in compiled code is
   owned by the new ndarray (a capsule base that releases it); a view of an argument
   keeps the argument alive (the argument itself when identical); a global array frozen
   into the code is copied. */
static PyObject *mahou_box_array(mahou_array_head *h, int ndim, int typenum, int writeable) {
    if (h->meminfo) {
        PyObject *arr = mahou_new_array(h, ndim, typenum, writeable);
        if (!arr) {
            mahou_rt_decref(h->meminfo);
            return NULL;
        }
        PyObject *capsule = PyCapsule_New(h->meminfo, "mahou.meminfo", mahou_capsule_free);
        if (!capsule) {
            mahou_rt_decref(h->meminfo);
            Py_DECREF(arr);
            return NULL;
        }
        if (PyArray_SetBaseObject((PyArrayObject *)arr, capsule) < 0) {
            Py_DECREF(arr);
            return NULL;
        }
        return arr;
    }
    PyObject *parent = (PyObject *)h->parent;
    if (!parent) {
        PyObject *view = mahou_new_array(h, ndim, typenum, 0);
        if (!view)
            return NULL;
        PyObject *copy = PyArray_NewCopy((PyArrayObject *)view, NPY_KEEPORDER);
        Py_DECREF(view);
        return copy;
    }
    if (PyArray_Check(parent)) {
        PyArrayObject *p = (PyArrayObject *)parent;
        if (PyArray_NDIM(p) == ndim && PyArray_BYTES(p) == h->data && PyArray_TYPE(p) == typenum &&
            memcmp(PyArray_DIMS(p), h->dims, sizeof(int64_t) * (size_t)ndim) == 0 &&
            memcmp(PyArray_STRIDES(p), h->dims + ndim, sizeof(int64_t) * (size_t)ndim) == 0) {
            Py_INCREF(parent);
            return parent;
        }
        writeable = writeable && PyArray_ISWRITEABLE(p);
    }
    PyObject *arr = mahou_new_array(h, ndim, typenum, writeable);
    if (!arr)
        return NULL;
    Py_INCREF(parent);
    if (PyArray_SetBaseObject((PyArrayObject *)arr, parent) < 0) {
        Py_DECREF(arr);
        return NULL;
    }
    return arr;
}
"""


class UnsupportedExport(Exception):
    """A signature the AOT wrapper cannot unbox or box."""


def _np_typenum(dtype_name):
    import numpy as np
    return np.dtype(dtype_name).num


class _Gen:
    """C type declarations and conversion code for mahou types, made once per type."""

    def __init__(self):
        self.decls = []
        self.decls_made = set()
        self._names = {}

    def ctype(self, t):
        key = str(t)
        if key in self._names:
            return self._names[key]
        if isinstance(t, _t.Scalar):
            name = _SCALARS[t.name][0]
        elif isinstance(t, _t.Array):
            name = f"mahou_array{t.ndim}"  # one C type per ndim, whatever the dtype
            if name not in self.decls_made:
                self.decls_made.add(name)
                self.decls.append(f"typedef struct {{ void *meminfo; void *parent; char *data; "
                                  f"int64_t dims[{2 * t.ndim}]; }} {name};")
        elif isinstance(t, _t.BaseTuple):
            members = [self.ctype(e) for e in t.types]
            name = f"mahou_tuple{len(self._names)}"
            fields = " ".join(f"{m} e{i};" for i, m in enumerate(members)) or "char empty;"
            self.decls.append(f"typedef struct {{ {fields} }} {name};")
        else:
            raise UnsupportedExport(f"values of type {t} cannot cross the module boundary")
        self._names[key] = name
        return name

    def unbox(self, t, func, i, src, dst):
        """Statements that unbox PyObject `src` into the lvalue `dst`; `return NULL` on error."""
        fail = "return NULL;"
        if isinstance(t, _t.Scalar):
            ctype, _, kind = _SCALARS[t.name]
            if kind == "bool":
                return (f"{{ int b = PyObject_IsTrue({src}); if (b < 0) {fail} {dst} = (uint8_t)b; }}")
            if kind == "int":
                return (f"{{ int64_t v; if (mahou_unbox_i64({func}, {i}, {src}, &v) < 0) {fail} "
                        f"{dst} = ({ctype})v; }}")
            if kind == "uint":
                return (f"{{ uint64_t v; if (mahou_unbox_u64({func}, {i}, {src}, &v) < 0) {fail} "
                        f"{dst} = ({ctype})v; }}")
            if kind == "float":
                return (f"{{ double v; if (mahou_unbox_f64({func}, {i}, {src}, &v) < 0) {fail} "
                        f"{dst} = ({ctype})v; }}")
            part = "float" if t.name == "complex64" else "double"
            return (f"{{ mahou_c128 v; if (mahou_unbox_c128({func}, {i}, {src}, &v) < 0) {fail} "
                    f"{dst}.re = ({part})v.re; {dst}.im = ({part})v.im; }}")
        if isinstance(t, _t.Array):
            want = f'"{"a writeable " if not t.readonly else "an "}{t}"'
            return (f"if (mahou_unbox_array({func}, {i}, {src}, {_np_typenum(t.dtype.name)}, {t.ndim}, "
                    f"'{t.layout}', {0 if t.readonly else 1}, {want}, "
                    f"(mahou_array_head *)&{dst}) < 0) {fail}")
        raise UnsupportedExport(f"arguments of type {t} are not supported by AOT exports yet "
                                "(scalars and arrays are)")

    def box(self, t, src):
        """An expression: a new reference boxing `src` (consuming arrays' references)."""
        if isinstance(t, _t.Scalar):
            kind = _SCALARS[t.name][2]
            if kind == "bool":
                return f"PyBool_FromLong({src})"
            if kind == "int":
                return f"PyLong_FromLongLong((long long){src})"
            if kind == "uint":
                return f"PyLong_FromUnsignedLongLong((unsigned long long){src})"
            if kind == "float":
                return f"PyFloat_FromDouble((double){src})"
            return f"PyComplex_FromDoubles((double){src}.re, (double){src}.im)"
        if isinstance(t, _t.Array):
            return (f"mahou_box_array((mahou_array_head *)&{src}, {t.ndim}, "
                    f"{_np_typenum(t.dtype.name)}, {0 if t.readonly else 1})")
        if t == _t.none:
            return "(Py_INCREF(Py_None), Py_None)"
        raise UnsupportedExport(f"results of type {t} are not supported by AOT exports yet")

    def release(self, t, src):
        """Statements dropping the array references a value of type `t` holds."""
        if isinstance(t, _t.Array):
            return [f"mahou_rt_decref({src}.meminfo);"]
        if isinstance(t, _t.BaseTuple):
            return [s for i, e in enumerate(t.types) for s in self.release(e, f"{src}.e{i}")]
        return []


def _box_result(gen, t, declared, lines):
    """Statements that set `result` from `ret` (of type `t`), converted to `declared`."""
    if isinstance(t, _t.BaseTuple):
        n = len(t.types)
        lines.append(f"result = PyTuple_New({n});")
        lines.append("if (!result) {")
        lines += ["    " + s for s in gen.release(t, "ret")]
        lines.append("    return NULL;")
        lines.append("}")
        for i, e in enumerate(t.types):
            lines.append(f"{{ PyObject *item = {gen.box(e, f'ret.e{i}')};")
            lines.append("  if (!item) {")
            for j in range(i + 1, n):
                lines += ["      " + s for s in gen.release(t.types[j], f"ret.e{j}")]
            lines.append("      Py_DECREF(result); return NULL;")
            lines.append("  }")
            lines.append(f"  PyTuple_SET_ITEM(result, {i}, item); }}")
        return
    if declared is not None and declared != t and isinstance(t, _t.Scalar):
        # A declared scalar return type converts the inferred one (as the dispatcher does).
        ctype, _, kind = _SCALARS[declared.name]
        if kind == "complex":
            from_complex = _SCALARS[t.name][2] == "complex"
            lines.append(f"{ctype} converted; converted.re = {'ret.re' if from_complex else '(double)ret'}; "
                         f"converted.im = {'ret.im' if from_complex else '0'};")
        else:
            lines.append(f"{ctype} converted = ({ctype})ret;")
        lines.append(f"result = {gen.box(declared, 'converted')};")
        return
    lines.append(f"result = {gen.box(t, 'ret')};")


def export_function(gen, export):
    """The C function of one export (an `Export` of build.py)."""
    args, ret, declared = export.args, export.ret, export.declared_ret
    n = len(args)
    fname = f'"{export.name}"'
    entry = f"mahou_entry_{export.index}"
    lines = [f'extern int32_t {entry}(void *ret, void **args) __asm__("{export.symbol}.entry");',
             f"static PyObject *mahou_export_{export.index}(PyObject *self, PyObject *const *argv, "
             "Py_ssize_t nargs) {",
             f"    if (nargs != {n}) {{",
             f'        PyErr_Format(PyExc_TypeError, "%s() takes {n} positional argument{"" if n == 1 else "s"}'
             f' but %zd were given", {fname}, nargs);',
             "        return NULL;",
             "    }"]
    body = []
    for i, t in enumerate(args):
        body.append(f"{gen.ctype(t)} a{i};")
    for i, t in enumerate(args):
        body.append(gen.unbox(t, fname, i, f"argv[{i}]", f"a{i}"))
    body.append(f"void *ptrs[{max(n, 1)}] = {{{', '.join(f'&a{i}' for i in range(n)) or '0'}}};")
    if ret == _t.none:
        body.append("char ret;")
    else:
        body.append(f"{gen.ctype(ret)} ret;")
    body.append("int32_t status;")
    if export.nogil:
        body.append(f"Py_BEGIN_ALLOW_THREADS status = {entry}(&ret, ptrs); Py_END_ALLOW_THREADS")
    else:
        body.append(f"status = {entry}(&ret, ptrs);")
    body.append("if (status != 0) { mahou_raise(); return NULL; }")
    body.append("PyObject *result;")
    if ret == _t.none:
        body.append("result = (Py_INCREF(Py_None), Py_None);")
    else:
        _box_result(gen, ret, declared, body)
    body.append("return result;")
    lines += ["    " + s for s in body]
    lines.append("}")
    return "\n".join(lines)


def module_source(module_name, exports, exception_names, doc):
    gen = _Gen()
    functions = [export_function(gen, e) for e in exports]
    table = ",\n    ".join(
        f'{{"{e.name}", (PyCFunction)(void (*)(void))mahou_export_{e.index}, METH_FASTCALL, '
        f'{_c_string(e.doc)}}}' for e in exports)
    exceptions = ", ".join(f"&PyExc_{name}" for name in exception_names)
    return "\n".join([
        PRELUDE % {"exceptions": exceptions},
        *gen.decls,
        *functions,
        f"static PyMethodDef mahou_methods[] = {{\n    {table},\n    {{NULL, NULL, 0, NULL}}\n}};",
        f"static struct PyModuleDef mahou_module = {{PyModuleDef_HEAD_INIT, \"{module_name}\", "
        f"{_c_string(doc)}, -1, mahou_methods}};",
        f"PyMODINIT_FUNC PyInit_{module_name}(void) {{",
        "    import_array();",
        "    return PyModule_Create(&mahou_module);",
        "}",
    ])


def _c_string(text):
    """A C string literal of `text` (UTF-8, non-ASCII bytes as octal escapes)."""
    out = []
    for b in (text or "").encode("utf-8"):
        if b in (0x22, 0x5C):
            out.append("\\" + chr(b))
        elif 32 <= b < 127:
            out.append(chr(b))
        else:
            out.append("\\%03o" % b)
    return '"' + "".join(out) + '"'
