// Photoshop-style blend modes, plain WGSL.
fn blend_overlay_1(b: f32, l: f32) -> f32 {
  if (b < 0.5) {
    return 2.0 * b * l;
  }
  return 1.0 - 2.0 * (1.0 - b) * (1.0 - l);
}

fn blend_overlay(b: vec3f, l: vec3f) -> vec3f {
  return vec3f(blend_overlay_1(b.r, l.r), blend_overlay_1(b.g, l.g), blend_overlay_1(b.b, l.b));
}

fn blend_screen(b: vec3f, l: vec3f) -> vec3f {
  return 1.0 - (1.0 - b) * (1.0 - l);
}

fn blend_multiply(b: vec3f, l: vec3f) -> vec3f {
  return b * l;
}
