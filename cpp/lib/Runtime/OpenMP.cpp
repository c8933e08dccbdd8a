//===- OpenMP.cpp - the OpenMP runtime a model's code forks teams on ------===//

#include "OpenMP.h"

#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/MemoryBuffer.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#ifdef __linux__
#include <sched.h>
#endif

using namespace mlir::mo::runtime;

bool mlir::mo::runtime::forksTeams(llvm::ArrayRef<llvm::StringRef> objects) {
  for (llvm::StringRef object : objects) {
    auto file = llvm::object::ObjectFile::createObjectFile(
        llvm::MemoryBufferRef(object, "mo-object"));
    if (!file) {
      llvm::consumeError(file.takeError());
      return true; // unreadable here: assume it does (spreading is harmless)
    }
    for (const llvm::object::SymbolRef &symbol : (*file)->symbols()) {
      llvm::Expected<llvm::StringRef> name = symbol.getName();
      if (!name)
        llvm::consumeError(name.takeError());
      else if (*name == "__kmpc_fork_call")
        return true;
    }
  }
  return false;
}

namespace {
/// libomp's `ident_t`: where a region is, for its tools.
struct Ident {
  int32_t reserved1 = 0, flags = 2 /*KMP_IDENT_KMPC*/, reserved2 = 0, reserved3 = 0;
  const char *source = ";mo;team placement;0;0;;";
};
using Microtask = void (*)(int32_t *, int32_t *, ...);
} // namespace

struct mlir::mo::runtime::OpenMP {
  void (*forkCall)(Ident *, int32_t, Microtask, ...);
  void (*pushNumThreads)(Ident *, int32_t, int32_t);
  int32_t (*globalThreadNum)(Ident *);
  int32_t (*inParallel)(Ident *);
  int (*blocktime)(); // ms
};

namespace {
/// Every runtime found, for inOpenMPRegion (never freed: JIT'd code may
/// ask from any thread at any time).
struct Registry {
  std::mutex mutex;
  std::vector<std::unique_ptr<OpenMP>> runtimes;
  std::atomic<const OpenMP *> first{nullptr};
};
Registry &registry() {
  static Registry *r = new Registry();
  return *r;
}
} // namespace

const OpenMP *mlir::mo::runtime::findOpenMP(llvm::ArrayRef<std::string> libraries) {
  for (const std::string &path : libraries) {
    std::string error;
    llvm::sys::DynamicLibrary library =
        llvm::sys::DynamicLibrary::getPermanentLibrary(path.c_str(), &error);
    if (!library.isValid() || !library.getAddressOfSymbol("__kmpc_fork_call"))
      continue;
    auto get = [&](auto &slot, const char *name) {
      slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(
          library.getAddressOfSymbol(name));
      return slot != nullptr;
    };
    auto found = std::make_unique<OpenMP>();
    if (!get(found->forkCall, "__kmpc_fork_call") ||
        !get(found->pushNumThreads, "__kmpc_push_num_threads") ||
        !get(found->globalThreadNum, "__kmpc_global_thread_num") ||
        !get(found->inParallel, "__kmpc_in_parallel") ||
        !get(found->blocktime, "kmp_get_blocktime"))
      return nullptr;
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    for (const std::unique_ptr<OpenMP> &known : r.runtimes)
      if (known->forkCall == found->forkCall)
        return known.get();
    r.runtimes.push_back(std::move(found));
    if (!r.first.load())
      r.first.store(r.runtimes.back().get());
    return r.runtimes.back().get();
  }
  return nullptr;
}

bool mlir::mo::runtime::inOpenMPRegion() {
  // One runtime in practice (mo links every model to the same libomp).
  const OpenMP *omp = registry().first.load();
  Ident ident;
  return omp && omp->inParallel(&ident);
}

#ifdef __linux__
namespace {
using Clock = std::chrono::steady_clock;

/// The CPUs a team's members hold.
struct Claims {
  std::mutex mutex;
  std::vector<bool> held;

  /// Claims `cpu`, or else the first CPU of `allowed` nobody holds; returns
  /// the CPU claimed, or -1 (every allowed CPU held: more threads than CPUs).
  int claim(int cpu, const cpu_set_t &allowed) {
    std::lock_guard<std::mutex> lock(mutex);
    if (cpu >= 0 && !isHeld(cpu)) {
      hold(cpu);
      return cpu;
    }
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &allowed) && !isHeld(c)) {
        hold(c);
        return c;
      }
    return -1;
  }
  bool isHeld(int cpu) const { return cpu < static_cast<int>(held.size()) && held[cpu]; }
  void hold(int cpu) {
    if (cpu >= static_cast<int>(held.size()))
      held.resize(cpu + 1);
    held[cpu] = true;
  }
};

/// Each worker of the team keeps its CPU if free, else moves to a free one.
void spreadMember(int32_t *, int32_t *teamThread, Claims *claims) {
  if (*teamThread == 0)
    return; // the caller's thread claimed its CPU before the fork
  int cpu = sched_getcpu();
  cpu_set_t allowed;
  if (cpu < 0 || sched_getaffinity(0, sizeof allowed, &allowed) != 0)
    return;
  int target = claims->claim(cpu, allowed);
  if (target < 0 || target == cpu)
    return;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(target, &one);
  // Pinned, the thread moves before the call returns; its own mask back,
  // it stays there until the scheduler has a reason to move it.
  if (sched_setaffinity(0, sizeof one, &one) == 0)
    sched_setaffinity(0, sizeof allowed, &allowed);
}

/// When this thread's last team call ended: its team's workers wait
/// KMP_BLOCKTIME from then before they sleep.
thread_local Clock::time_point lastEnd{};
} // namespace

TeamCall::TeamCall(const OpenMP *omp, int threads) {
  Ident ident;
  // Nested: the code runs on the enclosing region's team, not this one.
  if (!omp || threads < 2 || omp->inParallel(&ident))
    return;
  active_ = true;
  if (lastEnd != Clock::time_point{} &&
      Clock::now() - lastEnd < std::chrono::milliseconds(omp->blocktime()))
    return; // the team is awake where it was
  Claims claims;
  cpu_set_t none;
  CPU_ZERO(&none);
  claims.claim(sched_getcpu(), none);
  omp->pushNumThreads(&ident, omp->globalThreadNum(&ident), threads);
  omp->forkCall(&ident, 1, reinterpret_cast<Microtask>(spreadMember), &claims);
}

TeamCall::~TeamCall() {
  if (active_)
    lastEnd = Clock::now();
}
#else
TeamCall::TeamCall(const OpenMP *, int) {}
TeamCall::~TeamCall() = default;
#endif
