#![no_main]

// The sample catalog is built (on the indexer's threads) before the first input, not during it.
libfuzzer_sys::fuzz_target!(
    init: {
        varcat::fuzzing::sample_app();
    },
    |data: &[u8]| varcat::fuzzing::request(data)
);
