//===- Dialects.cpp - C API of the mo dialect -----------------------------===//

#include "mo-c/Dialects.h"

#include "mo/Dialect/MoOps.h"
#include "mo/Tools/Registration.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::mo;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Mo, mo, mlir::mo::MoDialect)

void moRegisterDialects(MlirDialectRegistry registry) {
  mo::registerDialects(*unwrap(registry));
}

void moRegisterPasses(void) { mo::registerPasses(); }

int moOptMain(int argc, char **argv) {
  DialectRegistry registry;
  mo::registerDialects(registry);
  mo::registerPasses();
  int rc = asMainReturnCode(
      MlirOptMain(argc, argv, "mo optimizer driver\n", registry));
  // mo-opt runs inside a Python process: flush before returning to it.
  llvm::outs().flush();
  llvm::errs().flush();
  return rc;
}

MlirAttribute moDimGetStatic(MlirContext ctx, int64_t size) {
  return wrap(getStaticDim(unwrap(ctx), size));
}
MlirAttribute moDimGetUnknown(MlirContext ctx) {
  return wrap(getUnknownDim(unwrap(ctx)));
}
MlirAttribute moDimGetSymbolic(MlirContext ctx, MlirStringRef name) {
  return wrap(getSymbolicDim(unwrap(ctx), unwrap(name)));
}
MlirAttribute moDimGetExpr(int kind, MlirAttribute lhs, MlirAttribute rhs) {
  return wrap(getDimExpr(static_cast<DimExprKind>(kind), unwrap(lhs),
                         unwrap(rhs)));
}
void moDimPrint(MlirAttribute dim, MlirStringCallback callback,
                void *userData) {
  mlir::detail::CallbackOstream stream(callback, userData);
  printDim(stream, unwrap(dim));
  stream.flush();
}

bool moTypeIsATensor(MlirType type) { return isa<mo::TensorType>(unwrap(type)); }
bool moTypeIsABuffer(MlirType type) { return isa<BufferType>(unwrap(type)); }
bool moTypeIsAChain(MlirType type) { return isa<ChainType>(unwrap(type)); }
MlirTypeID moTensorTypeGetTypeID(void) { return wrap(mo::TensorType::getTypeID()); }
MlirTypeID moBufferTypeGetTypeID(void) { return wrap(BufferType::getTypeID()); }
MlirTypeID moChainTypeGetTypeID(void) { return wrap(ChainType::getTypeID()); }

MlirType moShapedTypeGetChecked(MlirLocation loc, bool isBuffer, intptr_t rank,
                                const MlirAttribute *dims,
                                MlirType elementType, MlirStringRef deviceKind,
                                int64_t deviceId) {
  Location location = unwrap(loc);
  MLIRContext *ctx = location.getContext();
  auto emitError = [&] { return mlir::emitError(location); };
  SmallVector<Attribute> dimAttrs;
  for (intptr_t i = 0; i < rank; ++i)
    dimAttrs.push_back(unwrap(dims[i]));
  DeviceAttr device;
  if (deviceKind.length) {
    device = DeviceAttr::getChecked(emitError, ctx, unwrap(deviceKind),
                                    deviceId);
    if (!device)
      return MlirType{nullptr};
  }
  if (isBuffer)
    return wrap(BufferType::getChecked(emitError, ctx, ArrayRef<Attribute>(dimAttrs),
                                       unwrap(elementType), device));
  return wrap(mo::TensorType::getChecked(emitError, ctx, ArrayRef<Attribute>(dimAttrs),
                                     unwrap(elementType), device));
}

MlirType moChainTypeGet(MlirContext ctx) {
  return wrap(ChainType::get(unwrap(ctx)));
}

template <typename Fn>
static auto visitShaped(MlirType type, Fn &&fn) {
  Type t = unwrap(type);
  if (auto buffer = dyn_cast<BufferType>(t))
    return fn(buffer.getDims(), buffer.getElementType(), buffer.getDevice());
  auto tensor = cast<mo::TensorType>(t);
  return fn(tensor.getDims(), tensor.getElementType(), tensor.getDevice());
}

intptr_t moShapedTypeGetRank(MlirType type) {
  return visitShaped(type, [](ArrayRef<Attribute> dims, Type, DeviceAttr) {
    return static_cast<intptr_t>(dims.size());
  });
}
MlirAttribute moShapedTypeGetDim(MlirType type, intptr_t pos) {
  return visitShaped(type, [&](ArrayRef<Attribute> dims, Type, DeviceAttr) {
    return wrap(dims[pos]);
  });
}
MlirType moShapedTypeGetElementType(MlirType type) {
  return visitShaped(type, [](ArrayRef<Attribute>, Type e, DeviceAttr) {
    return wrap(e);
  });
}
MlirStringRef moShapedTypeGetDeviceKind(MlirType type) {
  return visitShaped(type, [](ArrayRef<Attribute>, Type, DeviceAttr d) {
    return d ? wrap(d.getKind()) : mlirStringRefCreate(nullptr, 0);
  });
}
int64_t moShapedTypeGetDeviceId(MlirType type) {
  return visitShaped(type, [](ArrayRef<Attribute>, Type, DeviceAttr d) {
    return d ? d.getId() : int64_t(0);
  });
}
