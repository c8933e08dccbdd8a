//===- Dialects.cpp - C API of the mo dialect -----------------------------===//

#include "mo-c/Dialects.h"

#include "mo/Dialect/MoOps.h"
#include "mo/Tools/Registration.h"
#include "mo/Tools/SourceLimits.h"

#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <thread>
#include <utility>

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

using namespace mlir;
using namespace mlir::mo;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Mo, mo, mlir::mo::MoDialect)

void moRegisterDialects(MlirDialectRegistry registry) {
  mo::registerDialects(*unwrap(registry));
}

void moRegisterPasses(void) { mo::registerPasses(); }

/// MLIR's parsers trust their input: a flipped bit in bytecode trips an
/// assertion in its reader, and some upstream ops' custom parsers assert on
/// malformed text. So mo-opt reads each input chunk in a child process first
/// and refuses the chunk if the parser dies there (the parent then reads it
/// as usual, diagnostics and all).
static LogicalResult readsInChild(llvm::MemoryBufferRef buffer,
                                  DialectRegistry &registry) {
#if defined(__unix__) || defined(__APPLE__)
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    int devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, STDOUT_FILENO);
    dup2(devnull, STDERR_FILENO);
    MLIRContext context(registry, MLIRContext::Threading::DISABLED);
    ParserConfig config(&context);
    Block block;
    _exit(succeeded(parseSourceString(buffer.getBuffer(), &block, config)) ? 0 : 1);
  }
  if (pid < 0)
    return success(); // cannot check: read it as mlir-opt would
  // Malformed bytecode can also make the reader loop (over a count read
  // from a flipped bit): 10 s and 1 s per MB are far more than a parse takes.
  auto limit = std::chrono::steady_clock::now() +
               std::chrono::seconds(10 + buffer.getBufferSize() / (1 << 20));
  int status = 0;
  pid_t done;
  while ((done = waitpid(pid, &status, WNOHANG)) == 0) {
    if (std::chrono::steady_clock::now() > limit) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      llvm::errs() << buffer.getBufferIdentifier()
                   << ": error: MLIR's parser does not finish reading this "
                      "input; mo-opt refuses it\n";
      return failure();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (done == pid && WIFSIGNALED(status)) {
    llvm::errs() << buffer.getBufferIdentifier()
                 << ": error: MLIR's parser dies on this input (signal "
                 << WTERMSIG(status) << "); mo-opt refuses it\n";
    return failure();
  }
#endif
  return success();
}

/// mlir-opt's main (MlirOptMain with a file name), with each input chunk's
/// nesting checked and the chunk read in a child process before MLIR's
/// parser sees it here.
static LogicalResult optMain(int argc, char **argv) {
  DialectRegistry registry;
  mo::registerDialects(registry);
  mo::registerPasses();
  auto [inputFilename, outputFilename] =
      registerAndParseCLIOptions(argc, argv, "mo optimizer driver\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return MlirOptMain(argc, argv, inputFilename, outputFilename, registry);
  llvm::InitLLVM initLLVM(argc, argv);
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &error);
  std::unique_ptr<llvm::ToolOutputFile> output =
      input ? openOutputFile(outputFilename, &error) : nullptr;
  if (!output) {
    llvm::errs() << error << "\n";
    return failure();
  }
  // The chunks are split here (as MlirOptMain would) so that each is checked.
  std::string splitMarker = config.inputSplitMarker().str();
  // (Through a const ref: the setter of the same name takes a default.)
  std::string outputMarker = std::as_const(config).outputSplitMarker().str();
  MlirOptMainConfig chunkConfig = config;
  chunkConfig.splitInputFile("");
  chunkConfig.outputSplitMarker("");
  auto processChunk = [&](std::unique_ptr<llvm::MemoryBuffer> chunk,
                          raw_ostream &os) -> LogicalResult {
    if (std::optional<size_t> at = findExcessNesting(chunk->getBuffer())) {
      llvm::SourceMgr sources;
      const char *where = chunk->getBufferStart() + *at;
      sources.AddNewSourceBuffer(std::move(chunk), llvm::SMLoc());
      sources.PrintMessage(llvm::errs(), llvm::SMLoc::getFromPointer(where),
                           llvm::SourceMgr::DK_Error,
                           "nesting deeper than " +
                               llvm::Twine(kMaxSourceNesting) +
                               " brackets: mo refuses it before parsing");
      return failure();
    }
    if (failed(readsInChild(*chunk, registry)))
      return failure();
    return MlirOptMain(os, std::move(chunk), registry, chunkConfig);
  };
  if (failed(splitAndProcessBuffer(std::move(input), processChunk,
                                   output->os(), splitMarker, outputMarker)))
    return failure();
  output->keep();
  return success();
}

int moOptMain(int argc, char **argv) {
  int rc = asMainReturnCode(optMain(argc, argv));
  // mo-opt runs inside a Python process: flush before returning to it.
  llvm::outs().flush();
  llvm::errs().flush();
  return rc;
}

int64_t moSourceFindExcessNesting(MlirStringRef source) {
  std::optional<size_t> at = findExcessNesting(unwrap(source));
  return at ? static_cast<int64_t>(*at) : -1;
}

unsigned moSourceMaxNesting(void) { return kMaxSourceNesting; }

bool moSourceParsesAsMo(MlirStringRef source, MlirStringCallback onError,
                        void *userData) {
  // Only mo, func and builtin are known here: other dialects' parsers never
  // see the text (some upstream ones assert on malformed input).
  DialectRegistry registry;
  registry.insert<MoDialect, func::FuncDialect>();
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  std::string errors;
  llvm::raw_string_ostream os(errors);
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    os << d.getLocation() << ": " << d << "\n";
    return success();
  });
  ParserConfig config(&context);
  Block block;
  if (succeeded(parseSourceString(unwrap(source), &block, config)))
    return true;
  onError(mlirStringRefCreate(errors.data(), errors.size()), userData);
  return false;
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
