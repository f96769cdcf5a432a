fn count() -> i32 {
  var total = 0;
  total = total + 1
  return total;
}
