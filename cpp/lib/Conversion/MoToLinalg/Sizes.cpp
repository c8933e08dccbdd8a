//===- Sizes.cpp - sizes and runtime shape checks for mo lowering ---------===//
//
// An entry function receives every argument with dynamic dims and a record
// for the outcome of its checks. Code generated for a graph trusts its types
// (static dims are compile-time constants, same-named dims one size), so the
// prologue below checks each of those facts against what the caller passed
// and returns a status instead of running on sizes that would read or write
// out of bounds. The checks travel with the IR: mo-opt output, an artifact
// or a cache entry is as safe as a call from Python.
//
//===----------------------------------------------------------------------===//

#include "Sizes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::mo;

#include <algorithm>

Type mo::convertElementType(Type type) {
  if (auto i = dyn_cast<IntegerType>(type))
    return IntegerType::get(type.getContext(), i.getWidth() == 1 ? 8 : i.getWidth());
  return type;
}

Value mo::expandTo(OpBuilder &b, Location loc, RankedTensorType type, Value src,
                   ArrayRef<ReassociationIndices> groups, ArrayRef<OpFoldResult> sizes) {
  bool splittable = llvm::all_of(groups, [&](const ReassociationIndices &group) {
    return llvm::count_if(group, [&](int64_t d) { return type.isDynamicDim(d); }) <= 1;
  });
  if (splittable)
    return tensor::ExpandShapeOp::create(b, loc, type, src, groups, sizes);
  SmallVector<Value> values = getValueOrCreateConstantIndexOp(b, loc, sizes);
  Value shape = tensor::FromElementsOp::create(
      b, loc, RankedTensorType::get({type.getRank()}, b.getIndexType()), values);
  return tensor::ReshapeOp::create(b, loc, type, src, shape);
}

Value mo::loadScalar(OpBuilder &b, Location loc, Value stored, Type element) {
  if (!element.isSignlessInteger(1))
    return stored;
  return arith::TruncIOp::create(b, loc, b.getI1Type(), stored);
}

Value mo::storeScalar(OpBuilder &b, Location loc, Value value) {
  if (!value.getType().isSignlessInteger(1))
    return value;
  return arith::ExtUIOp::create(b, loc, b.getI8Type(), value);
}

Value mo::dimOf(OpBuilder &b, Location loc, Value shaped, int64_t axis) {
  if (isa<MemRefType>(shaped.getType()))
    return memref::DimOp::create(b, loc, shaped, axis);
  return tensor::DimOp::create(b, loc, shaped, axis);
}

FailureOr<Value>
mo::materializeDim(OpBuilder &b, Location loc, Attribute dim,
                   function_ref<FailureOr<Value>(StringAttr)> symbol) {
  if (isStaticDim(dim))
    return Value(arith::ConstantIndexOp::create(b, loc, getStaticDimSize(dim)));
  if (auto name = dyn_cast<StringAttr>(dim))
    return symbol(name);
  auto expr = dyn_cast<DimExprAttr>(dim);
  if (!expr)
    return emitError(loc, "cannot determine the size of an unknown ('?') dim");
  FailureOr<Value> l = materializeDim(b, loc, expr.getLhs(), symbol);
  if (failed(l))
    return failure();
  FailureOr<Value> r = materializeDim(b, loc, expr.getRhs(), symbol);
  if (failed(r))
    return failure();
  switch (expr.getKind()) {
  case DimExprKind::Add:
    return Value(arith::AddIOp::create(b, loc, *l, *r));
  case DimExprKind::Sub:
    return Value(arith::SubIOp::create(b, loc, *l, *r));
  case DimExprKind::Mul:
    return Value(arith::MulIOp::create(b, loc, *l, *r));
  case DimExprKind::FloorDiv:
    return Value(arith::FloorDivSIOp::create(b, loc, *l, *r));
  case DimExprKind::Mod:
    return Value(arith::RemSIOp::create(b, loc, *l, *r));
  }
  llvm_unreachable("unknown dim expression kind");
}

