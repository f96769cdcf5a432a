fn f() -> f32 {
  return 1.0; // ÿþ broken
}
