//===- PrecompiledHeaders.cpp - Anchor of the shared precompiled header ---===//
//
// Part of the torch2mlir project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The target Torch2MlirPrecompiledHeaders compiles PrecompiledHeaders.h once;
// the libraries reuse it (see lib/CMakeLists.txt). CMake needs a source file
// in the target that owns a precompiled header: this one is empty.
//
//===----------------------------------------------------------------------===//
