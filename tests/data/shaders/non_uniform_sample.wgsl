@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@fragment fn main(@location(0) uv: vec2f) -> @location(0) vec4f {
  if (uv.x > 0.5) {
    return textureSample(t, s, uv);
  }
  return vec4f(0.0);
}