static InFlightDiagnostic unknownSymbol(Location loc, StringAttr name) {
  return emitError(loc, "cannot determine the size of symbolic dim '")
         << name.getValue() << "' from the graph's arguments";
}

FailureOr<Value> mo::materializeDim(OpBuilder &b, Location loc, Attribute dim,
                                    const SymbolSizes &sizes) {
  return materializeDim(b, loc, dim, [&](StringAttr name) -> FailureOr<Value> {
    if (Value v = sizes.lookup(name))
      return v;
    return unknownSymbol(loc, name);
  });
}

ArrayRef<Attribute> mo::moDims(Type type) {
  if (auto t = dyn_cast<mo::TensorType>(type))
    return t.getDims();
  if (auto t = dyn_cast<BufferType>(type))
    return t.getDims();
  return {};
}

FailureOr<Value> mo::sizeOf(OpBuilder &b, Location loc, Operation *at,
                            Attribute dim,
                            ArrayRef<std::pair<Value, int64_t>> hints) {
  if (!isStaticDim(dim) && !hints.empty())
    return dimOf(b, loc, hints.front().first, hints.front().second);
  auto func = at->getParentOfType<FunctionOpInterface>();
  return materializeDim(b, loc, dim, [&](StringAttr name) -> FailureOr<Value> {
    // The first argument that has the dim (the entry's prologue checked that
    // every other occurrence agrees).
    for (unsigned i = 0; func && i < func.getNumArguments(); ++i) {
      auto type = func.getArgAttrOfType<TypeAttr>(i, "mo.type");
      if (!type)
        continue;
      for (auto [axis, d] : llvm::enumerate(moDims(type.getValue())))
        if (d == name)
          return dimOf(b, loc, func.getArgument(i), axis);
    }
    // A dim an op binds at run time: dim 0 of its (lowered) result.
    Operation *binder = nullptr;
    if (func)
      func->walk([&](Operation *op) {
        if (op->getAttr("mo.binds") == name) {
          binder = op;
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
    if (binder)
      return dimOf(b, loc, binder->getResult(0), 0);
    return unknownSymbol(loc, name);
  });
}

FailureOr<SmallVector<OpFoldResult>>
mo::mixedSizes(OpBuilder &b, Location loc, Operation *at,
               ArrayRef<Attribute> dims, ArrayRef<SizeHints> hints) {
  SmallVector<OpFoldResult> sizes;
  for (auto [i, dim] : llvm::enumerate(dims)) {
    if (isStaticDim(dim)) {
      sizes.push_back(b.getIndexAttr(getStaticDimSize(dim)));
      continue;
    }
    FailureOr<Value> size =
        sizeOf(b, loc, at, dim, hints.empty() ? ArrayRef<std::pair<Value, int64_t>>{}
                                               : ArrayRef(hints[i]));
    if (failed(size))
      return failure();
    sizes.push_back(*size);
  }
  return sizes;
}

FailureOr<Value> mo::emptyTensor(OpBuilder &b, Location loc, Operation *at,
                                 mo::TensorType type, ArrayRef<SizeHints> hints,
                                 Type element) {
  FailureOr<SmallVector<OpFoldResult>> sizes =
      mixedSizes(b, loc, at, type.getDims(), hints);
  if (failed(sizes))
    return failure();
  return Value(tensor::EmptyOp::create(
      b, loc, *sizes,
      element ? element : convertElementType(type.getElementType())));
}

namespace {

struct Check {
  Value ok, actual, expected;
  std::string message;
};

Value toI64(OpBuilder &b, Location loc, Value index) {
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
}

/// "file:line" of the user's source, or the whole location.
std::string where(Location loc) {
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    return (file.getFilename().getValue() + ":" + Twine(file.getLine())).str();
  std::string s;
  llvm::raw_string_ostream os(s);
  loc.print(os);
  return s;
}

Value product(OpBuilder &b, Location loc, ArrayRef<Value> sizes) {
  Value p = arith::ConstantIndexOp::create(b, loc, 1);
  for (Value s : sizes)
    p = arith::MulIOp::create(b, loc, p, s);
  return p;
}

} // namespace

FailureOr<Value> mo::buildEntryChecks(OpBuilder &b, Location loc,
                                      ArrayRef<EntryOperand> operands,
                                      ArrayRef<ReshapeCheck> reshapes,
                                      ArrayRef<DimCheck> dims, Value record,
                                      SymbolSizes &sizes,
                                      SmallVectorImpl<Attribute> &messages) {
  SmallVector<Check> checks;
  auto equal = [&](Value actual, Value expected, std::string message) {
    Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, actual,
                                     expected);
    checks.push_back({ok, actual, expected, std::move(message)});
  };
  auto shapeMessage = [](const EntryOperand &o, size_t axis, StringRef extra) {
    return (o.name + ": expected shape " + formatDims(o.dims) + ", but axis " +
            Twine(axis) + " has size {actual}" + extra)
        .str();
  };

  // Static dims and same-named dims, in argument order; the first occurrence
  // of a name (in an input or weight) binds it.
  DenseMap<StringAttr, std::pair<const EntryOperand *, size_t>> boundAt;
  SmallVector<SmallVector<Value>> actual(operands.size());
  for (auto [i, o] : llvm::enumerate(operands)) {
    for (auto [axis, dim] : llvm::enumerate(o.dims)) {
      Value size = dimOf(b, loc, o.value, axis);
      actual[i].push_back(size);
      if (isStaticDim(dim)) {
        equal(size,
              arith::ConstantIndexOp::create(b, loc, getStaticDimSize(dim)),
              shapeMessage(o, axis, ""));
        continue;
      }
      auto name = dyn_cast<StringAttr>(dim);
      if (!name || o.isOutput)
        continue;
      auto [it, inserted] = boundAt.try_emplace(name, &o, axis);
      if (inserted) {
        sizes[name] = size;
        continue;
      }
      const auto &[first, firstAxis] = it->second;
      std::string message =
          first == &o
              ? ("dim '" + name.getValue() + "' is {expected} at axis " +
                 Twine(firstAxis) + " but {actual} at axis " + Twine(axis) +
                 " of " + o.name)
                    .str()
              : ("dim '" + name.getValue() + "' is {expected} in " +
                 first->name + " but {actual} in " + o.name)
                    .str();
      equal(size, sizes[name], message);
    }
  }
  // Expressions, and every dim of an output, once all names are bound.
  for (auto [i, o] : llvm::enumerate(operands)) {
    for (auto [axis, dim] : llvm::enumerate(o.dims)) {
      bool isName = isa<StringAttr>(dim);
      if (isStaticDim(dim) || isUnknownDim(dim) || (isName && !o.isOutput))
        continue;
      FailureOr<Value> expected = materializeDim(b, loc, dim, sizes);
      if (failed(expected))
        return failure();
      std::string value;
      llvm::raw_string_ostream os(value);
      printDim(os, dim);
      equal(actual[i][axis], *expected,
            shapeMessage(o, axis, " (" + value + " = {expected})"));
    }
  }
  // Element counts of reshapes whose two sides may differ at run time.
  for (const ReshapeCheck &reshape : reshapes) {
    SmallVector<Value> fromSizes, toSizes;
    for (auto [dims, out] : {std::pair(reshape.from.getDims(), &fromSizes),
                             std::pair(reshape.to.getDims(), &toSizes)})
      for (Attribute dim : dims) {
        FailureOr<Value> size = materializeDim(b, reshape.loc, dim, sizes);
        if (failed(size))
          return failure();
        out->push_back(*size);
      }
    Value fromCount = product(b, loc, fromSizes);
    Value toCount = product(b, loc, toSizes);
    equal(fromCount, toCount,
          ("reshape at " + where(reshape.loc) + ": " +
           formatDims(reshape.from.getDims()) + " -> " +
           formatDims(reshape.to.getDims()) +
           ": {actual} elements cannot become {expected}"));
  }

  // Dims that shrink with their inputs (windows, slices) stay >= 0; rebound
  // dims are what the rebind says.
  for (const DimCheck &check : dims) {
    FailureOr<Value> size = materializeDim(b, check.loc, check.dim, sizes);
    if (failed(size))
      return failure();
    std::string value;
    llvm::raw_string_ostream os(value);
    printDim(os, check.dim);
    if (check.expected) {
      FailureOr<Value> expected = materializeDim(b, check.loc, check.expected, sizes);
      if (failed(expected))
        return failure();
      std::string message = check.message.empty() ? "" : check.message.str() + ": ";
      equal(*size, *expected,
            message + "rebind at " + where(check.loc) + ": dim " + value +
                " is {actual}, but the rebind says " +
                formatDims(check.expected) + " = {expected}");
      continue;
    }
    Value zeroSize = arith::ConstantIndexOp::create(b, loc, 0);
    Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, *size,
                                     zeroSize);
    checks.push_back({ok, *size, zeroSize,
                      "at " + where(check.loc) + ": dim " + value +
                          " is {actual}, below zero (an input is too small)"});
  }

  // The first failed check wins: fold the selects from the last one back.
  Type i64 = b.getI64Type();
  Value zero = arith::ConstantIntOp::create(b, loc, i64, 0);
  Value status = zero, seen = zero, wanted = zero;
  for (auto [k, check] : llvm::enumerate(llvm::reverse(checks))) {
    Value code = arith::ConstantIntOp::create(b, loc, i64, checks.size() - k);
    status = arith::SelectOp::create(b, loc, check.ok, status, code);
    seen = arith::SelectOp::create(b, loc, check.ok, seen,
                                   toI64(b, loc, check.actual));
    wanted = arith::SelectOp::create(b, loc, check.ok, wanted,
                                     toI64(b, loc, check.expected));
  }
  for (const Check &check : checks)
    messages.push_back(b.getStringAttr(check.message));
  Value at0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value at1 = arith::ConstantIndexOp::create(b, loc, 1);
  memref::StoreOp::create(b, loc, seen, record, ValueRange{at0});
  memref::StoreOp::create(b, loc, wanted, record, ValueRange{at1});
  return status;
}

void DimProduct::multiply(Attribute dim) {
  if (isStaticDim(dim)) {
    constant *= getStaticDimSize(dim);
    return;
  }
  if (auto expr = dyn_cast<DimExprAttr>(dim);
      expr && expr.getKind() == DimExprKind::Mul) {
    multiply(expr.getLhs());
    multiply(expr.getRhs());
    return;
  }
  std::string s;
  llvm::raw_string_ostream os(s);
  printDim(os, dim);
  factors.insert(llvm::upper_bound(factors, s), s);
}

DimProduct DimProduct::of(ArrayRef<Attribute> dims) {
  DimProduct p;
  for (Attribute d : dims)
    p.multiply(d);
  return p;
}

bool DimProduct::divisibleBy(const DimProduct &o) const {
  if (o.constant == 0 || constant % o.constant != 0)
    return false;
  return std::includes(factors.begin(), factors.end(), o.factors.begin(),
                       o.factors.end());
}

bool mo::sameElementCount(ArrayRef<Attribute> from, ArrayRef<Attribute> to) {
  return DimProduct::of(from) == DimProduct::of(to);
}

SmallVector<AffineExpr> mo::broadcastExprs(OpBuilder &b,
                                           ArrayRef<Attribute> dims,
                                           ArrayRef<Attribute> resultDims,
                                           Value value,
                                           MutableArrayRef<SizeHints> hints) {
  int64_t offset = resultDims.size() - dims.size();
  SmallVector<AffineExpr> exprs;
  for (auto [i, dim] : llvm::enumerate(dims)) {
    Attribute resultDim = resultDims[i + offset];
    if (getStaticDimSize(dim) == 1 && getStaticDimSize(resultDim) != 1) {
      exprs.push_back(b.getAffineConstantExpr(0));
      continue;
    }
    exprs.push_back(b.getAffineDimExpr(i + offset));
    if (dim == resultDim)
      hints[i + offset].push_back({value, static_cast<int64_t>(i)});
  }
  return exprs;
}

Value mo::filled(OpBuilder &b, Location loc, Value init, Value value) {
  return linalg::FillOp::create(b, loc, ValueRange{value}, ValueRange{init})
      .getResult(0);
}

Value mo::mapElements(OpBuilder &b, Location loc, Value source, Type element,
                      function_ref<Value(OpBuilder &, Location, Value)> fn) {
  auto type = cast<RankedTensorType>(source.getType());
  SmallVector<Value> sizes;
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (type.isDynamicDim(i))
      sizes.push_back(tensor::DimOp::create(b, loc, source, i));
  Value init = tensor::EmptyOp::create(b, loc, type.getShape(), element, sizes);
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{source},
             ValueRange{init}, {id, id},
             SmallVector<utils::IteratorType>(type.getRank(),
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l, fn(nb, l, args[0]));
             })
      .getResult(0);
}

