//===- MoTypes.cpp - mo dims, attributes and types ------------------------===//

#include "mo/Dialect/MoDialect.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::mo;

#include "Mo/MoEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "Mo/MoAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "Mo/MoTypes.cpp.inc"

// Registration lives here, next to the storage classes it needs.
void MoDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Mo/MoAttrs.cpp.inc"
      >();
}

void MoDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "Mo/MoTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Dims
//===----------------------------------------------------------------------===//

bool mo::isStaticDim(Attribute dim) {
  auto i = dyn_cast_or_null<IntegerAttr>(dim);
  return i && i.getInt() >= 0;
}

bool mo::isUnknownDim(Attribute dim) {
  auto i = dyn_cast_or_null<IntegerAttr>(dim);
  return i && i.getInt() == ShapedType::kDynamic;
}

bool mo::isSymbolicDim(Attribute dim) { return isa_and_nonnull<StringAttr>(dim); }

int64_t mo::getStaticDimSize(Attribute dim) {
  return isStaticDim(dim) ? cast<IntegerAttr>(dim).getInt()
                          : ShapedType::kDynamic;
}

SmallVector<int64_t> mo::getStaticShape(ArrayRef<Attribute> dims) {
  return llvm::map_to_vector(dims, getStaticDimSize);
}

Attribute mo::getStaticDim(MLIRContext *ctx, int64_t size) {
  return IntegerAttr::get(IntegerType::get(ctx, 64), size);
}

Attribute mo::getUnknownDim(MLIRContext *ctx) {
  return getStaticDim(ctx, ShapedType::kDynamic);
}

Attribute mo::getSymbolicDim(MLIRContext *ctx, StringRef name) {
  return StringAttr::get(ctx, name);
}

static std::optional<int64_t> foldDimArith(DimExprKind kind, int64_t a,
                                           int64_t b) {
  // An overflow does not fold: the type verifier rejects what is left.
  int64_t r;
  switch (kind) {
  case DimExprKind::Add:
    return llvm::AddOverflow(a, b, r) ? std::nullopt : std::optional(r);
  case DimExprKind::Sub:
    return llvm::SubOverflow(a, b, r) ? std::nullopt : std::optional(r);
  case DimExprKind::Mul:
    return llvm::MulOverflow(a, b, r) ? std::nullopt : std::optional(r);
  case DimExprKind::FloorDiv:
    return b == 0 ? std::nullopt : std::optional(llvm::divideFloorSigned(a, b));
  case DimExprKind::Mod:
    return b == 0 ? std::nullopt : std::optional(llvm::mod(a, b));
  }
  return std::nullopt;
}

Attribute mo::getDimExpr(DimExprKind kind, Attribute lhs, Attribute rhs) {
  MLIRContext *ctx = lhs.getContext();
  // `?` absorbs everything: the result is unknown as well.
  if (isUnknownDim(lhs) || isUnknownDim(rhs))
    return getUnknownDim(ctx);
  if (isStaticDim(lhs) && isStaticDim(rhs))
    if (auto v = foldDimArith(kind, getStaticDimSize(lhs),
                              getStaticDimSize(rhs));
        v && *v >= 0)
      return getStaticDim(ctx, *v);
  int64_t l = getStaticDimSize(lhs), r = getStaticDimSize(rhs);
  switch (kind) {
  case DimExprKind::Add:
    if (l == 0)
      return rhs;
    [[fallthrough]];
  case DimExprKind::Sub:
    if (r == 0)
      return lhs;
    break;
  case DimExprKind::Mul:
    if (l == 1)
      return rhs;
    if (r == 1)
      return lhs;
    if (l == 0 || r == 0)
      return getStaticDim(ctx, 0);
    break;
  case DimExprKind::FloorDiv:
    if (r == 1)
      return lhs;
    break;
  case DimExprKind::Mod:
    if (r == 1)
      return getStaticDim(ctx, 0);
    break;
  }
  return DimExprAttr::get(ctx, kind, lhs, rhs);
}

