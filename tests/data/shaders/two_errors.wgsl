fn first() -> f32 {
  return missing_a;
}
fn second() -> f32 {
  return missing_b;
}
