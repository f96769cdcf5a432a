// bom
fn f() -> f32 { return missing; }
