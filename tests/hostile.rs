//! Hostile HTTP clients (filled in by the next commit).
