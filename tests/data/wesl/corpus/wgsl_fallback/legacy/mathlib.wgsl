import package::weights::LUMA;

fn luminance(c: vec3f) -> f32 {
  return dot(c, LUMA);
}
