// Bad command lines: a usage line and one `mlc-opt: error:` line, a non-zero exit
// status, and never a Python traceback.
// RUN: not mlc-opt --bogus %s 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not mlc-opt --bogus %s 2>&1 | filecheck %s --check-prefix=NOTRACE
// RUN: not mlc-opt --elide-elementsattrs-if-larger abc %s 2>&1 | filecheck %s --check-prefix=BADINT
// RUN: not mlc-opt --elide-elementsattrs-if-larger abc %s 2>&1 | filecheck %s --check-prefix=NOTRACE
// RUN: not mlc-opt %s -o 2>&1 | filecheck %s --check-prefix=NOVALUE
// RUN: not mlc-opt %s -o 2>&1 | filecheck %s --check-prefix=NOTRACE
// RUN: not mlc-opt %s %s 2>&1 | filecheck %s --check-prefix=TWO
// RUN: not mlc-opt %s %s 2>&1 | filecheck %s --check-prefix=NOTRACE
// RUN: not mlc-opt --print-debuginfo=yes %s 2>&1 | filecheck %s --check-prefix=NOTRACE

// UNKNOWN: usage: mlc-opt
// UNKNOWN: mlc-opt: error: unrecognized arguments: --bogus
// BADINT: mlc-opt: error: argument --elide-elementsattrs-if-larger/--mlir-elide-elementsattrs-if-larger: invalid int value: 'abc'
// NOVALUE: mlc-opt: error: argument -o: expected one argument
// TWO: mlc-opt: error: unrecognized arguments:
// NOTRACE: mlc-opt: error:
// NOTRACE-NOT: Traceback
// NOTRACE-NOT: internal error

func.func private @f()
