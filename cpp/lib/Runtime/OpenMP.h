//===- OpenMP.h - the OpenMP runtime a model's code forks teams on --------===//
//
// Code compiled for several threads forks teams through LLVM's libomp
// (`__kmpc_fork_call`). The runtime asks the same library (the one the
// model's code links to, by handle: torch's libgomp or MKL's libiomp5 may
// define the `omp_*` names first) whether a thread is in a region, and
// keeps a model's team on distinct CPUs:
//
// libomp's workers sleep once they have waited KMP_BLOCKTIME between
// regions (mo sets 1 ms). Waking one, Linux may place it on the CPU of the
// thread that woke it although another CPU is idle (the wake-up search
// skips idle CPUs while the cache domain has been busy); both then share
// one core until the load balancer moves one, which it defers while both
// ran recently. Measured in the side-by-side benchmark: blocks of calls at
// twice their time (conv2d 56x56x64: 1.0 against 0.5 ms), the other core
// idle. So before a model's code runs after its team may have slept, one
// empty region checks where the team woke, and a worker on a CPU another
// member holds moves to a free one: pinned to it, then given its own mask
// back, so nothing stays pinned.
//
//===----------------------------------------------------------------------===//

#ifndef MO_RUNTIME_OPENMP_H
#define MO_RUNTIME_OPENMP_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::mo::runtime {

/// Whether object code forks OpenMP teams (calls `__kmpc_fork_call`).
bool forksTeams(llvm::ArrayRef<llvm::StringRef> objects);

/// libomp's entry points in one loaded library.
struct OpenMP;

/// The first of `libraries` (loaded) that provides `__kmpc_fork_call`, as
/// the JIT links the code to it; null if none does.
const OpenMP *findOpenMP(llvm::ArrayRef<std::string> libraries);

/// Whether this thread is in a parallel region of an OpenMP runtime a
/// model was linked to.
bool inOpenMPRegion();

/// Brackets a call of code that forks `threads`-thread teams on `openmp`
/// from this thread: spreads the team first if it may have slept since
/// this thread's last such call, and notes when the call ended. Does
/// nothing when `openmp` is null or `threads` is 1.
class TeamCall {
public:
  TeamCall(const OpenMP *openmp, int threads);
  ~TeamCall();
  TeamCall(const TeamCall &) = delete;
  TeamCall &operator=(const TeamCall &) = delete;

private:
  bool active_ = false;
};

} // namespace mlir::mo::runtime

#endif // MO_RUNTIME_OPENMP_H
