enable subgroups;
@compute @workgroup_size(64) fn main() { }
