"""Reports: Cargo-Bench results, labelled reports, calibration, the gate demo."""
