fn shade() -> f32 {
	let café = 1.0; // café €
	/* été */ return café * undefined_gain;
}