void mo::collectDimSymbols(Attribute dim, llvm::SetVector<StringAttr> &symbols) {
  if (auto name = dyn_cast<StringAttr>(dim))
    symbols.insert(name);
  else if (auto expr = dyn_cast<DimExprAttr>(dim)) {
    collectDimSymbols(expr.getLhs(), symbols);
    collectDimSymbols(expr.getRhs(), symbols);
  }
}

Attribute
mo::substituteDimSymbols(Attribute dim,
                         const llvm::DenseMap<StringAttr, Attribute> &map) {
  if (auto name = dyn_cast<StringAttr>(dim))
    return map.lookup(name) ? map.lookup(name) : dim;
  if (auto expr = dyn_cast<DimExprAttr>(dim))
    return getDimExpr(expr.getKind(), substituteDimSymbols(expr.getLhs(), map),
                      substituteDimSymbols(expr.getRhs(), map));
  return dim;
}

static bool isIdentifier(StringRef s) {
  if (s.empty() || !(llvm::isAlpha(s.front()) || s.front() == '_'))
    return false;
  return llvm::all_of(s, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

LogicalResult mo::verifyDim(function_ref<InFlightDiagnostic()> emitError,
                            Attribute dim) {
  if (auto i = dyn_cast<IntegerAttr>(dim)) {
    if (i.getInt() < 0 && i.getInt() != ShapedType::kDynamic)
      return emitError() << "dims must be non-negative, got " << i.getInt();
    return success();
  }
  if (auto name = dyn_cast<StringAttr>(dim)) {
    if (!isIdentifier(name.getValue()) || name.getValue() == "floordiv" ||
        name.getValue() == "mod")
      return emitError() << "symbolic dim '" << name.getValue()
                         << "' is not an identifier ([A-Za-z_][A-Za-z0-9_]*)";
    return success();
  }
  if (auto expr = dyn_cast<DimExprAttr>(dim))
    return success(succeeded(verifyDim(emitError, expr.getLhs())) &&
                   succeeded(verifyDim(emitError, expr.getRhs())));
  return emitError() << "expected a dim (integer, symbolic name, '?' or "
                        "expression), got "
                     << dim;
}

// Precedence: 1 for + and -, 2 for *, floordiv and mod, 3 for atoms.
static int dimPrecedence(Attribute dim) {
  auto expr = dyn_cast<DimExprAttr>(dim);
  if (!expr)
    return 3;
  return expr.getKind() == DimExprKind::Add ||
                 expr.getKind() == DimExprKind::Sub
             ? 1
             : 2;
}

static void printDimAtPrecedence(raw_ostream &os, Attribute dim, int minPrec) {
  bool parens = dimPrecedence(dim) < minPrec;
  if (parens)
    os << '(';
  if (auto expr = dyn_cast<DimExprAttr>(dim)) {
    int prec = dimPrecedence(dim);
    static const char *spelling[] = {" + ", " - ", " * ", " floordiv ",
                                     " mod "};
    printDimAtPrecedence(os, expr.getLhs(), prec);
    os << spelling[static_cast<int>(expr.getKind())];
    // Right operands bind tighter: `a - (b + c)`, `a floordiv (b * c)`.
    printDimAtPrecedence(os, expr.getRhs(), prec + 1);
  } else if (isUnknownDim(dim)) {
    os << '?';
  } else if (auto i = dyn_cast<IntegerAttr>(dim)) {
    os << i.getInt();
  } else if (auto name = dyn_cast<StringAttr>(dim)) {
    os << name.getValue();
  } else {
    os << "<<invalid dim>>";
  }
  if (parens)
    os << ')';
}

void mo::printDim(raw_ostream &os, Attribute dim) {
  printDimAtPrecedence(os, dim, 0);
}

std::string mo::formatDims(ArrayRef<Attribute> dims) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << '[';
  llvm::interleaveComma(dims, os, [&](Attribute d) { printDim(os, d); });
  os << ']';
  return s;
}

namespace {
/// A recursive-descent parser of one dim, bounded by kMaxDimOperators.
struct DimParser {
  AsmParser &parser;
  unsigned parens = 0, operators = 0;

  FailureOr<Attribute> atom();
  FailureOr<Attribute> term();
  FailureOr<Attribute> expr();
  /// Counts one operator; fails past the bound.
  LogicalResult countOperator() {
    if (++operators <= kMaxDimOperators)
      return success();
    return parser.emitError(parser.getCurrentLocation(),
                            "dim expression too large: more than ")
           << kMaxDimOperators << " operators";
  }
};
} // namespace

FailureOr<Attribute> DimParser::atom() {
  MLIRContext *ctx = parser.getContext();
  if (succeeded(parser.parseOptionalQuestion()))
    return getUnknownDim(ctx);
  if (succeeded(parser.parseOptionalLParen())) {
    if (++parens > kMaxDimOperators)
      return parser.emitError(parser.getCurrentLocation(),
                              "dim expression nests more than ")
             << kMaxDimOperators << " parentheses";
    FailureOr<Attribute> inner = expr();
    if (failed(inner) || parser.parseRParen())
      return failure();
    --parens;
    return inner;
  }
  int64_t value;
  OptionalParseResult intResult = parser.parseOptionalInteger(value);
  if (intResult.has_value()) {
    if (failed(*intResult))
      return failure();
    if (value < 0)
      return parser.emitError(parser.getCurrentLocation(),
                              "dims must be non-negative, got ")
             << value;
    return getStaticDim(ctx, value);
  }
  StringRef name;
  SMLoc loc = parser.getCurrentLocation();
  if (failed(parser.parseOptionalKeyword(&name)))
    return parser.emitError(loc, "expected a dim: an integer, a symbolic "
                                 "name, '?' or a parenthesized expression");
  if (!isIdentifier(name))
    return parser.emitError(loc, "symbolic dim '")
           << name << "' is not an identifier ([A-Za-z_][A-Za-z0-9_]*)";
  return getSymbolicDim(ctx, name);
}

FailureOr<Attribute> DimParser::term() {
  FailureOr<Attribute> lhs = atom();
  while (succeeded(lhs)) {
    DimExprKind kind;
    if (succeeded(parser.parseOptionalStar()))
      kind = DimExprKind::Mul;
    else if (succeeded(parser.parseOptionalKeyword("floordiv")))
      kind = DimExprKind::FloorDiv;
    else if (succeeded(parser.parseOptionalKeyword("mod")))
      kind = DimExprKind::Mod;
    else
      break;
    if (failed(countOperator()))
      return failure();
    FailureOr<Attribute> rhs = atom();
    if (failed(rhs))
      return failure();
    lhs = getDimExpr(kind, *lhs, *rhs);
  }
  return lhs;
}

FailureOr<Attribute> DimParser::expr() {
  FailureOr<Attribute> lhs = term();
  while (succeeded(lhs)) {
    DimExprKind kind;
    if (succeeded(parser.parseOptionalPlus()))
      kind = DimExprKind::Add;
    else if (succeeded(parser.parseOptionalMinus()))
      kind = DimExprKind::Sub;
    else
      break;
    if (failed(countOperator()))
      return failure();
    FailureOr<Attribute> rhs = term();
    if (failed(rhs))
      return failure();
    lhs = getDimExpr(kind, *lhs, *rhs);
  }
  return lhs;
}

FailureOr<Attribute> mo::parseDim(AsmParser &parser) {
  return DimParser{parser}.expr();
}

bool mo::isSupportedElementType(Type type) {
  if (isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(type))
    return true;
  auto i = dyn_cast<IntegerType>(type);
  if (!i)
    return false;
  if (i.getWidth() == 1)
    return i.isSignless();
  return !i.isSignless() && llvm::is_contained({8u, 16u, 32u, 64u},
                                               i.getWidth());
}

LogicalResult DimExprAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  DimExprKind, Attribute lhs, Attribute rhs) {
  return success(succeeded(verifyDim(emitError, lhs)) &&
                 succeeded(verifyDim(emitError, rhs)));
}

