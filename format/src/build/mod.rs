//! What only a build uses: its threads, its heap and the key fingerprints it resolves handles
//! with. A server never runs this code (a key lookup it makes carries no key index).

pub mod heap;
pub mod keyindex;
pub mod parallel;
