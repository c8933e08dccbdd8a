//===- Registration.h - what mo registers ------------------------*- C++ -*-===//
//
// One place lists the dialects and passes mo programs and pipelines use; the
// C API, mo-opt and the Python bindings all register through it.
//
//===----------------------------------------------------------------------===//
#ifndef MO_TOOLS_REGISTRATION_H
#define MO_TOOLS_REGISTRATION_H

namespace mlir {
class DialectRegistry;
namespace mo {
/// The mo dialect plus the upstream dialects mo IR and its lowerings use.
void registerDialects(DialectRegistry &registry);
/// mo's passes plus the upstream passes its pipelines use (idempotent).
void registerPasses();
} // namespace mo
} // namespace mlir

#endif // MO_TOOLS_REGISTRATION_H
