"""Console tools of torch2mlir (`python -m torch2mlir.tools.demo`)."""
