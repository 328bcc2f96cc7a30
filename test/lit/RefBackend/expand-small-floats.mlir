// RUN: torch2mlir-opt %s -refbackend-expand-small-floats -split-input-file | FileCheck %s

// extf decodes the fields: magnitude 0x7f, exponent >> 3, mantissa & 7,
// the implicit bit 8 of normal numbers, 2^(max(e, 1) - 10) as f32 bits
// ((e + 117) << 23), the sign from bit 7; f8E4M3FN has two NaN codes (0x7f,
// 0xff) and no infinity.
// CHECK-LABEL: func.func @extf_e4m3fn(
// CHECK-DAG:     %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK-DAG:     %[[C117:.*]] = arith.constant 117 : i32
// CHECK-DAG:     %[[C127:.*]] = arith.constant 127 : i32
// CHECK-DAG:     %[[C255:.*]] = arith.constant 255 : i32
// CHECK:         %[[CODE:.*]] = arith.bitcast %{{.*}} : f8E4M3FN to i8
// CHECK:         %[[BITS:.*]] = arith.extui %[[CODE]] : i8 to i32
// CHECK:         %[[MAG:.*]] = arith.andi %[[BITS]], %[[C127]] : i32
// CHECK:         %[[EXP:.*]] = arith.maxsi
// CHECK:         arith.addi %[[EXP]], %[[C117]] : i32
// CHECK:         %[[SIG:.*]] = arith.uitofp %{{.*}} : i32 to f32
// CHECK:         %[[VALUE:.*]] = arith.mulf %[[SIG]], %{{.*}} : f32
// CHECK:         arith.negf %[[VALUE]] : f32
// CHECK:         %[[IS_NAN:.*]] = arith.cmpi eq, %[[BITS]], %[[C127]] : i32
// CHECK:         arith.select %[[IS_NAN]], %[[NAN]], %{{.*}} : f32
// CHECK:         %[[IS_NNAN:.*]] = arith.cmpi eq, %[[BITS]], %[[C255]] : i32
// CHECK:         %[[RESULT:.*]] = arith.select %[[IS_NNAN]], %[[NAN]], %{{.*}} : f32
// CHECK-NOT:     0x7F800000
// CHECK:         return %[[RESULT]] : f32
func.func @extf_e4m3fn(%x: f8E4M3FN) -> f32 {
  %0 = arith.extf %x : f8E4M3FN to f32
  return %0 : f32
}

// -----

// truncf rounds on the f64 value: the exponent clamped at -14 (the
// smallest normal of f8E5M2), ulps scaled by 2^(2 - e) and rounded to even;
// code = ((e + 14) << 2) + ulps; past 123 (57344) or infinite: 124 (inf);
// NaN: 126; the sign is bit 7 of every result.
// CHECK-LABEL: func.func @truncf_e5m2(
// CHECK-DAG:     %[[MIN_EXP:.*]] = arith.constant -14 : i64
// CHECK-DAG:     %[[MAX_FINITE:.*]] = arith.constant 123 : i64
// CHECK-DAG:     %[[INF:.*]] = arith.constant 124 : i64
// CHECK-DAG:     %[[NAN:.*]] = arith.constant 126 : i64
// CHECK:         %[[WIDE:.*]] = arith.extf %{{.*}} : f32 to f64
// CHECK:         %[[BITS:.*]] = arith.bitcast %[[WIDE]] : f64 to i64
// CHECK:         %[[IS_NAN:.*]] = arith.cmpi ugt
// CHECK:         %[[IS_INF:.*]] = arith.cmpi eq
// CHECK:         %[[EXP:.*]] = arith.maxsi %{{.*}}, %[[MIN_EXP]] : i64
// CHECK:         %[[ULPS:.*]] = math.roundeven %{{.*}} : f64
// CHECK:         %[[Q:.*]] = arith.fptoui %[[ULPS]] : f64 to i64
// CHECK:         %[[CODE:.*]] = arith.addi %{{.*}}, %[[Q]] : i64
// CHECK:         %[[PAST:.*]] = arith.cmpi ugt, %[[CODE]], %[[MAX_FINITE]] : i64
// CHECK:         %[[OVERFLOW:.*]] = arith.ori %[[IS_INF]], %[[PAST]] : i1
// CHECK:         %[[SAT:.*]] = arith.select %[[OVERFLOW]], %[[INF]], %[[CODE]] : i64
// CHECK:         %[[WITH_NAN:.*]] = arith.select %[[IS_NAN]], %[[NAN]], %[[SAT]] : i64
// CHECK:         arith.shrui %[[BITS]], %{{.*}} : i64
// CHECK:         %[[SIGNED:.*]] = arith.ori %[[WITH_NAN]], %{{.*}} : i64
// CHECK:         %[[BYTE:.*]] = arith.trunci %[[SIGNED]] : i64 to i8
// CHECK:         arith.bitcast %[[BYTE]] : i8 to f8E5M2
func.func @truncf_e5m2(%x: f32) -> f8E5M2 {
  %0 = arith.truncf %x : f32 to f8E5M2
  return %0 : f8E5M2
}

