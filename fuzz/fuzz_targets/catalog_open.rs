#![no_main]

// The small catalog is built (on the indexer's threads) before the first input, not during it.
libfuzzer_sys::fuzz_target!(
    init: {
        varcat::fuzzing::small_catalog();
    },
    |data: &[u8]| varcat::fuzzing::catalog_open(data)
);
