// The dominance errors mlc expects in diagnostics/dominance-cfg.mlir are those
// mlir-opt-22 reports, at the same places, and what mlc accepts there it accepts.
// REQUIRES: mlir-opt
// RUN: %mlir_opt %S/../diagnostics/dominance-cfg.mlir --split-input-file --verify-diagnostics --allow-unregistered-dialect > /dev/null
