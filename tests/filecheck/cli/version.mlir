// --version and --help print and exit 0, whatever else is on the command line.
// RUN: mlc-opt --version | filecheck %s
// RUN: mlc-opt --version %s --print-op-generic | filecheck %s
// RUN: mlc-opt --help | filecheck %s --check-prefix=HELP

// CHECK: {{^}}mlc-opt {{[0-9]+\.[0-9]+\.[0-9]+}}
// CHECK-NOT: module

// HELP: usage: mlc-opt
// HELP-DAG: --print-op-generic
// HELP-DAG: --print-debuginfo
// HELP-DAG: --allow-unregistered-dialect
// HELP-DAG: --split-input-file
// HELP-DAG: --verify-diagnostics
// HELP-DAG: --elide-elementsattrs-if-larger
// HELP-DAG: --print-elementsattrs-with-hex-if-larger
// HELP-DAG: --no-verify
// HELP-DAG: --list-ops
// HELP-DAG: --op-docs
// HELP-DAG: --version
// HELP-DAG: -o FILE
