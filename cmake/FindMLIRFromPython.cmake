# Locate LLVM and MLIR from the xtc-* PyPI packages by asking the Python that
# runs the build (works in pip's build environment too). LLVM_DIR must be set
# explicitly: MLIR's config otherwise finds the system's LLVM.
find_package(Python3 COMPONENTS Interpreter Development.Module REQUIRED)
foreach(_pkg llvm mlir)
  if(NOT MO_${_pkg}_PREFIX)
    execute_process(
      COMMAND "${Python3_EXECUTABLE}" -c
              "import ${_pkg}; print(list(${_pkg}.__path__)[0])"
      OUTPUT_VARIABLE MO_${_pkg}_PREFIX OUTPUT_STRIP_TRAILING_WHITESPACE
      RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "Python package '${_pkg}' not found: install "
                          "xtc-${_pkg}-dev and xtc-${_pkg}-tools (see pyproject.toml)")
    endif()
  endif()
endforeach()
set(LLVM_DIR "${MO_llvm_PREFIX}/lib/cmake/llvm" CACHE PATH "" FORCE)
set(MLIR_DIR "${MO_mlir_PREFIX}/lib/cmake/mlir" CACHE PATH "" FORCE)
find_package(LLVM REQUIRED CONFIG NO_DEFAULT_PATH PATHS "${LLVM_DIR}")
find_package(MLIR REQUIRED CONFIG NO_DEFAULT_PATH PATHS "${MLIR_DIR}")
message(STATUS "mo: LLVM ${LLVM_PACKAGE_VERSION} at ${MO_llvm_PREFIX}")

list(APPEND CMAKE_MODULE_PATH "${MLIR_CMAKE_DIR}" "${LLVM_CMAKE_DIR}")
set(LLVM_RUNTIME_OUTPUT_INTDIR ${CMAKE_BINARY_DIR}/bin)
set(LLVM_LIBRARY_OUTPUT_INTDIR ${CMAKE_BINARY_DIR}/lib)
set(MLIR_BINARY_DIR ${CMAKE_BINARY_DIR})
set(MLIR_TABLEGEN_EXE "${MO_mlir_PREFIX}/bin/mlir-tblgen")
include(TableGen)
include(AddLLVM)
include(AddMLIR)
include(HandleLLVMOptions)
