// Includes the NumPy C API for the binding: one shared API table (MAHOU_ARRAY_API),
// imported in module.cpp (which defines MAHOU_IMPORT_NUMPY before including this).
#pragma once

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL MAHOU_ARRAY_API
#ifndef MAHOU_IMPORT_NUMPY
#define NO_IMPORT_ARRAY
#endif
#include <Python.h>
#include <numpy/arrayobject.h>
#include <numpy/arrayscalars.h>
