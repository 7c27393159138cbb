#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| varcat::fuzzing::catalog_open(data));
