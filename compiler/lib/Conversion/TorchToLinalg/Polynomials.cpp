//===- Polynomials.cpp - Orthogonal polynomials to linalg -----------------===//
//
// Part of the torch2mlir project.
//
// aten.special_{chebyshev_polynomial_t,u,v,w, hermite_polynomial_h,he,
// laguerre_polynomial_l, legendre_polynomial_p}(x, n): the polynomial of
// degree n (a per-element tensor, truncated to an integer as PyTorch's
// static_cast<int64_t>) at x. Each element runs its own three-term
// recurrence, an scf.for of n - 1 steps inside the elementwise
// linalg.generic, with the closed forms and special values PyTorch's CPU
// kernels take first (ATen's native/Math.h, measured against eager in
// test/e2e/test_special.py):
//   - n < 0 (and a NaN n): 0;
//   - Chebyshev at |x| = 1 and Legendre at |x| = 1, Laguerre at x = 0:
//     their exact values;
//   - Chebyshev for |x| < 1 and n above 6 (T) or 8 (U, V, W): the
//     trigonometric form (cos(n acos x) for T), not the recurrence.
// x and n are cast to the result dtype first (PyTorch's common dtype);
// float16/bfloat16 compute in float32 and round once.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "torch2mlir/Conversion/TorchToLinalg/TorchToLinalg.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::torch2mlir;
using namespace mlir::torch2mlir::torch;
using namespace mlir::torch2mlir::torch_to_linalg;

namespace {

/// Scalar builders on one float type.
struct Scalars {
  OpBuilder &b;
  Location loc;
  Type type;

