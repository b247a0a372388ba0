// The first chunk converts; the second fails full conversion.
func.func @first(%arg0: i32) -> i32 {
  %0 = test.source %arg0 : i32 -> i32
  return %0 : i32
}

// -----

func.func @second(%arg0: i32) {
  test.unknown %arg0 : i32
  return
}