//===----------------------------------------------------------------------===//
// DeviceAttr
//===----------------------------------------------------------------------===//

static void printDeviceBody(AsmPrinter &printer, DeviceAttr device) {
  printer << device.getKind() << ':' << device.getId();
}

static FailureOr<DeviceAttr> parseDeviceBody(AsmParser &parser) {
  StringRef kind;
  int64_t id;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseKeyword(&kind) || parser.parseColon() ||
      parser.parseInteger(id))
    return failure();
  // (getChecked reports a bad device and returns null: that is a failure.)
  DeviceAttr device = DeviceAttr::getChecked(
      [&] { return parser.emitError(loc); }, parser.getContext(), kind, id);
  if (!device)
    return failure();
  return device;
}

LogicalResult DeviceAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef kind, int64_t id) {
  if (kind != "cpu" && kind != "gpu")
    return emitError() << "unknown device kind '" << kind
                       << "', expected 'cpu' or 'gpu'";
  if (id < 0)
    return emitError() << "device id must be non-negative, got " << id;
  return success();
}

Attribute DeviceAttr::parse(AsmParser &parser, Type) {
  FailureOr<DeviceAttr> device;
  if (parser.parseLess() || failed(device = parseDeviceBody(parser)) ||
      parser.parseGreater())
    return {};
  return *device;
}

void DeviceAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printDeviceBody(printer, *this);
  printer << '>';
}

//===----------------------------------------------------------------------===//
// mo::TensorType and BufferType: `<[dims], elementType (, device)?>`
//===----------------------------------------------------------------------===//

template <typename T>
static Type parseShapedType(AsmParser &parser) {
  SmallVector<Attribute> dims;
  Type elementType;
  DeviceAttr device;
  SMLoc loc = parser.getCurrentLocation();
  auto parseOneDim = [&]() -> ParseResult {
    FailureOr<Attribute> dim = parseDim(parser);
    if (failed(dim))
      return failure();
    dims.push_back(*dim);
    return success();
  };
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     parseOneDim) ||
      parser.parseComma() || parser.parseType(elementType))
    return {};
  if (succeeded(parser.parseOptionalComma())) {
    FailureOr<DeviceAttr> parsed = parseDeviceBody(parser);
    if (failed(parsed))
      return {};
    device = *parsed;
  }
  if (parser.parseGreater())
    return {};
  return T::getChecked([&] { return parser.emitError(loc); },
                       parser.getContext(), dims, elementType, device);
}

template <typename T>
static void printShapedType(AsmPrinter &printer, T type) {
  printer << '<' << formatDims(type.getDims()) << ", " << type.getElementType();
  if (type.getDevice()) {
    printer << ", ";
    printDeviceBody(printer, type.getDevice());
  }
  printer << '>';
}

/// False for a dim with an operation on two static operands: one that did
/// not fold (a negative size, a division by zero or an overflow).
static bool foldsToSizes(Attribute dim) {
  auto expr = dyn_cast<DimExprAttr>(dim);
  if (!expr)
    return true;
  if (isStaticDim(expr.getLhs()) && isStaticDim(expr.getRhs()))
    return false;
  return foldsToSizes(expr.getLhs()) && foldsToSizes(expr.getRhs());
}

