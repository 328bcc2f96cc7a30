# compiler/python/_build_info.py.in, which CMake writes into the build.
LLVM_VERSION: str
LLVM_COMMIT: str
TORCH_VERSION: str