// -----

// f8E4M3FNUZ: no infinity and no negative zero; overflow and NaN are the
// code 0x80 itself, which takes no sign, and neither does zero.
// CHECK-LABEL: func.func @truncf_e4m3fnuz(
// CHECK-DAG:     %[[NAN:.*]] = arith.constant 128 : i64
// CHECK-DAG:     %[[MAX_FINITE:.*]] = arith.constant 127 : i64
// CHECK-DAG:     %[[MIN_EXP:.*]] = arith.constant -7 : i64
// CHECK:         arith.extf %{{.*}} : f16 to f64
// CHECK:         arith.maxsi %{{.*}}, %[[MIN_EXP]] : i64
// CHECK:         %[[PAST:.*]] = arith.cmpi ugt, %{{.*}}, %[[MAX_FINITE]] : i64
// CHECK:         %[[OVERFLOW:.*]] = arith.ori %{{.*}}, %[[PAST]] : i1
// CHECK:         arith.select %[[OVERFLOW]], %[[NAN]], %{{.*}} : i64
// CHECK:         %[[CODE:.*]] = arith.select %{{.*}}, %[[NAN]], %{{.*}} : i64
// CHECK:         %[[NONZERO:.*]] = arith.cmpi ne, %[[CODE]], %{{.*}} : i64
// CHECK:         %[[TAKES_SIGN:.*]] = arith.andi %{{.*}}, %[[NONZERO]] : i1
// CHECK:         arith.select %[[TAKES_SIGN]], %{{.*}}, %[[CODE]] : i64
func.func @truncf_e4m3fnuz(%x: f16) -> f8E4M3FNUZ {
  %0 = arith.truncf %x : f16 to f8E4M3FNUZ
  return %0 : f8E4M3FNUZ
}

// -----

// Vectors take splat constants; f8E5M2 has infinities (0x7c, 0xfc) and six
// NaN codes; the f32 value widens exactly to f64.
// CHECK-LABEL: func.func @extf_vector(
// CHECK-DAG:     arith.constant dense<0x7F800000> : vector<4xf32>
// CHECK-DAG:     arith.constant dense<0xFF800000> : vector<4xf32>
// CHECK-DAG:     arith.constant dense<124> : vector<4xi32>
// CHECK-DAG:     arith.constant dense<252> : vector<4xi32>
// CHECK:         arith.bitcast %{{.*}} : vector<4xf8E5M2> to vector<4xi8>
// CHECK-COUNT-8: arith.cmpi eq
// CHECK:         %[[WIDE:.*]] = arith.extf %{{.*}} : vector<4xf32> to vector<4xf64>
// CHECK:         return %[[WIDE]]
func.func @extf_vector(%x: vector<4xf8E5M2>) -> vector<4xf64> {
  %0 = arith.extf %x : vector<4xf8E5M2> to vector<4xf64>
  return %0 : vector<4xf64>
}

// -----

// f8E8M0FNU: the f32 exponent, plus one where the mantissa is at least half
// (more than half for subnormals), 0xff for NaN and infinities; back, the
// code shifted into the f32 exponent (code 0: the subnormal 2^-127).
// CHECK-LABEL: func.func @e8m0(
// CHECK-DAG:     %[[HALF:.*]] = arith.constant 4194304 : i32
// CHECK:         %[[BITS:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK:         %[[MANT:.*]] = arith.andi %[[BITS]], %{{.*}} : i32
// CHECK:         %[[GE:.*]] = arith.cmpi uge, %[[MANT]], %[[HALF]] : i32
// CHECK:         %[[GT:.*]] = arith.cmpi ugt, %[[MANT]], %[[HALF]] : i32
// CHECK:         arith.select %{{.*}}, %[[GE]], %[[GT]] : i1
// CHECK:         arith.minui
// CHECK:         %[[CODE:.*]] = arith.trunci %{{.*}} : i32 to i8
// CHECK:         %[[F8:.*]] = arith.bitcast %[[CODE]] : i8 to f8E8M0FNU
// CHECK:         %[[BACK:.*]] = arith.bitcast %[[F8]] : f8E8M0FNU to i8
// CHECK:         arith.extui %[[BACK]] : i8 to i32
// CHECK:         arith.select %{{.*}}, %[[HALF]], %{{.*}} : i32
// CHECK:         arith.bitcast %{{.*}} : i32 to f32
func.func @e8m0(%x: f32) -> f32 {
  %0 = arith.truncf %x : f32 to f8E8M0FNU
  %1 = arith.extf %0 : f8E8M0FNU to f32
  return %1 : f32
}

// -----

// Conversions between types LLVM has stay as they are.
// CHECK-LABEL: func.func @untouched(
// CHECK:         %[[R:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK:         %[[T:.*]] = arith.truncf %[[R]] : f32 to bf16
func.func @untouched(%x: f16) -> bf16 {
  %0 = arith.extf %x : f16 to f32
  %1 = arith.truncf %0 : f32 to bf16
  return %1 : bf16
}
