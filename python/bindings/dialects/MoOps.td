// Python op classes for the mo dialect (`mo._mlir.dialects.mo`).
#ifndef MO_PYTHON_OPS_TD
#define MO_PYTHON_OPS_TD
include "Mo/MoOps.td"
#endif