  Value c(double v) const { return createFloatConstant(b, loc, type, v); }
  Value add(Value x, Value y) const {
    return arith::AddFOp::create(b, loc, x, y);
  }
  Value sub(Value x, Value y) const {
    return arith::SubFOp::create(b, loc, x, y);
  }
  Value mul(Value x, Value y) const {
    return arith::MulFOp::create(b, loc, x, y);
  }
  Value div(Value x, Value y) const {
    return arith::DivFOp::create(b, loc, x, y);
  }
  Value neg(Value x) const { return arith::NegFOp::create(b, loc, x); }
  Value cmp(arith::CmpFPredicate p, Value x, Value y) const {
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  Value select(Value cond, Value x, Value y) const {
    return arith::SelectOp::create(b, loc, cond, x, y);
  }
  Value both(Value x, Value y) const {
    return arith::AndIOp::create(b, loc, x, y);
  }
  Value either(Value x, Value y) const {
    return arith::OrIOp::create(b, loc, x, y);
  }
};

/// What one polynomial family computes, given x, the degree as a float of
/// the compute type (`nf`) and whether it is even.
struct Family {
  /// P_0(x) is 1 for every family; P_1(x).
  std::function<Value(const Scalars &, Value x)> first;
  /// P_k(x) from P_{k-1} (`q`) and P_{k-2} (`p`), `k` a float.
  std::function<Value(const Scalars &, Value x, Value k, Value p, Value q)>
      step;
  /// The value that replaces the recurrence where it applies (with the
  /// condition), or null.
  std::function<std::pair<Value, Value>(const Scalars &, Value x, Value nf,
                                        Value even)>
      special;
};

/// x + x: PyTorch's 2x.
Value twice(const Scalars &s, Value x) { return s.add(x, x); }

/// |x| == 1 and x > 0.
std::pair<Value, Value> unitAbs(const Scalars &s, Value x) {
  Value absX = math::AbsFOp::create(s.b, s.loc, x);
  return {s.cmp(arith::CmpFPredicate::OEQ, absX, s.c(1.0)),
          s.cmp(arith::CmpFPredicate::OGT, x, s.c(0.0))};
}

/// |x| < 1 and n > `degree`.
Value trigonometricForm(const Scalars &s, Value x, Value nf, double degree) {
  Value absX = math::AbsFOp::create(s.b, s.loc, x);
  return s.both(s.cmp(arith::CmpFPredicate::OLT, absX, s.c(1.0)),
                s.cmp(arith::CmpFPredicate::OGT, nf, s.c(degree)));
}

/// The Chebyshev recurrence P_k = 2x P_{k-1} - P_{k-2}.
Value chebyshevStep(const Scalars &s, Value x, Value, Value p, Value q) {
  return s.sub(s.mul(twice(s, x), q), p);
}

Family chebyshevT() {
  Family f;
  f.first = [](const Scalars &, Value x) { return x; };
  f.step = chebyshevStep;
  f.special = [](const Scalars &s, Value x, Value nf, Value even) {
    auto [unit, positive] = unitAbs(s, x);
    Value atUnit = s.select(s.either(positive, even), s.c(1.0), s.c(-1.0));
    Value theta = math::AcosOp::create(s.b, s.loc, x);
    Value trig = math::CosOp::create(s.b, s.loc, s.mul(nf, theta));
    Value useTrig = trigonometricForm(s, x, nf, 6.0);
    return std::make_pair(s.select(unit, atUnit, trig),
                          s.either(unit, useTrig));
  };
  return f;
}

Family chebyshevU() {
  Family f;
  f.first = [](const Scalars &s, Value x) { return twice(s, x); };
  f.step = chebyshevStep;
  f.special = [](const Scalars &s, Value x, Value nf, Value even) {
    auto [unit, positive] = unitAbs(s, x);
    Value n1 = s.add(nf, s.c(1.0));
    Value atUnit = s.select(s.either(positive, even), n1, s.neg(n1));
    Value theta = math::AcosOp::create(s.b, s.loc, x);
    Value n1Theta = s.mul(n1, theta);
    Value sinTheta = math::SinOp::create(s.b, s.loc, theta);
    Value ratio =
        s.div(math::SinOp::create(s.b, s.loc, n1Theta).getResult(), sinTheta);
    // sin(theta) == 0: the limit (n + 1) cos((n + 1) theta) / x.
    Value limit = s.div(
        s.mul(n1, math::CosOp::create(s.b, s.loc, n1Theta).getResult()), x);
    Value trig = s.select(s.cmp(arith::CmpFPredicate::UNE, sinTheta, s.c(0.0)),
                          ratio, limit);
    Value useTrig = trigonometricForm(s, x, nf, 8.0);
    return std::make_pair(s.select(unit, atUnit, trig),
                          s.either(unit, useTrig));
  };
  return f;
}

/// V (`isW` false) and W: (n + 1/2) theta over cos or sin of theta / 2.
Family chebyshevVW(bool isW) {
  Family f;
  f.first = [isW](const Scalars &s, Value x) {
    return s.add(twice(s, x), s.c(isW ? 1.0 : -1.0));
  };
  f.step = chebyshevStep;
  f.special = [isW](const Scalars &s, Value x, Value nf, Value even) {
    auto [unit, positive] = unitAbs(s, x);
    Value twoN1 = s.add(s.add(nf, nf), s.c(1.0));
    // V: 1 at x = 1, +-(2n + 1) at x = -1; W: 2n + 1 at x = 1, +-1 at -1.
    Value atMinusOne = isW ? s.select(even, s.c(1.0), s.c(-1.0))
                           : s.select(even, twoN1, s.neg(twoN1));
    Value atOne = isW ? twoN1 : s.c(1.0);
    Value atUnit = s.select(positive, atOne, atMinusOne);
    Value theta = math::AcosOp::create(s.b, s.loc, x);
    Value half = s.mul(theta, s.c(0.5));
    Value angle = s.mul(s.add(nf, s.c(0.5)), theta);
    // V: cos(angle) / cos(theta / 2), W: sin(angle) / sin(theta / 2);
    // where the other function of theta / 2 is 1 the value at x = +-1.
    auto sin = [&](Value v) -> Value {
      return math::SinOp::create(s.b, s.loc, v);
    };
    auto cos = [&](Value v) -> Value {
      return math::CosOp::create(s.b, s.loc, v);
    };
    Value ratio =
        isW ? s.div(sin(angle), sin(half)) : s.div(cos(angle), cos(half));
    Value degenerate =
        s.cmp(arith::CmpFPredicate::OEQ, isW ? cos(half) : sin(half), s.c(1.0));
    Value trig = s.select(degenerate, atUnit, ratio);
    Value useTrig = trigonometricForm(s, x, nf, 8.0);
    return std::make_pair(s.select(unit, atUnit, trig),
                          s.either(unit, useTrig));
  };
  return f;
}

/// Physicists' (`probabilists` false) or probabilists' Hermite:
/// H_k = 2x H_{k-1} - 2(k-1) H_{k-2}, He_k = x He_{k-1} - (k-1) He_{k-2}.
Family hermite(bool probabilists) {
  Family f;
  f.first = [probabilists](const Scalars &s, Value x) {
    return probabilists ? x : twice(s, x);
  };
  f.step = [probabilists](const Scalars &s, Value x, Value k, Value p,
                          Value q) {
    Value km1 = s.sub(k, s.c(1.0));
    if (probabilists)
      return s.sub(s.mul(x, q), s.mul(km1, p));
    return s.sub(s.mul(twice(s, x), q), s.mul(s.add(km1, km1), p));
  };
  return f;
}

/// Laguerre: L_k = ((2k - 1 - x) L_{k-1} - (k - 1) L_{k-2}) / k; 1 at x = 0.
Family laguerre() {
  Family f;
  f.first = [](const Scalars &s, Value x) { return s.sub(s.c(1.0), x); };
  f.step = [](const Scalars &s, Value x, Value k, Value p, Value q) {
    Value km1 = s.sub(k, s.c(1.0));
    Value factor = s.sub(s.add(km1, k), x);
    return s.div(s.sub(s.mul(factor, q), s.mul(km1, p)), k);
  };
  f.special = [](const Scalars &s, Value x, Value, Value) {
    Value zero = s.cmp(arith::CmpFPredicate::OEQ, x, s.c(0.0));
    return std::make_pair(s.c(1.0), zero);
  };
  return f;
}

/// Legendre: P_k = ((2k - 1) x P_{k-1} - (k - 1) P_{k-2}) / k; at |x| = 1,
/// 1 or (-1)^n.
Family legendre() {
  Family f;
  f.first = [](const Scalars &, Value x) { return x; };
  f.step = [](const Scalars &s, Value x, Value k, Value p, Value q) {
    Value km1 = s.sub(k, s.c(1.0));
    Value factor = s.mul(s.add(km1, k), x);
    return s.div(s.sub(s.mul(factor, q), s.mul(km1, p)), k);
  };
  f.special = [](const Scalars &s, Value x, Value, Value even) {
    auto [unit, positive] = unitAbs(s, x);
    Value value = s.select(s.either(positive, even), s.c(1.0), s.c(-1.0));
    return std::make_pair(value, unit);
  };
  return f;
}

/// P_n(x) for one element: `x` and `n` of the float type `type`.
Value buildPolynomial(OpBuilder &b, Location loc, const Family &family, Value x,
                      Value n) {
  Type type = x.getType();
  Scalars s{b, loc, type};
  // n as PyTorch's static_cast<int64_t>, which truncates (-0.5 is degree
  // 0), bounded so that the conversion is defined; a degree below 0 (or a
  // NaN n, INT64_MIN on x86) selects 0 below.
  Value bounded = s.select(s.cmp(arith::CmpFPredicate::OGT, n, s.c(0x1p62)),
                           s.c(0x1p62), n);
  Value negative = s.cmp(arith::CmpFPredicate::ULE, n, s.c(-1.0));
  bounded = s.select(negative, s.c(0.0), bounded);
  Type i64 = b.getI64Type();
  Value degree = arith::FPToSIOp::create(b, loc, i64, bounded);
  Value nf = arith::SIToFPOp::create(b, loc, type, degree);
  Value one64 = arith::ConstantIntOp::create(b, loc, 1, 64);
  Value zero64 = arith::ConstantIntOp::create(b, loc, 0, 64);
  Value even = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::AndIOp::create(b, loc, degree, one64), zero64);

