#![no_main]

libfuzzer_sys::fuzz_target!(
    init: {
        varcat::fuzzing::sample_collections();
    },
    |data: &[u8]| varcat::fuzzing::annotate(data)
);