Value mo::genericContraction(OpBuilder &b, Location loc, Value lhs, Value rhs,
                             Value init, ArrayRef<AffineMap> maps,
                             ArrayRef<utils::IteratorType> iterators) {
  Type acc = cast<ShapedType>(init.getType()).getElementType();
  bool isFloat = isa<FloatType>(acc);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{lhs, rhs},
             ValueRange{init}, maps, iterators,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value x = args[0], y = args[1];
               if (x.getType() != acc) {
                 x = arith::ExtFOp::create(nb, l, acc, x);
                 y = arith::ExtFOp::create(nb, l, acc, y);
               }
               Value p = isFloat ? Value(arith::MulFOp::create(nb, l, x, y))
                                 : Value(arith::MulIOp::create(nb, l, x, y));
               Value s = isFloat
                             ? Value(arith::AddFOp::create(nb, l, args[2], p))
                             : Value(arith::AddIOp::create(nb, l, args[2], p));
               linalg::YieldOp::create(nb, l, s);
             })
      .getResult(0);
}

Type mo::accumulatorType(Type element) {
  return isa<Float16Type, BFloat16Type>(element) ? Float32Type::get(element.getContext())
                                                 : element;
}

Value mo::truncateElements(OpBuilder &b, Location loc, Value source,
                           Type element) {
  return mapElements(b, loc, source, element, [&](OpBuilder &nb, Location l, Value v) {
    return Value(arith::TruncFOp::create(nb, l, element, v));
  });
}