  Value specialValue, useSpecial;
  if (family.special)
    std::tie(specialValue, useSpecial) = family.special(s, x, nf, even);

  // The recurrence for k = 2..n (no steps where a special value applies).
  Value steps = arith::SubIOp::create(b, loc, degree, one64);
  steps = arith::MaxSIOp::create(b, loc, steps, zero64);
  if (useSpecial)
    steps = arith::SelectOp::create(b, loc, useSpecial, zero64, steps);
  Type index = b.getIndexType();
  Value upper = arith::IndexCastOp::create(b, loc, index, steps);
  Value lower = arith::ConstantIndexOp::create(b, loc, 0);
  Value stride = arith::ConstantIndexOp::create(b, loc, 1);
  Value first = family.first(s, x);
  auto loop = scf::ForOp::create(
      b, loc, lower, upper, stride, ValueRange{s.c(1.0), first},
      [&](OpBuilder &nb, Location nl, Value iv, ValueRange carried) {
        Scalars ns{nb, nl, type};
        Value ivInt = arith::IndexCastOp::create(nb, nl, i64, iv);
        Value k = arith::SIToFPOp::create(nb, nl, type, ivInt);
        k = ns.add(k, ns.c(2.0));
        Value next = family.step(ns, x, k, carried[0], carried[1]);
        scf::YieldOp::create(nb, nl, ValueRange{carried[1], next});
      });
  Value result = loop.getResult(1);
  Value isZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, degree, zero64);
  result = s.select(isZero, s.c(1.0), result);
  if (useSpecial)
    result = s.select(useSpecial, specialValue, result);
  return s.select(negative, s.c(0.0), result);
}

