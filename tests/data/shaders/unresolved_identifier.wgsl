fn brightness(c : vec3<f32>) -> f32 {
  return dot(c, luminance_weights);
}
