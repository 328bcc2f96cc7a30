//===- PrecompiledHeaders.h - Headers most translation units share --------===//
//
// Part of the torch2mlir project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The MLIR and torch dialect headers that most torch2mlir libraries include.
// Parsing them is two thirds of the time a typical pattern file takes to
// compile (14 of 21 s for TorchToTosa/Linear.cpp with GCC 12 at -O3), so the
// build compiles them once into a precompiled header that every library
// reuses (TORCH2MLIR_ENABLE_PCH, see lib/CMakeLists.txt). Only headers that
// are stable and widely used belong here: each change to this list, or to a
// header it includes, recompiles every library.
//
// Nothing may depend on this file: sources still include what they use, so
// the build stays correct with TORCH2MLIR_ENABLE_PCH=OFF.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "torch2mlir/Dialect/Torch/IR/TorchOps.h"
#include "torch2mlir/Dialect/TorchConversion/IR/TorchConversionOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <limits>
#include <numeric>