static LogicalResult
verifyShapedType(function_ref<InFlightDiagnostic()> emitError,
                 ArrayRef<Attribute> dims, Type elementType) {
  // No tensor has a dim that did not fold.
  for (Attribute dim : dims)
    if (!foldsToSizes(dim)) {
      std::string text;
      llvm::raw_string_ostream os(text);
      printDim(os, dim);
      return emitError() << "dim '" << text
                         << "' is not a size: part of it is negative, divides "
                            "by zero or overflows int64";
    }
  if (dims.size() > kMaxRank)
    return emitError() << "rank " << dims.size() << " is above the maximum of "
                       << kMaxRank << " (numpy's)";
  for (Attribute dim : dims)
    if (failed(verifyDim(emitError, dim)))
      return failure();
  // Strides are products of the static dims: they must fit in int64 (size-0
  // dims aside, which layouts skip too).
  int64_t count = 1;
  for (Attribute dim : dims)
    if (isStaticDim(dim) && getStaticDimSize(dim) != 0 &&
        llvm::MulOverflow(count, getStaticDimSize(dim), count))
      return emitError() << "dims " << formatDims(dims)
                         << " are too large: the product of their sizes overflows int64";
  if (!isSupportedElementType(elementType))
    return emitError() << "unsupported element type " << elementType
                       << ": expected i1, si8..si64, ui8..ui64, f16, bf16, "
                          "f32 or f64";
  // So are byte sizes (a bool takes a byte in memory), where there are bytes.
  bool empty = llvm::any_of(dims, [](Attribute d) {
    return isStaticDim(d) && getStaticDimSize(d) == 0;
  });
  int64_t bytes = std::max<int64_t>(1, elementType.getIntOrFloatBitWidth() / 8);
  if (!empty && llvm::MulOverflow(count, bytes, bytes))
    return emitError() << "dims " << formatDims(dims) << " of " << elementType
                       << " are too large: their size in bytes overflows int64";
  return success();
}

#define MO_DEFINE_SHAPED_TYPE_METHODS(T)                                       \
  Type T::parse(AsmParser &parser) { return parseShapedType<T>(parser); }      \
  void T::print(AsmPrinter &printer) const { printShapedType(printer, *this); } \
  LogicalResult T::verify(function_ref<InFlightDiagnostic()> emitError,        \
                          ArrayRef<Attribute> dims, Type elementType,          \
                          DeviceAttr) {                                        \
    return verifyShapedType(emitError, dims, elementType);                     \
  }
MO_DEFINE_SHAPED_TYPE_METHODS(mo::TensorType)
MO_DEFINE_SHAPED_TYPE_METHODS(BufferType)
#undef MO_DEFINE_SHAPED_TYPE_METHODS

//===----------------------------------------------------------------------===//
// Broadcasting
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<Attribute>>
mo::broadcastDims(ArrayRef<Attribute> lhs, ArrayRef<Attribute> rhs,
                  function_ref<InFlightDiagnostic()> emitError) {
  size_t rank = std::max(lhs.size(), rhs.size());
  SmallVector<Attribute> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Align from the right; a missing dim acts as 1.
    Attribute l = i < rank - lhs.size() ? Attribute() : lhs[i - (rank - lhs.size())];
    Attribute r = i < rank - rhs.size() ? Attribute() : rhs[i - (rank - rhs.size())];
    if (!l || getStaticDimSize(l) == 1)
      result[i] = r ? r : l;
    else if (!r || getStaticDimSize(r) == 1 || l == r)
      result[i] = l;
    else if (isUnknownDim(l))
      result[i] = r;
    else if (isUnknownDim(r))
      result[i] = l;
    else {
      if (emitError) {
        std::string ls, rs;
        llvm::raw_string_ostream lo(ls), ro(rs);
        printDim(lo, l);
        printDim(ro, r);
        emitError() << "cannot broadcast " << formatDims(lhs) << " with "
                    << formatDims(rhs) << ": dims " << ls << " and " << rs
                    << " differ";
      }
      return failure();
    }
  }
  return result;
}