Value mo::generateElements(
    OpBuilder &b, Location loc, Value init, ValueRange inputs,
    ArrayRef<AffineMap> maps,
    function_ref<Value(OpBuilder &, Location, ValueRange, ValueRange)> body) {
  int64_t rank = cast<RankedTensorType>(init.getType()).getRank();
  SmallVector<AffineMap> all(maps);
  all.push_back(b.getMultiDimIdentityMap(rank));
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, inputs, ValueRange{init}, all,
             SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               SmallVector<Value> ivs;
               for (int64_t d = 0; d < rank; ++d)
                 ivs.push_back(linalg::IndexOp::create(nb, l, d));
               linalg::YieldOp::create(nb, l, body(nb, l, ivs, args.drop_back()));
             })
      .getResult(0);
}

FailureOr<Value> mo::allocBuffer(OpBuilder &b, Location loc, Operation *at,
                                 MemRefType type, ArrayRef<Attribute> dims) {
  FailureOr<SmallVector<OpFoldResult>> sizes = mixedSizes(b, loc, at, dims);
  if (failed(sizes))
    return failure();
  SmallVector<Value> dynamic;
  for (OpFoldResult size : *sizes)
    if (auto v = dyn_cast<Value>(size))
      dynamic.push_back(v);
  return Value(memref::AllocOp::create(b, loc, type, dynamic));
}
