fn scale(v : f32) -> f32 {
  let factor : f32 = 2i;
  return v * factor;
}
