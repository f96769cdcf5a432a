enable f16;
fn f() -> f16 { return 1.0h; }
