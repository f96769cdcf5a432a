enable clip_distances;
struct O { @builtin(position) p: vec4f, @builtin(clip_distances) c: array<f32, 1> }
@vertex fn v() -> O { var o: O; return o; }
