func.func @f() {
  return
}
// café in latin-1