/// A polynomial op: `family`'s recurrence per element, in the opmath type
/// of the float result dtype.
template <typename OpTy> struct ConvertPolynomial : ConvertInResultDtype<OpTy> {
  ConvertPolynomial(const TypeConverter &converter, MLIRContext *context,
                    Family family)
      : ConvertInResultDtype<OpTy>(converter, context),
        family(std::move(family)) {}

  StringRef unsupported(OpTy, Type dtype) const override {
    return isa<mlir::FloatType>(dtype)
               ? ""
               : "unsupported: a result of a non-float dtype";
  }
  Value build(OpTy, OpBuilder &b, Location loc, ValueRange args,
              Type) const override {
    Type element = args[0].getType();
    Type compute = getOpMathType(element);
    Value x = castFloat(b, loc, args[0], compute);
    Value n = castFloat(b, loc, args[1], compute);
    return castFloat(b, loc, buildPolynomial(b, loc, family, x, n), element);
  }

  Family family;
};

} // namespace

void mlir::torch2mlir::populatePolynomialPatternsAndLegality(
    TypeConverter &typeConverter, RewritePatternSet &patterns,
    ConversionTarget &target) {
  MLIRContext *context = patterns.getContext();
  addIllegalCoreOps<
      AtenSpecialChebyshevPolynomialTOp, AtenSpecialChebyshevPolynomialUOp,
      AtenSpecialChebyshevPolynomialVOp, AtenSpecialChebyshevPolynomialWOp,
      AtenSpecialHermitePolynomialHOp, AtenSpecialHermitePolynomialHeOp,
      AtenSpecialLaguerrePolynomialLOp, AtenSpecialLegendrePolynomialPOp>(
      target);
  patterns.add<ConvertPolynomial<AtenSpecialChebyshevPolynomialTOp>>(
      typeConverter, context, chebyshevT());
  patterns.add<ConvertPolynomial<AtenSpecialChebyshevPolynomialUOp>>(
      typeConverter, context, chebyshevU());
  patterns.add<ConvertPolynomial<AtenSpecialChebyshevPolynomialVOp>>(
      typeConverter, context, chebyshevVW(/*isW=*/false));
  patterns.add<ConvertPolynomial<AtenSpecialChebyshevPolynomialWOp>>(
      typeConverter, context, chebyshevVW(/*isW=*/true));
  patterns.add<ConvertPolynomial<AtenSpecialHermitePolynomialHOp>>(
      typeConverter, context, hermite(/*probabilists=*/false));
  patterns.add<ConvertPolynomial<AtenSpecialHermitePolynomialHeOp>>(
      typeConverter, context, hermite(/*probabilists=*/true));
  patterns.add<ConvertPolynomial<AtenSpecialLaguerrePolynomialLOp>>(
      typeConverter, context, laguerre());
  patterns.add<ConvertPolynomial<AtenSpecialLegendrePolynomialPOp>>(
      typeConverter, context, legendre());
}
